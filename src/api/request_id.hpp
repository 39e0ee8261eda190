// X-Request-Id: echo a sane client-supplied id, else generate one.
#pragma once

#include <string>
#include <string_view>

namespace leadline::api {

// 1-128 characters of [A-Za-z0-9._-].
bool is_acceptable_request_id(std::string_view id);

// "req_" + 24 random base62 characters.
std::string generate_request_id();

}  // namespace leadline::api
