// Strict JSON parsing of request bodies: valid UTF-8, bounded depth, no duplicate keys,
// finite numbers, and an object at the top.
#pragma once

#include <boost/json/object.hpp>
#include <string_view>

#include "api/decoded.hpp"

namespace leadline::api {

Decoded<boost::json::object> parse_json_object(std::string_view text);

}  // namespace leadline::api
