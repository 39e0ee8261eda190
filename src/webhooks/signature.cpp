// The parts are fed to the HMAC in turn, so the body is never copied into one signed string.
#include "webhooks/signature.hpp"

#include "auth/hmac_sha256.hpp"
#include "webhooks/base64.hpp"

namespace leadline::webhooks {

std::string sign(std::string_view secret_bytes, std::string_view msg_id, std::int64_t unix_seconds,
                 std::string_view body) {
  const std::string timestamp = std::to_string(unix_seconds);
  const auto digest = auth::hmac_sha256(secret_bytes, {msg_id, ".", timestamp, ".", body});
  return "v1," + base64_encode(
                     std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

std::string signature_header(const std::vector<std::string>& secret_bytes_newest_first,
                             std::string_view msg_id, std::int64_t unix_seconds,
                             std::string_view body) {
  std::string header;
  for (const auto& secret : secret_bytes_newest_first) {
    if (!header.empty()) header += ' ';
    header += sign(secret, msg_id, unix_seconds, body);
  }
  return header;
}

}  // namespace leadline::webhooks
