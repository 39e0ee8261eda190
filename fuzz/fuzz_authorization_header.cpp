// Fuzzes the Authorization header: bytes -> parse_bearer_token and looks_like_api_key, checking
// the token is a trimmed, space-free part of the value after a case-insensitive "Bearer ".
#include <cctype>
#include <string_view>

#include "auth/api_key.hpp"
#include "fuzz_check.hpp"

using namespace leadline;

namespace {

bool iequals_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

void check_key_shape(std::string_view text) {
  if (!auth::looks_like_api_key(text)) return;
  FUZZ_CHECK(text.size() == auth::kKeyPrefix.size() + auth::kKeyRandomLength, "key length");
  FUZZ_CHECK(text.starts_with(auth::kKeyPrefix), "key prefix");
  for (const char c : text.substr(auth::kKeyPrefix.size())) {
    FUZZ_CHECK(std::isalnum(static_cast<unsigned char>(c)) != 0, "key character");
  }
  FUZZ_CHECK(auth::hash_api_key(text).size() == 64, "a key hash is not 64 hex digits");
  FUZZ_CHECK(auth::display_prefix(text).size() == auth::kKeyPrefix.size() + 4, "display prefix");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view value = fuzz::as_text(data, size);
  check_key_shape(value);

  const auto token = auth::parse_bearer_token(value);
  if (!token) return 0;
  FUZZ_CHECK(!token->empty(), "an empty token was accepted");
  FUZZ_CHECK(
      token->data() >= value.data() && token->data() + token->size() <= value.data() + value.size(),
      "the token does not point into the header value");
  FUZZ_CHECK(token->find_first_of(" \t") == std::string_view::npos, "the token has white space");

  // What precedes the token is optional white space, the scheme, then at least one space.
  std::string_view head = value.substr(0, static_cast<std::size_t>(token->data() - value.data()));
  while (!head.empty() && (head.front() == ' ' || head.front() == '\t')) head.remove_prefix(1);
  FUZZ_CHECK(head.size() > 6 && iequals_ascii(head.substr(0, 6), "Bearer"), "scheme not Bearer");
  FUZZ_CHECK(head.substr(6).find_first_not_of(' ') == std::string_view::npos,
             "something other than spaces between the scheme and the token");
  const std::string_view tail =
      value.substr(head.data() - value.data() + head.size() + token->size());
  FUZZ_CHECK(tail.find_first_not_of(" \t") == std::string_view::npos,
             "something other than white space after the token");

  check_key_shape(*token);
  return 0;
}
