// The SQL text of one page of a filtered, keyset-ordered list and of the count of every match;
// values are always bound, never spliced in.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/list_query.hpp"
#include "store/sql/dialect.hpp"
#include "store/sql/keyset_clause.hpp"

namespace leadline::store::sql {

struct ListSql {
  std::string columns;        // what the row reader reads, from column 0 on
  std::string from;           // table and joins
  std::string where;          // the filters; always at least the workspace condition
  std::vector<Value> params;  // for the placeholders of `where`
  std::vector<SortKey> keys;
  std::string id_expr;
  SortDirection direction = SortDirection::kDesc;
  // How total_count is found. Empty: COUNT(*) over `from` and `where`, or over `count_from`
  // and `where` when the joins of `from` never change the count. Else its own statement
  // (e.g. the counts the triggers keep), taking `count_params`.
  std::string count_from;
  std::string count_sql;
  std::vector<Value> count_params;
  // Set by a search through an index whose matches the planner cannot estimate: the same
  // filters (same parameters), written so that the page is read from the matches rather than
  // by walking the sort order. The better plan when the count shows few matches.
  std::string match_driven_where;
  // Set by a filter with an index of its own that the planner would not otherwise be held to
  // (an SQLite window sorted by another column): `from` naming that index, the other way to
  // read the page from the matches. match_driven_where, where set, wins: it drives from its
  // own matches.
  std::string match_driven_from;
  // Set by a filter the planner would always read through its own index (an SQLite window on
  // another column than the sort's): the same filters (same parameters), written so that the
  // page walks the sort order instead. The better plan when the count shows many matches.
  std::string sort_driven_where;
  // Set by a sync window (filter_updated_window): its index leads the count and a page of few
  // matches, so a filter added after it is checked row by row.
  bool windowed = false;
  // Set when the filters beyond the workspace are served by the sort's own index whatever their
  // values (a lead's stage under the created_at sort): planned once, as an unfiltered list is.
  bool planned_once = false;

  // The rows of one workspace: `alias`'s rows in `from` (whose table holds workspace_id and id),
  // reading `columns`; filters and the order are added after.
  static ListSql of_workspace(std::string_view columns, std::string_view from,
                              std::string_view alias, const std::string& workspace_id) {
    ListSql sql;
    sql.columns = columns;
    sql.from = from;
    sql.where = std::string(alias) + ".workspace_id = ?";
    sql.params.emplace_back(workspace_id);
    sql.id_expr = std::string(alias) + ".id";
    return sql;
  }

  void sort_by(std::vector<SortKey> sort_keys, SortDirection sort_direction) {
    keys = std::move(sort_keys);
    direction = sort_direction;
  }

  // Appends " AND <condition>" (with "?" placeholders) and the values they take, to `where`
  // and to the other forms of it that are set, which hold the same filters.
  template <class... Values>
  void filter(std::string_view condition, Values&&... values) {
    for (std::string* form : {&where, &match_driven_where, &sort_driven_where}) {
      if (form == &where || !form->empty()) *form += " AND " + std::string(condition);
    }
    (params.emplace_back(std::forward<Values>(values)), ...);
  }
};

struct ListStatements {
  std::string page_sql;  // selects the row, then the id, then the sort key values
  std::vector<Value> page_params;
  std::string count_sql;
  std::vector<Value> count_params;
};

// Counts a list whose only filters are the workspace and, optionally, the record's bucket (a
// lead's pipeline_stage, a conversation's status) from record_counts, which triggers keep.
void count_from_record_counts(ListSql& sql, std::string_view record_type, const std::string& ws,
                              const std::optional<std::string>& bucket);

// The page asks for limit + 1 rows: the one beyond the page only says that there is more.
ListStatements build_list_statements(const ListSql& sql, const PageRequest& page,
                                     const Dialect& dialect);

}  // namespace leadline::store::sql
