// Invariant checks for the fuzz targets: a failed check prints what broke and aborts, which
// libFuzzer records as a crash with the input that caused it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "api/decoded.hpp"
#include "domain/unicode_text.hpp"

#define FUZZ_CHECK(condition, what)                                                            \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "fuzz invariant broken at %s:%d: %s\n  (%s)\n", __FILE__, __LINE__, \
                   what, #condition);                                                          \
      std::abort();                                                                            \
    }                                                                                          \
  } while (false)

namespace leadline::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline void check_message(const api::BadRequest& e) {
  FUZZ_CHECK(!e.message.empty(), "a 400 sentence is empty");
  FUZZ_CHECK(domain::is_valid_utf8(e.message), "a 400 sentence is not valid UTF-8");
}

template <class T, class Check>
void check_decoded(const api::Decoded<T>& decoded, Check&& check) {
  if (const auto* e = api::failed(decoded)) {
    check_message(*e);
    return;
  }
  check(std::get<T>(decoded));
}

}  // namespace leadline::fuzz
