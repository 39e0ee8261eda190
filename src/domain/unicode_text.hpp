// UTF-8 facts the validation rules need: validity, code point counts, case folding, trimming.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::domain {

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view s);

// Number of code points in valid UTF-8 `s`.
std::size_t code_point_count(std::string_view s);

// Unicode simple case folding of valid UTF-8, so that "Müller" and "MÜLLER" compare equal.
std::string case_fold(std::string_view s);

// Strips Unicode white space (White_Space property) from both ends.
std::string_view trim_unicode_space(std::string_view s);

// Decodes the code point at s[i] (valid UTF-8 assumed) and advances i past it.
char32_t decode_code_point(std::string_view s, std::size_t& i);

void append_utf8(std::string& out, char32_t cp);

bool is_unicode_space(char32_t cp);

}  // namespace leadline::domain
