// The keyset position of a list row, read from the columns after the row's own.
#include "store/sql/list_page.hpp"

namespace leadline::store::sql {

KeysetPosition read_position(const Rows& rows, std::size_t key_count) {
  const int first_key_column = rows.columns() - 1 - static_cast<int>(key_count);
  KeysetPosition pos;
  pos.id = rows.text(first_key_column);
  for (std::size_t k = 0; k < key_count; ++k) {
    pos.values.push_back(rows.value(first_key_column + 1 + static_cast<int>(k)));
  }
  return pos;
}

}  // namespace leadline::store::sql
