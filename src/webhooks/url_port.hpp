// The port a webhook URL connects to, shared by the registration check and the sender.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace leadline::webhooks {

// The port text of a URL ("" when absent or written as "host:") read as 1..65535, else the
// scheme's default; nothing when it names no port. Boost.URL's port_number() wraps values above
// 65535 (99999 becomes 34463), so the text is read here.
inline std::optional<std::uint16_t> url_port(std::string_view text, bool https) {
  if (text.empty()) return https ? 443 : 80;
  unsigned value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || value == 0 || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

}  // namespace leadline::webhooks
