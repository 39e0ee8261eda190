// Standard base64 (RFC 4648 section 4, with padding) for webhook secrets and signatures, on
// OpenSSL's EVP block coder.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::webhooks {

std::string base64_encode(std::string_view bytes);

// Only canonical text: the standard alphabet, length a multiple of 4, at most two '=' at the
// end, no white space and no stray bits after the last byte. Nothing otherwise.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace leadline::webhooks
