// The text a delivery log shows of a receiver's answer: its first bytes as valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace leadline::webhooks {

// `kept` as valid UTF-8: each invalid sequence (its maximal valid prefix, or one byte) becomes
// U+FFFD. When `cut` (the body went on after `kept`), a sequence that is only incomplete because
// the cut fell inside it is dropped instead, so a valid body never shows a replacement character.
std::string utf8_excerpt(std::string_view kept, bool cut);

}  // namespace leadline::webhooks
