// Masking by shape, not by scheme: any userinfo password and any password= parameter.
#include "cli/secret_mask.hpp"

namespace leadline::cli {

namespace {

constexpr std::string_view kMask = "***";

void mask_userinfo_password(std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return;
  const auto authority = scheme_end + 3;
  const auto authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  const auto at = url.rfind('@', authority_end);
  if (at == std::string::npos || at < authority) return;
  const auto colon = url.find(':', authority);
  if (colon == std::string::npos || colon > at) return;
  url.replace(colon + 1, at - colon - 1, kMask);
}

void mask_password_parameters(std::string& text) {
  constexpr std::string_view kKey = "password=";
  std::size_t from = 0;
  while ((from = text.find(kKey, from)) != std::string::npos) {
    const bool at_word_start =
        from == 0 || text[from - 1] == '?' || text[from - 1] == '&' || text[from - 1] == ' ';
    const auto value = from + kKey.size();
    if (!at_word_start) {
      from = value;
      continue;
    }
    const auto end = std::min(text.find_first_of("& ", value), text.size());
    text.replace(value, end - value, kMask);
    from = value + kMask.size();
  }
}

}  // namespace

std::string mask_secrets(std::string_view url) {
  std::string masked(url);
  mask_userinfo_password(masked);
  mask_password_parameters(masked);
  return masked;
}

}  // namespace leadline::cli
