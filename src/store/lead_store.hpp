// Leads: create, read, PATCH, delete and keyset-paged lists, each scoped by workspace.
#pragma once

#include <optional>
#include <string_view>

#include "domain/records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"
#include "store/rendered_page_cache.hpp"
#include "store/search_result_cache.hpp"
#include "store/sql/list_statements.hpp"

namespace leadline::store {

// Per I/O thread: two on the benchmark's two cores, 16 MiB in all at most.
inline constexpr std::size_t kSearchCacheBytes = 8 << 20;
// A search with more matches keeps its count only, and the database reads each page: keeping
// them would take about 90 bytes a match (rowid, id, sort value), over half the budget.
inline constexpr std::int64_t kMaxCachedMatches = 40'000;
// Per I/O thread (eight with PostgreSQL on two cores): about 160 default pages of 50 leads each.
inline constexpr std::size_t kPageCacheBytes = 4 << 20;

class LeadStore {
 public:
  explicit LeadStore(OperationRunner& runner)
      : runner_(runner), search_results_(kSearchCacheBytes), pages_(kPageCacheBytes) {}

  // The created lead, without rep (the create response carries none).
  domain::Lead create(const domain::WorkspaceId& ws, const domain::NewLead& lead);
  // With the assigned rep's name and e-mail when there is one.
  std::optional<domain::Lead> get(const domain::WorkspaceId& ws, const domain::LeadId& id);
  // Concurrent PATCHes of one lead apply one after the other; a PATCH that changes nothing
  // leaves updated_at alone.
  UpdateResult<domain::Lead> update(const domain::WorkspaceId& ws, const domain::LeadId& id,
                                    const domain::LeadPatch& patch);
  bool remove(const domain::WorkspaceId& ws, const domain::LeadId& id);
  Page<domain::Lead> list(const domain::WorkspaceId& ws, const LeadListQuery& query);
  // The same page, each lead given to `visit` as it is read (ItemVisitor), without the items.
  PageFacts list(const domain::WorkspaceId& ws, const LeadListQuery& query,
                 const ItemVisitor<domain::Lead>& visit);
  // The same page, each lead as its list-item JSON (record_json::write_lead_item's bytes), read
  // as its writes keep it rather than built from its columns.
  PageFacts list_rendered(const domain::WorkspaceId& ws, const LeadListQuery& query,
                          const ItemVisitor<std::string_view>& visit);

 private:
  // `sql` is the list's own statement; its columns do not matter to the matches.
  std::optional<CachedSearch> cached_search(sql::Connection& c, const domain::WorkspaceId& ws,
                                            const LeadListQuery& query,
                                            const sql::ListSql& sql) const;

  std::optional<PageFacts> kept_or_read_page(sql::Connection& c, const domain::WorkspaceId& ws,
                                             const LeadListQuery& query, const sql::ListSql& sql,
                                             const ItemVisitor<std::string_view>& visit);

  std::optional<PageFacts> kept_page_if_standing(const domain::WorkspaceId& ws,
                                                 const LeadListQuery& query,
                                                 const ItemVisitor<std::string_view>& visit);

  OperationRunner& runner_;
  // Searches on an engine that keeps lead versions (Dialect::lead_version).
  SearchResultCache search_results_;
  // Rendered pages where rows have no rowid (PostgreSQL).
  RenderedPageCache pages_;
};

// A new lead's row (new_records.hpp) as a create writes it: the columns and their values, also
// for an import's bulk insert.
const std::string& new_lead_columns();
sql::Params new_lead_values(const domain::WorkspaceId& ws, const domain::Lead& lead);
// Writes `rows` (new_lead_values of the workspace's leads) in one bulk insert, each in its
// workspace's rowid range where the engine keeps one (migration 0009 on SQLite).
void insert_lead_rows(sql::Connection& conn, const domain::WorkspaceId& ws,
                      const std::vector<sql::Params>& rows);

// Writes the list-item JSON of every lead that has none (written before migration 0013 on
// SQLite, 0010 on PostgreSQL), inside the caller's transaction.
void fill_missing_lead_items(sql::Connection& conn);

// The statements list() runs, for query plan checks; with `total_count`, the page it runs after
// counting that many matches.
sql::ListStatements lead_list_statements(const sql::Dialect& dialect, const domain::WorkspaceId& ws,
                                         const LeadListQuery& query,
                                         std::optional<std::int64_t> total_count = std::nullopt);

}  // namespace leadline::store
