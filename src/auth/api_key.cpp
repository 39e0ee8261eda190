// API key generation, hashing and recognition; OpenSSL supplies the randomness and SHA-256.
#include "auth/api_key.hpp"

#include <openssl/crypto.h>

#include <boost/beast/core/string.hpp>

#include "auth/random_text.hpp"
#include "auth/sha256_hex.hpp"

namespace leadline::auth {

namespace {

bool is_alnum_ascii(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_space_or_tab(char c) {
  return c == ' ' || c == '\t';
}

}  // namespace

std::string generate_api_key() {
  return std::string(kKeyPrefix) + random_alphanumeric(kKeyRandomLength);
}

std::string hash_api_key(std::string_view key) {
  return sha256_hex(key);
}

std::string display_prefix(std::string_view key) {
  return std::string(key.substr(0, kKeyPrefix.size() + 4));
}

bool looks_like_api_key(std::string_view key) {
  if (key.size() != kKeyPrefix.size() + kKeyRandomLength) return false;
  if (!key.starts_with(kKeyPrefix)) return false;
  for (const char c : key.substr(kKeyPrefix.size())) {
    if (!is_alnum_ascii(c)) return false;
  }
  return true;
}

std::optional<std::string_view> parse_bearer_token(std::string_view header_value) {
  constexpr std::string_view kScheme = "Bearer";
  // Surrounding whitespace is not part of a header value (RFC 9110 OWS); some clients pad it.
  while (!header_value.empty() && is_space_or_tab(header_value.front())) {
    header_value.remove_prefix(1);
  }
  while (!header_value.empty() && is_space_or_tab(header_value.back())) {
    header_value.remove_suffix(1);
  }
  if (header_value.size() <= kScheme.size()) return std::nullopt;
  if (!boost::beast::iequals(header_value.substr(0, kScheme.size()), kScheme)) return std::nullopt;
  std::string_view rest = header_value.substr(kScheme.size());
  if (rest.front() != ' ') return std::nullopt;
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.empty()) return std::nullopt;
  for (const char c : rest) {
    if (is_space_or_tab(c)) return std::nullopt;
  }
  return rest;
}

bool constant_time_equals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace leadline::auth
