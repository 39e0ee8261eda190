// SQLite's list dialect and the reading of a row's keyset position.
#include "store/sqlite/list_page.hpp"

namespace leadline::store::sqlite {

namespace {

std::string question_mark(std::size_t) {
  return "?";
}

}  // namespace

const SqlDialect& sqlite_dialect() {
  static const SqlDialect dialect{false, question_mark};
  return dialect;
}

KeysetPosition read_position(const Query& q, std::size_t key_count) {
  const int first_key_column = q.column_count() - 1 - static_cast<int>(key_count);
  KeysetPosition pos;
  pos.id = q.text(first_key_column);
  for (std::size_t k = 0; k < key_count; ++k) {
    pos.values.push_back(q.value(first_key_column + 1 + static_cast<int>(k)));
  }
  return pos;
}

}  // namespace leadline::store::sqlite
