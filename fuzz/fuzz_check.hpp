// Invariant checks for the fuzz targets: a failed check prints what broke and aborts, which
// libFuzzer records as a crash with the input that caused it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

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

}  // namespace leadline::fuzz
