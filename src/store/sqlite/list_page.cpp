// SQLite's list dialect and the reading of a row's keyset position.
#include "store/sqlite/list_page.hpp"

#include "store/sqlite/trigram_match.hpp"

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

void add_search(ListSql& sql, std::string_view alias, std::string_view index,
                std::string_view column, const std::string& needle, std::string_view count_from) {
  const auto phrase = trigram_phrase(needle);
  if (!phrase) {
    sql.where += " AND instr(" + std::string(alias) + "." + std::string(column) + ", ?) > 0";
    sql.params.emplace_back(needle);
    return;
  }
  const std::string in_index = " WHERE " + std::string(index) + " MATCH ?";
  if (!count_from.empty()) {
    // Driven by the index, the count reads the matches only; left to itself, the planner
    // would walk the workspace's rows and test each against the match list.
    sql.count_sql = "SELECT COUNT(*) FROM " + std::string(index) + " CROSS JOIN " +
                    std::string(count_from) + " ON " + std::string(alias) +
                    ".rowid = " + std::string(index) + ".rowid" + in_index + " AND " + sql.where;
    sql.count_params = {*phrase};
    sql.count_params.insert(sql.count_params.end(), sql.params.begin(), sql.params.end());
  }
  const std::string condition = " AND " + std::string(alias) + ".rowid IN (SELECT rowid FROM " +
                                std::string(index) + in_index + ")";
  // The unary + keeps the planner off the workspace's sort index, leaving it one way in: the
  // matches, looked up by rowid.
  const std::string workspace = std::string(alias) + ".workspace_id = ?";
  if (sql.where.rfind(workspace, 0) == 0) sql.match_driven_where = "+" + sql.where + condition;
  sql.where += condition;
  sql.params.emplace_back(*phrase);
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
