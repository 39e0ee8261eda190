// The FTS5 query that finds, through a trigram index, the rows whose column contains a needle.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::store::sqlite {

// The needle as one quoted FTS5 phrase: its trigrams in a row, which is to say the needle as a
// substring. Needles of fewer than three characters have no trigram to look up (nullopt); the
// caller then scans with instr().
std::optional<std::string> trigram_phrase(std::string_view needle);

}  // namespace leadline::store::sqlite
