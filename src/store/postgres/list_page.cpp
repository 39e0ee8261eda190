// PostgreSQL's list dialect, keyset positions and LIKE patterns.
#include "store/postgres/list_page.hpp"

namespace leadline::store::postgres {

namespace {

std::string dollar_number(std::size_t number) {
  // Appended rather than "$" + to_string(): GCC 12 warns falsely on that (GCC bug 105329).
  std::string placeholder = "$";
  placeholder += std::to_string(number);
  return placeholder;
}

}  // namespace

const SqlDialect& postgres_dialect() {
  static const SqlDialect dialect{true, dollar_number};
  return dialect;
}

KeysetPosition read_position(const Row& row, std::size_t key_count) {
  const int first_key_column = row.columns() - 1 - static_cast<int>(key_count);
  KeysetPosition pos;
  pos.id = row.text(first_key_column);
  for (std::size_t k = 0; k < key_count; ++k) {
    pos.values.push_back(row.value(first_key_column + 1 + static_cast<int>(k)));
  }
  return pos;
}

std::string contains_pattern(const std::string& needle) {
  // Backslash is LIKE's default escape character.
  std::string pattern = "%";
  for (const char c : needle) {
    if (c == '%' || c == '_' || c == '\\') pattern.push_back('\\');
    pattern.push_back(c);
  }
  pattern.push_back('%');
  return pattern;
}

}  // namespace leadline::store::postgres
