// Quoting a needle as an FTS5 phrase: inside "...", only " is special and is doubled.
#include "store/sqlite/trigram_match.hpp"

#include <cstddef>

namespace leadline::store::sqlite {

std::optional<std::string> trigram_phrase(std::string_view needle) {
  std::size_t characters = 0;
  for (const char c : needle) {
    // UTF-8 continuation bytes (10xxxxxx) do not start a character.
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
  }
  if (characters < 3) return std::nullopt;
  std::string phrase = "\"";
  phrase.reserve(needle.size() + 2);
  for (const char c : needle) {
    phrase += c;
    if (c == '"') phrase += '"';
  }
  phrase += '"';
  return phrase;
}

}  // namespace leadline::store::sqlite
