// Decoding results: a value, or a 400 sentence that names the field or parameter at fault.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace leadline::api {

struct BadRequest {
  std::string message;
};

template <class T>
using Decoded = std::variant<T, BadRequest>;

template <class T>
const BadRequest* failed(const Decoded<T>& d) {
  return std::get_if<BadRequest>(&d);
}

}  // namespace leadline::api
