// base64url without padding (RFC 4648 section 5), for cursors.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::api {

std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace leadline::api
