// Strings are scanned sixteen or eight bytes at a time (most text has nothing to escape); numbers
// come from std::to_chars, the shortest round-trip form.
#include "json_text/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace leadline::json_text {

namespace {

constexpr std::size_t kShortString = 126;

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

#if defined(__SSE2__)
// Bit k set when byte k of the sixteen at `p` must be escaped.
int special_bytes(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i last_control = _mm_set1_epi8(0x1F);
  // max(v, 0x1F) == 0x1F exactly for the unsigned bytes below 0x20.
  const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, last_control), last_control);
  const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  return _mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash)));
}
#endif

// The index of the first byte of `s` that must be escaped, or s.size(): sixteen bytes at a time
// where SSE2 is there (every x86-64), else eight. The last block overlaps the one before it
// rather than going byte by byte; its bytes before `i` are known clean, so a hit is at or after i.
std::size_t clean_prefix(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= 16) {
    for (; i + 16 <= n; i += 16) {
      if (const int mask = special_bytes(p + i); mask != 0) {
        return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
      }
    }
    if (i == n) return n;
    const int mask = special_bytes(p + n - 16);
    return mask == 0
               ? n
               : n - 16 + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#endif
  const auto word_at = [p](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, p + at, 8);
    return w;
  };
  for (; i + 8 <= n; i += 8) {
    if (word_needs_escape(word_at(i))) break;
  }
  if (i + 8 > n && n >= 8 && !word_needs_escape(word_at(n - 8))) return n;
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
  }
  return i;
}

}  // namespace

void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::size_t clean = clean_prefix(s);
  if (clean == s.size() && s.size() <= kShortString) {
    // The common case, quotes and text in one append: each append checks and updates the
    // string, which costs more than copying a short text.
    char buf[kShortString + 2];
    buf[0] = '"';
    std::memcpy(buf + 1, s.data(), s.size());
    buf[s.size() + 1] = '"';
    out.append(buf, s.size() + 2);
    return;
  }
  out.push_back('"');
  out.append(s.data(), clean);
  std::size_t run = clean;
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
