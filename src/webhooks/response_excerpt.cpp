// Replacement follows the Unicode "maximal subpart" practice (as browsers and ICU do): one U+FFFD
// for each longest prefix of a well-formed sequence, or for a byte that starts none. domain's
// validator answers the common case (the whole excerpt is valid) without a copy being rebuilt.
#include "webhooks/response_excerpt.hpp"

#include "domain/unicode_text.hpp"

namespace leadline::webhooks {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

struct Lead {
  int continuation_bytes;   // 0 for a byte that starts no sequence
  unsigned char low, high;  // the range of the first continuation byte
};

Lead lead_of(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return {1, 0x80, 0xBF};
  if (b == 0xE0) return {2, 0xA0, 0xBF};  // no overlongs
  if (b == 0xED) return {2, 0x80, 0x9F};  // no surrogates
  if (b >= 0xE1 && b <= 0xEF) return {2, 0x80, 0xBF};
  if (b == 0xF0) return {3, 0x90, 0xBF};  // no overlongs
  if (b == 0xF4) return {3, 0x80, 0x8F};  // nothing above U+10FFFF
  if (b >= 0xF1 && b <= 0xF3) return {3, 0x80, 0xBF};
  return {0, 0, 0};
}

}  // namespace

std::string utf8_excerpt(std::string_view kept, bool cut) {
  if (domain::is_valid_utf8(kept)) return std::string(kept);
  std::string out;
  out.reserve(kept.size() + 16);
  std::size_t i = 0;
  while (i < kept.size()) {
    const auto b = static_cast<unsigned char>(kept[i]);
    if (b < 0x80) {
      out.push_back(kept[i++]);
      continue;
    }
    const Lead lead = lead_of(b);
    int valid = 0;  // continuation bytes that fit, in a row
    while (valid < lead.continuation_bytes && i + 1 + valid < kept.size()) {
      const auto c = static_cast<unsigned char>(kept[i + 1 + valid]);
      const unsigned char low = valid == 0 ? lead.low : 0x80;
      const unsigned char high = valid == 0 ? lead.high : 0xBF;
      if (c < low || c > high) break;
      ++valid;
    }
    if (lead.continuation_bytes > 0 && valid == lead.continuation_bytes) {
      out.append(kept.substr(i, 1 + valid));
    } else if (lead.continuation_bytes > 0 && cut && i + 1 + valid == kept.size()) {
      break;  // a sequence cut by the byte limit, not a broken one
    } else {
      out.append(kReplacement);
    }
    i += 1 + valid;
  }
  return out;
}

}  // namespace leadline::webhooks
