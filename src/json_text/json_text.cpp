// Strings are scanned eight bytes at a time (most text has nothing to escape); numbers come from
// std::to_chars, the shortest round-trip form.
#include "json_text/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace leadline::json_text {

namespace {

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

// True when some byte of `w` is a control character, '"' or '\\' (bit tricks from "Bit
// Twiddling Hacks": a byte below n, a byte equal to c). Most text has none, so whole words are
// skipped at once.
bool word_needs_escape(std::uint64_t w) {
  const std::uint64_t below_space = (w - kOnes * 0x20) & ~w & kHighs;
  const std::uint64_t q = w ^ (kOnes * '"');
  const std::uint64_t b = w ^ (kOnes * '\\');
  const std::uint64_t quote = (q - kOnes) & ~q & kHighs;
  const std::uint64_t backslash = (b - kOnes) & ~b & kHighs;
  return (below_space | quote | backslash) != 0;
}

}  // namespace

void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t clean = 0;
  while (clean + 8 <= s.size()) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + clean, 8);
    if (word_needs_escape(w)) break;
    clean += 8;
  }
  std::size_t run = 0;
  for (std::size_t i = clean; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      default:
        out.append("\\u00");
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void append_number(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out.append("null");
    return;
  }
  if (d == 0) d = 0;  // -0 is written as 0
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, d);
  out.append(buf, r.ptr);
}

}  // namespace leadline::json_text
