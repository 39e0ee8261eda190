// The dashboard's password rule: 12 to 128 characters (Unicode code points), nothing else
// (NIST SP 800-63B: length, not composition).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::domain {

inline constexpr std::size_t kPasswordMinLength = 12;
inline constexpr std::size_t kPasswordMaxLength = 128;

// The sentence naming what is wrong, or nothing. `password` must be valid UTF-8.
std::optional<std::string> check_password(std::string_view password);

}  // namespace leadline::domain
