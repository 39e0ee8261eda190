#include "domain/password_rule.hpp"

#include "domain/unicode_text.hpp"

namespace leadline::domain {

std::optional<std::string> check_password(std::string_view password) {
  if (!is_valid_utf8(password)) return "password must be valid UTF-8 text";
  const std::size_t length = code_point_count(password);
  if (length < kPasswordMinLength || length > kPasswordMaxLength) {
    return "password must be " + std::to_string(kPasswordMinLength) + " to " +
           std::to_string(kPasswordMaxLength) + " characters long";
  }
  return std::nullopt;
}

}  // namespace leadline::domain
