// X-Request-Id: echo a sane client-supplied id, else generate one.
#pragma once

#include <string>
#include <string_view>

namespace leadline::api {

// 1-128 characters of [A-Za-z0-9._-].
bool is_acceptable_request_id(std::string_view id);

// "req_" + 24 random base62 characters.
std::string generate_request_id();

// The id of a request whose client sent `supplied` (empty: none): that, when acceptable, else a
// generated one.
std::string request_id_for(std::string_view supplied);

}  // namespace leadline::api
