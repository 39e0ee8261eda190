// Runs one page of a filtered, keyset-ordered list and the count of every match, on either
// engine. The caller holds a snapshot around it so both statements see the same rows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "store/list_query.hpp"
#include "store/sql/connection.hpp"
#include "store/sql/list_statements.hpp"
#include "store/sql/version_gate.hpp"

namespace leadline::store::sql {

// The id and sort key values of the current row, exactly as the store compares them; the page
// SELECT puts them after the row's own columns.
KeysetPosition read_position(const Rows& rows, std::size_t key_count);

// Up to this many search matches, reading them and sorting beats walking the sort order until
// a page of them turns up (which takes about limit / share-of-matches steps). Measured on 100k
// leads in SQLite with 8 connections: 22 matches read from the matches, 2,900 req/s; 1,000
// matches read that way, 10 req/s, against 700 walking the sort index: each request's sorter
// allocates and frees large buffers, and concurrent sorters stall each other.
inline constexpr std::int64_t kMatchDrivenLimit = 500;

// The statements of a list whose count is `total_count`: the page in the form that suits that
// many matches (ListSql::match_driven_where, match_driven_from, sort_driven_where). Without a
// count, the page as the filters are written, which is the statement that finds the count.
ListStatements list_statements_for(const ListSql& sql, const PageRequest& page,
                                   const Dialect& dialect, std::optional<std::int64_t> total_count);

// Calls each_row(rows) on every row that `rows`, a page statement's answer, holds of the page,
// in order, and says whether there is more and where the next page starts (not the count).
template <class EachRow>
PageFacts read_page_rows(Rows& rows, const PageRequest& page, std::size_t key_count,
                         EachRow&& each_row) {
  const auto limit = static_cast<std::size_t>(std::max(page.limit, 1));
  PageFacts out;
  std::size_t items = 0;
  while (rows.next()) {
    // The one row beyond the page only says that there is more.
    if (items == limit) {
      out.has_more = true;
      break;
    }
    each_row(rows);
    if (++items == limit) out.next_position = read_position(rows, key_count);
  }
  if (!out.has_more) out.next_position.reset();
  return out;
}

// Whether the page's statement is chosen by the count (ListSql::match_driven_where,
// match_driven_from, sort_driven_where), so that the count is read first.
inline bool page_form_depends_on_count(const ListSql& sql) {
  return !sql.match_driven_where.empty() || !sql.match_driven_from.empty() ||
         !sql.sort_driven_where.empty();
}

// How a list's count and page are planned: filters beyond the workspace (its parameter comes
// first) match more or fewer rows by their values; without them, the page walks its sort's
// index and the count reads a few counter rows, whatever the values.
inline Planning list_planning(const ListSql& sql) {
  return sql.params.size() == 1 || sql.planned_once ? Planning::kOnce : Planning::kPerValues;
}

// Calls each_row(rows) on every row of the page, in order, and says what the page says besides.
// `known_count`: the count, already read in this snapshot, which is then not read again.
template <class EachRow>
PageFacts run_list_rows(Connection& conn, const ListSql& sql, const PageRequest& page,
                        EachRow&& each_row,
                        std::optional<std::int64_t> known_count = std::nullopt) {
  ListStatements st = build_list_statements(sql, page, conn.dialect());
  std::int64_t total_count = 0;
  auto read_count = [&total_count](Rows& count) {
    count.next();
    total_count = count.int64(0);
  };
  std::optional<Rows> page_rows;
  if (known_count || page_form_depends_on_count(sql)) {
    // The page's form depends on the count: one statement after the other.
    if (known_count) {
      total_count = *known_count;
    } else {
      Rows count = conn.query(st.count_sql, Params(std::move(st.count_params)));
      read_count(count);
    }
    st = list_statements_for(sql, page, conn.dialect(), total_count);
    page_rows.emplace(conn.query(st.page_sql, Params(std::move(st.page_params))));
  } else {
    // Together: one round trip where the engine pipelines.
    const Planning planning = list_planning(sql);
    std::vector<Statement> both;
    both.push_back({st.count_sql, Params(std::move(st.count_params)), planning});
    both.push_back({st.page_sql, Params(std::move(st.page_params)), planning});
    std::vector<Rows> rows = conn.query_together(std::move(both));
    read_count(rows[0]);
    page_rows.emplace(std::move(rows[1]));
  }
  PageFacts out = read_page_rows(*page_rows, page, sql.keys.size(), each_row);
  out.total_count = total_count;
  return out;
}

// A list read with a version (one row, one integer): the version, and what the page says unless
// the version was the one the caller held, when none of the page was read.
struct VersionedPage {
  std::int64_t version = 0;
  std::optional<PageFacts> facts;
};

// run_list_rows for a list whose page form does not depend on its count, with `version` read in
// the same round trip and the same snapshot; with `held` (null for none), the count and the page
// are gated on the version having moved from it (version_gate.hpp), and each_row sees no row
// when it has not.
template <class EachRow>
VersionedPage run_versioned_list_rows(Connection& conn, const ListSql& sql, const PageRequest& page,
                                      const Statement& version, const std::int64_t* held,
                                      EachRow&& each_row) {
  ListStatements st = build_list_statements(sql, page, conn.dialect());
  Params count_params(std::move(st.count_params));
  Params page_params(std::move(st.page_params));
  if (held) {
    st.count_sql = version_gated(st.count_sql, version.sql);
    st.page_sql = version_gated(st.page_sql, version.sql);
    add_gate_params(count_params, version.params, *held);
    add_gate_params(page_params, version.params, *held);
  }
  const Planning planning = list_planning(sql);
  std::vector<Statement> all;
  all.push_back({version.sql, version.params, planning});
  all.push_back({st.count_sql, std::move(count_params), planning});
  all.push_back({st.page_sql, std::move(page_params), planning});
  std::vector<Rows> rows = conn.query_together(std::move(all));
  VersionedPage out;
  rows[0].next();
  out.version = rows[0].int64(0);
  if (held != nullptr && out.version == *held) return out;
  rows[1].next();
  const std::int64_t total_count = rows[1].int64(0);
  out.facts = read_page_rows(rows[2], page, sql.keys.size(), each_row);
  out.facts->total_count = total_count;
  return out;
}

// The page's items as records: read_row(rows) gives one.
template <class T, class ReadRow>
Page<T> run_list(Connection& conn, const ListSql& sql, const PageRequest& page, ReadRow read_row) {
  Page<T> out;
  static_cast<PageFacts&>(out) = run_list_rows(
      conn, sql, page, [&](const Rows& rows) { out.items.push_back(read_row(rows)); });
  return out;
}

// The page's items one by one to `visit`, in one record that read_row(rows, record) refills.
template <class T, class ReadRow>
PageFacts visit_list(Connection& conn, const ListSql& sql, const PageRequest& page,
                     ReadRow read_row, const ItemVisitor<T>& visit,
                     std::optional<std::int64_t> known_count = std::nullopt) {
  T record;
  return run_list_rows(
      conn, sql, page,
      [&](const Rows& rows) {
        read_row(rows, record);
        visit(record);
      },
      known_count);
}

}  // namespace leadline::store::sql
