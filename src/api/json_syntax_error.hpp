// Turns the byte at which Boost.JSON's parser stopped into a sentence a client can act on: the
// byte offset and what the JSON grammar allowed there ("expected ',' or '}'").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace leadline::api {

// What the grammar expected at `offset` of `text`, given that text[0, offset) is a valid start
// of a JSON text (as it is where the parser stopped): "expected ':'", "expected a JSON value".
std::string expected_at(std::string_view text, std::size_t offset);

}  // namespace leadline::api
