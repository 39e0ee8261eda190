// Leads: insert with folded helper columns, read with the rep joined, lock-compare-write
// PATCH, and keyset-paged lists.
#include "store/lead_store.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "record_json/event_shapes.hpp"
#include "record_json/record_shapes.hpp"
#include "store/records/event_outbox.hpp"
#include "store/records/folded_text.hpp"
#include "store/records/json_string_array.hpp"
#include "store/records/list_sort_keys.hpp"
#include "store/records/new_records.hpp"
#include "store/records/record_patches.hpp"
#include "store/records/stored_enums.hpp"
#include "store/sql/column_list.hpp"
#include "store/sql/list_page.hpp"
#include "store/sql/updated_window.hpp"
#include "store/workspace_store.hpp"

namespace leadline::store {

namespace {

// Read with read_lead; needs kLeadFrom for the rep columns.
constexpr std::string_view kLeadColumns =
    "l.id, l.visitor_name, l.visitor_email, l.visitor_phone, l.visitor_company, "
    "l.pipeline_stage, l.need_summary, l.tags, l.source, l.expected_billing_amount, "
    "l.lead_score, l.assigned_rep_id, r.first_name, r.last_name, r.email, l.created_at, "
    "l.updated_at";
constexpr std::string_view kLeadFrom =
    "leads l LEFT JOIN reps r ON r.workspace_id = l.workspace_id AND r.id = l.assigned_rep_id";

// What a rendered list reads of a lead: the JSON its writes keep (migration 0013).
constexpr std::string_view kRenderedColumns = "l.item_json";
// A rendered search's page read by id (PostgreSQL): the id after the JSON, by which a lead
// without JSON is read and rendered.
constexpr std::string_view kRenderedSearchColumns = "l.item_json, l.id";
constexpr std::string_view kRenderedFrom = "leads l";
// Stores a lead's list item where its row's columns alone cannot say it (a new rep, an upgrade).
const std::string kStoreItemJson =
    "UPDATE leads SET item_json = ? WHERE workspace_id = ? AND id = ?";

// The lead as list items, GET-one and PATCH show it (write_lead_item), for its row's item_json.
// Every write of a lead row stores it; reps, whose names it carries, never change.
std::string item_json(const domain::Lead& l) {
  std::string out;
  record_json::JsonWriter w(out);
  record_json::write_lead_item(w, l);
  return out;
}

// The columns a create writes besides its own, in this order, and their values (a PATCH sets
// only those that change: update_changed_columns).
constexpr std::string_view kWrittenColumns =
    "pipeline_stage, assigned_rep_id, visitor_name, visitor_email, visitor_phone, "
    "visitor_company, need_summary, tags, expected_billing_amount, updated_at, "
    "visitor_name_folded, search_folded, item_json";

sql::Params& add_written_values(sql::Params& params, const domain::Lead& l) {
  return params.text(domain::to_string(l.pipeline_stage))
      .opt_id(l.assigned_rep_id)
      .text(l.visitor_name)
      .opt_text(l.visitor_email)
      .opt_text(l.visitor_phone)
      .opt_text(l.visitor_company)
      .text(l.need_summary)
      .text(encode_string_array(l.tags))
      .opt_real(l.expected_billing_amount)
      .int64(l.updated_at.unix_ms)
      .text(domain::case_fold(l.visitor_name))
      .text(lead_search_text(l.visitor_name, l.visitor_email, l.visitor_company))
      .text(item_json(l));
}

// A PATCH's UPDATE sets only the columns whose values change, plus updated_at and item_json:
// SQLite rewrites an index's entry whenever an UPDATE sets one of its columns, to the same value
// or not, so setting every column dirtied a leaf of leads_by_name and of leads_by_stage (random
// pages, each a WAL frame and later a checkpoint write) on every PATCH.
void update_changed_columns(sql::Connection& c, const domain::WorkspaceId& ws,
                            const domain::Lead& before, const domain::Lead& after) {
  std::string sql = "UPDATE leads SET ";
  sql::Params params;
  if (before.pipeline_stage != after.pipeline_stage) {
    sql.append("pipeline_stage = ?, ");
    params.text(domain::to_string(after.pipeline_stage));
  }
  if (before.assigned_rep_id != after.assigned_rep_id) {
    sql.append("assigned_rep_id = ?, ");
    params.opt_id(after.assigned_rep_id);
  }
  if (before.visitor_name != after.visitor_name) {
    sql.append("visitor_name = ?, visitor_name_folded = ?, ");
    params.text(after.visitor_name).text(domain::case_fold(after.visitor_name));
  }
  if (before.visitor_email != after.visitor_email) {
    sql.append("visitor_email = ?, ");
    params.opt_text(after.visitor_email);
  }
  if (before.visitor_phone != after.visitor_phone) {
    sql.append("visitor_phone = ?, ");
    params.opt_text(after.visitor_phone);
  }
  if (before.visitor_company != after.visitor_company) {
    sql.append("visitor_company = ?, ");
    params.opt_text(after.visitor_company);
  }
  if (before.visitor_name != after.visitor_name || before.visitor_email != after.visitor_email ||
      before.visitor_company != after.visitor_company) {
    sql.append("search_folded = ?, ");
    params.text(lead_search_text(after.visitor_name, after.visitor_email, after.visitor_company));
  }
  if (before.need_summary != after.need_summary) {
    sql.append("need_summary = ?, ");
    params.text(after.need_summary);
  }
  if (before.tags != after.tags) {
    sql.append("tags = ?, ");
    params.text(encode_string_array(after.tags));
  }
  if (before.expected_billing_amount != after.expected_billing_amount) {
    sql.append("expected_billing_amount = ?, ");
    params.opt_real(after.expected_billing_amount);
  }
  sql.append("updated_at = ?, item_json = ? WHERE workspace_id = ? AND id = ?");
  params.int64(after.updated_at.unix_ms).text(item_json(after)).id(ws).id(after.id);
  c.execute(sql, params);
}

// Refills `l`, whose strings keep their capacity from row to row.
void read_lead_into(const sql::Rows& row, domain::Lead& l) {
  row.text_into(0, l.id.value);
  row.text_into(1, l.visitor_name);
  row.opt_text_into(2, l.visitor_email);
  row.opt_text_into(3, l.visitor_phone);
  row.opt_text_into(4, l.visitor_company);
  l.pipeline_stage = stored_enum(row.text_view(5), &domain::parse_pipeline_stage, "pipeline_stage");
  row.text_into(6, l.need_summary);
  decode_string_array_into(row.text_view(7), l.tags);
  row.text_into(8, l.source);
  l.expected_billing_amount = row.opt_real(9);
  l.lead_score = row.opt_real(10);
  if (row.is_null(11)) {
    l.assigned_rep_id.reset();
    l.rep.reset();
  } else {
    if (!l.assigned_rep_id) l.assigned_rep_id.emplace();
    row.text_into(11, l.assigned_rep_id->value);
    if (row.is_null(12)) {
      l.rep.reset();
    } else {
      if (!l.rep) l.rep.emplace();
      row.text_into(12, l.rep->first_name);
      row.text_into(13, l.rep->last_name);
      row.text_into(14, l.rep->email);
    }
  }
  l.created_at = {row.int64(15)};
  l.updated_at = {row.int64(16)};
}

domain::Lead read_lead(const sql::Rows& row) {
  domain::Lead l;
  read_lead_into(row, l);
  return l;
}

// `suffix` follows the WHERE clause (a row lock); the plain read's text is built once.
std::optional<domain::Lead> select_lead(sql::Connection& conn, const domain::WorkspaceId& ws,
                                        const domain::LeadId& id, std::string_view suffix = {}) {
  static const std::string sql = "SELECT " + std::string(kLeadColumns) + " FROM " +
                                 std::string(kLeadFrom) + " WHERE l.workspace_id = ? AND l.id = ?";
  auto rows =
      conn.query(suffix.empty() ? sql : sql + std::string(suffix), sql::Params().id(ws).id(id));
  if (!rows.next()) return std::nullopt;
  return read_lead(rows);
}

sql::ListSql lead_list_sql(const sql::Dialect& dialect, const domain::WorkspaceId& ws,
                           const LeadListQuery& query, std::string_view columns = kLeadColumns,
                           std::string_view from = kLeadFrom) {
  auto sql = sql::ListSql::of_workspace(columns, from, "l", ws.value);
  sql.sort_by(lead_sort_keys(query.sort.field), query.sort.direction);
  // The rep join never changes how many leads match.
  sql.count_from = "leads l";
  if (query.stage) sql.filter("l.pipeline_stage = ?", std::string(to_string(*query.stage)));
  sql::filter_updated_window(sql, dialect, {"l", "updated_at", "leads_by_updated"}, query.updated);
  if (!query.search_folded.empty()) {
    dialect.add_search(sql, {"l", "search_folded", "leads_search", "leads l", true},
                       query.search_folded);
  } else if (query.updated.empty()) {
    sql::count_from_record_counts(
        sql, "lead", ws.value,
        query.stage ? std::optional<std::string>(to_string(*query.stage)) : std::nullopt);
    // leads_by_stage: (workspace_id, pipeline_stage, created_at, id).
    sql.planned_once = query.sort.field == LeadSortField::kCreatedAt;
  }
  return sql;
}

}  // namespace

const std::string& new_lead_columns() {
  static const std::string columns =
      "id, workspace_id, source, lead_score, created_at, " + std::string(kWrittenColumns);
  return columns;
}

namespace {

sql::Params& add_new_lead_values(sql::Params& params, const domain::WorkspaceId& ws,
                                 const domain::Lead& lead) {
  params.id(lead.id)
      .id(ws)
      .text(lead.source)
      .opt_real(lead.lead_score)
      .int64(lead.created_at.unix_ms);
  return add_written_values(params, lead);
}

}  // namespace

sql::Params new_lead_values(const domain::WorkspaceId& ws, const domain::Lead& lead) {
  sql::Params params;
  return add_new_lead_values(params, ws, lead);
}

void insert_lead_rows(sql::Connection& conn, const domain::WorkspaceId& ws,
                      const std::vector<sql::Params>& rows) {
  if (rows.empty()) return;
  const std::string rowid = conn.dialect().workspace_rowid("leads", "?");
  if (rowid.empty()) return conn.insert_rows("leads", new_lead_columns(), rows);
  // The batch takes the next rowids of the range in a row: one writer at a time on SQLite.
  std::int64_t first = 0;
  {
    auto next = conn.query("SELECT " + rowid, sql::Params().id(ws));
    next.next();
    first = next.int64(0);
  }
  std::vector<sql::Params> numbered(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    numbered[i].int64(first + static_cast<std::int64_t>(i));
    for (const sql::Value& v : rows[i].values()) numbered[i].value(v);
  }
  static const std::string columns = "rowid, " + new_lead_columns();
  conn.insert_rows("leads", columns, numbered);
}

namespace {

// `values` are new_lead_values: on SQLite the rowid's expression takes the workspace as ?2, the
// workspace_id column's value, so both engines bind the same values.
void insert_lead(sql::Connection& conn, const sql::Params& values) {
  if (!conn.dialect().rowids_by_workspace()) {
    static const std::string sql = "INSERT INTO leads (" + new_lead_columns() + ") VALUES (" +
                                   sql::placeholders_for(new_lead_columns()) + ")";
    return conn.execute_later(sql, values);
  }
  static const std::string sql = "INSERT INTO leads (rowid, " + new_lead_columns() + ") VALUES (" +
                                 conn.dialect().workspace_rowid("leads", "?2") + ", " +
                                 sql::numbered_placeholders_for(new_lead_columns()) + ")";
  conn.execute_later(sql, values);
}

}  // namespace

// The record, its row's values and its event are built before the write: the transaction only
// writes them (PreparedEvent says why).
domain::Lead LeadStore::create(const domain::WorkspaceId& ws, const domain::NewLead& lead) {
  static const Operation op("create_lead");
  const domain::Timestamp now = runner_.now();
  const domain::Lead created = new_lead_record(lead, now);
  const sql::Params values = new_lead_values(ws, created);
  const PreparedEvent event =
      prepare_event(ws, "lead.created", record_json::lead_data(created), {}, now);
  return runner_.write(op, [&](sql::Connection& c) {
    insert_lead(c, values);
    record_event(c, ws, event);
    return created;
  });
}

std::optional<domain::Lead> LeadStore::get(const domain::WorkspaceId& ws,
                                           const domain::LeadId& id) {
  static const Operation op("get_lead");
  return runner_.read(op, [&](sql::Connection& c) { return select_lead(c, ws, id); });
}

UpdateResult<domain::Lead> LeadStore::update(const domain::WorkspaceId& ws,
                                             const domain::LeadId& id,
                                             const domain::LeadPatch& patch) {
  static const Operation op("update_lead");
  return runner_.write(op, [&](sql::Connection& c) -> UpdateResult<domain::Lead> {
    const auto current = select_lead(c, ws, id, c.dialect().lock_rows("l"));
    if (!current) return NotFound{};
    if (patch.assigned_rep_id.value && !rep_in_workspace(c, ws, *patch.assigned_rep_id.value)) {
      return InvalidReference{"assigned_rep_id"};
    }
    domain::Lead next = apply_patch(*current, patch);
    if (same_patchable_fields(*current, next)) return *current;
    next.updated_at = advance_updated_at(current->updated_at, runner_.now());
    update_changed_columns(c, ws, *current, next);
    if (next.assigned_rep_id == current->assigned_rep_id) {
      // The rep summary read with `current` is still the lead's: nothing to read back.
      record_event(c, ws, "lead.updated", record_json::lead_data(next),
                   record_json::previous_attributes(*current, next), next.updated_at);
      return next;
    }
    // Read back so the rep summary matches the new assignment; the JSON written above carried
    // the previous rep's.
    domain::Lead updated = *select_lead(c, ws, id);
    if (updated.assigned_rep_id != current->assigned_rep_id) {
      c.execute(kStoreItemJson, sql::Params().text(item_json(updated)).id(ws).id(id));
    }
    record_event(c, ws, "lead.updated", record_json::lead_data(updated),
                 record_json::previous_attributes(*current, updated), updated.updated_at);
    return updated;
  });
}

void fill_missing_lead_items(sql::Connection& c) {
  // In keyset order, a batch at a time, so that no statement reads the table while it changes.
  static const std::string first = "SELECT " + std::string(kLeadColumns) +
                                   ", l.workspace_id FROM " + std::string(kLeadFrom) +
                                   " WHERE l.item_json IS NULL ORDER BY l.workspace_id, l.id";
  static const std::string next = "SELECT " + std::string(kLeadColumns) + ", l.workspace_id FROM " +
                                  std::string(kLeadFrom) +
                                  " WHERE l.item_json IS NULL AND (l.workspace_id, l.id) > (?, ?)"
                                  " ORDER BY l.workspace_id, l.id";
  constexpr int kBatch = 1000;
  struct Filled {
    std::string workspace_id, id, item;
  };
  std::vector<Filled> batch;
  domain::Lead lead;
  const std::string limit = " LIMIT " + std::to_string(kBatch);
  for (bool started = false;; started = true) {
    {
      auto rows =
          !started ? c.query(first + limit)
                   : c.query(next + limit,
                             sql::Params().text(batch.back().workspace_id).text(batch.back().id));
      batch.clear();
      while (rows.next()) {
        read_lead_into(rows, lead);
        batch.push_back({std::string(rows.text_view(17)), lead.id.value, item_json(lead)});
      }
    }
    for (const Filled& f : batch) {
      c.execute(kStoreItemJson, sql::Params().text(f.item).text(f.workspace_id).text(f.id));
    }
    if (batch.size() < static_cast<std::size_t>(kBatch)) return;
  }
}

bool LeadStore::remove(const domain::WorkspaceId& ws, const domain::LeadId& id) {
  static const Operation op("delete_lead");
  return runner_.write(op, [&](sql::Connection& c) {
    const auto before = select_lead(c, ws, id, c.dialect().lock_rows("l"));
    if (!before) return false;
    c.execute("DELETE FROM leads WHERE workspace_id = ? AND id = ?", sql::Params().id(ws).id(id));
    record_event(c, ws, "lead.deleted", record_json::lead_data(*before), {}, runner_.now());
    return true;
  });
}

Page<domain::Lead> LeadStore::list(const domain::WorkspaceId& ws, const LeadListQuery& query) {
  return collect_page<domain::Lead>(
      [&](const ItemVisitor<domain::Lead>& visit) { return list(ws, query, visit); });
}

namespace {

// The statement reading every match of the search in the list's order, without the rep join
// (it never changes which leads match); its own form of the filters drives from the search
// index. Each row: the rowid where rows have one (`rowids`), the id, the sort key values.
// `suffix` follows the ORDER BY (a LIMIT).
std::string matches_select(const sql::ListSql& sql, const sql::Dialect& dialect, bool rowids,
                           std::string_view suffix = {}) {
  std::string select = rowids ? "SELECT l.rowid, " : "SELECT ";
  select.append(sql.id_expr);
  for (const sql::SortKey& key : sql.keys) select.append(", ").append(key.expr);
  select.append(" FROM ").append(sql.count_from.empty() ? sql.from : sql.count_from);
  select.append(" WHERE ").append(sql.match_driven_where.empty() ? sql.where
                                                                 : sql.match_driven_where);
  select.append(" ORDER BY ")
      .append(sql::build_keyset_clause(sql.keys, sql.id_expr, sql.direction, std::nullopt, dialect)
                  .order_by)
      .append(suffix);
  return select;
}

std::shared_ptr<SearchResult> read_matches_from(sql::Rows& rows, std::size_t key_count,
                                                bool rowids) {
  auto result = std::make_shared<SearchResult>(key_count);
  std::vector<SortValue> keys(key_count);
  const int first_key = rowids ? 2 : 1;
  while (rows.next()) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
      keys[k] = rows.value(first_key + static_cast<int>(k));
    }
    if (rowids) {
      result->add(rows.int64(0), rows.text_view(1), keys);
    } else {
      result->add(rows.text_view(0), keys);
    }
  }
  return result;
}

std::shared_ptr<const SearchResult> read_matches(sql::Connection& c, const sql::ListSql& sql) {
  auto rows = c.query(matches_select(sql, c.dialect(), true),
                      sql::Params(std::vector<sql::Value>(sql.params)));
  return read_matches_from(rows, sql.keys.size(), true);
}

// The search's count and matches at the workspace's lead version, read in the caller's
// snapshot: from the cache, else from the database and then kept (the matches only when there
// are not too many).
CachedSearch search_matches(sql::Connection& c, const SearchResultCache& cache,
                            const domain::WorkspaceId& ws, const LeadListQuery& query,
                            const sql::ListSql& sql) {
  std::int64_t version = 0;
  {
    auto rows = c.query(c.dialect().lead_version(), sql::Params().id(ws));
    if (rows.next()) version = rows.int64(0);
  }
  const std::string key = lead_search_key(ws.value, version, query);
  SearchResultCache::Miss miss;
  if (auto hit = cache.find(key, miss)) return *hit;
  const sql::ListStatements st = sql::build_list_statements(sql, query.page, c.dialect());
  CachedSearch out;
  {
    auto rows = c.query(st.count_sql, sql::Params(std::vector<sql::Value>(st.count_params)));
    rows.next();
    out.count = rows.int64(0);
  }
  if (out.count <= kMaxCachedMatches) out.matches = read_matches(c, sql);
  cache.put(key, out, miss);
  return out;
}

// Where the page that `query` asks for lies among the matches: [start, end), and what the page
// says besides.
struct PlacedPage {
  std::size_t start = 0;
  std::size_t end = 0;
  PageFacts facts;
};

// nullopt when the page's position cannot be placed among the matches.
std::optional<PlacedPage> place_page(const SearchResult& matches, const LeadListQuery& query) {
  const PageRequest& page = query.page;
  std::size_t start = 0;
  if (page.after) {
    const auto after = matches.first_after(*page.after, query.sort.direction);
    if (!after) return std::nullopt;
    start = *after;
  } else {
    start = static_cast<std::size_t>(std::min<std::int64_t>(
        std::max<std::int64_t>(page.offset, 0), static_cast<std::int64_t>(matches.size())));
  }
  PlacedPage out;
  out.start = start;
  out.end = std::min(matches.size(), start + static_cast<std::size_t>(std::max(page.limit, 1)));
  out.facts.total_count = static_cast<std::int64_t>(matches.size());
  out.facts.has_more = out.end < matches.size();
  if (out.facts.has_more) out.facts.next_position = matches.position(out.end - 1);
  return out;
}

// The page of `matches` that `page` asks for, each lead handed to `each_lead` by its rowid;
// nullopt when the page's position cannot be placed among them.
template <typename EachLead>
std::optional<PageFacts> page_of_matches(const SearchResult& matches, const LeadListQuery& query,
                                         EachLead&& each_lead) {
  auto placed = place_page(matches, query);
  if (!placed) return std::nullopt;
  for (std::size_t i = placed->start; i < placed->end; ++i) each_lead(matches.rowid(i));
  return std::move(placed->facts);
}

// One lead's row by rowid, with `columns`; the version read in this snapshot vouches that every
// cached match is there.
sql::Rows lead_by_rowid(sql::Connection& c, const std::string& select, std::int64_t rowid) {
  auto rows = c.query(select, sql::Params().int64(rowid));
  if (!rows.next()) throw std::logic_error("a cached search match is gone at its version");
  return rows;
}

const std::string& lead_columns_by_rowid() {
  static const std::string sql = "SELECT " + std::string(kLeadColumns) + " FROM " +
                                 std::string(kLeadFrom) + " WHERE l.rowid = ?";
  return sql;
}

// A lead's list item as written by write_lead_item, into `item` (cleared first).
void render_lead_item(const domain::Lead& lead, std::string& item) {
  item.clear();
  record_json::JsonWriter w(item);
  record_json::write_lead_item(w, lead);
}

// Where rows have no rowid (PostgreSQL), the lead version is read with each list page, and the
// page is kept (RenderedPageCache).
bool keeps_pages(const sql::Connection& c) {
  return !c.dialect().lead_version().empty() && !c.dialect().rowids_by_workspace();
}

// Where rows have no rowid (PostgreSQL), a search's page is read by id, through the thread's one
// entry for the search whatever its version (latest_lead_search_key).
bool searched_by_id(const sql::Connection& c, const LeadListQuery& query) {
  return !query.search_folded.empty() && keeps_pages(c);
}

// The leads whose ids the JSON array parameter lists, in its order, with `columns`; the second
// parameter is the workspace. `from` names the leads "l".
std::string leads_by_ids_select(std::string_view columns, std::string_view from) {
  std::string sql = "SELECT ";
  sql.append(columns)
      .append(" FROM jsonb_array_elements_text(CAST(? AS jsonb)) WITH ORDINALITY AS p(id, n), ")
      .append(from)
      .append(" WHERE l.workspace_id = ? AND l.id = p.id COLLATE \"C\" ORDER BY p.n");
  return sql;
}

// PostgreSQL's search page, in as few round trips as a SQLite read has statements to spare:
// the thread's entry for the search places the page among its matches, and the version and
// the page's leads by id (or the page itself, where the entry keeps no matches or cannot place
// the page) are read together; they stand when the version is the entry's, in this snapshot
// (docs/design.md, "Search result cache"). Otherwise the version (unless read), the count, the
// matches and the page are read together and the entry replaced: one round trip on a hit, two
// on a stale entry, one the first time. `sql` is the list's statement with the columns of
// `by_ids` (leads_by_ids_select); each_row(rows) gets each of the page's rows, those columns
// first. With `held` (the version of a page the caller keeps; null for none), a hit's page is gated
// on the version having moved from it (sql/version_gate.hpp), and none of it is read when it has
// not.
template <typename EachRow>
sql::VersionedPage search_page_by_id(sql::Connection& c, const SearchResultCache& cache,
                                     const domain::WorkspaceId& ws, const LeadListQuery& query,
                                     const sql::ListSql& sql, const std::string& by_ids,
                                     const std::int64_t* held, EachRow&& each_row) {
  const std::string key = latest_lead_search_key(ws.value, query);
  const std::string_view version_sql = c.dialect().lead_version();
  const auto read_int = [](sql::Rows& rows) {
    rows.next();
    return rows.int64(0);
  };
  // The statements' plans depend on the needle (how many leads it matches).
  constexpr sql::Planning kPerValues = sql::Planning::kPerValues;
  // Built only where the ordinary page is read: a hit that places its page needs none of it.
  std::optional<sql::ListStatements> built;
  const auto list = [&]() -> const sql::ListStatements& {
    if (!built) built = sql::build_list_statements(sql, query.page, c.dialect());
    return *built;
  };
  std::optional<std::int64_t> version;
  sql::VersionedPage out;
  SearchResultCache::Miss miss;
  const std::optional<CachedSearch> entry = cache.find(key, miss);
  if (entry) {
    std::optional<PlacedPage> placed;
    if (entry->matches) placed = place_page(*entry->matches, query);
    const sql::Params version_params = sql::Params().id(ws);
    std::vector<sql::Statement> st;
    st.push_back({version_sql, version_params});
    if (placed) {
      std::vector<std::string> ids;
      ids.reserve(placed->end - placed->start);
      for (std::size_t i = placed->start; i < placed->end; ++i) {
        ids.emplace_back(entry->matches->id(i));
      }
      st.push_back({by_ids, sql::Params().text(encode_string_array(ids)).id(ws)});
    } else {
      st.push_back(
          {list().page_sql, sql::Params(std::vector<sql::Value>(list().page_params)), kPerValues});
    }
    std::string gated;
    if (held != nullptr) {
      gated = sql::version_gated(st[1].sql, version_sql);
      st[1].sql = gated;
      sql::add_gate_params(st[1].params, version_params, *held);
    }
    std::vector<sql::Rows> rows = c.query_together(std::move(st));
    version = read_int(rows[0]);
    out.version = *version;
    if (held != nullptr && *version == *held) return out;
    if (*version == entry->version) {
      if (!placed) {
        out.facts = sql::read_page_rows(rows[1], query.page, sql.keys.size(), each_row);
        out.facts->total_count = entry->count;
        return out;
      }
      std::size_t read = 0;
      for (; rows[1].next(); ++read) each_row(rows[1]);
      if (read != placed->end - placed->start) {
        throw std::logic_error("a cached search match is gone at its version");
      }
      out.facts = std::move(placed->facts);
      return out;
    }
  }
  // A search too large to keep its matches stays so, most likely: its count alone is kept.
  const bool with_matches = !entry || entry->matches;
  static const std::string limit = " LIMIT " + std::to_string(kMaxCachedMatches + 1);
  const std::string matches_sql =
      with_matches ? matches_select(sql, c.dialect(), false, limit) : std::string();
  std::vector<sql::Statement> st;
  if (!version) st.push_back({version_sql, sql::Params().id(ws)});
  st.push_back(
      {list().count_sql, sql::Params(std::vector<sql::Value>(list().count_params)), kPerValues});
  if (with_matches) {
    st.push_back({matches_sql, sql::Params(std::vector<sql::Value>(sql.params)), kPerValues});
  }
  st.push_back(
      {list().page_sql, sql::Params(std::vector<sql::Value>(list().page_params)), kPerValues});
  std::vector<sql::Rows> rows = c.query_together(std::move(st));
  std::size_t next = 0;
  CachedSearch fresh;
  fresh.version = version ? *version : read_int(rows[next++]);
  fresh.count = read_int(rows[next++]);
  if (with_matches) {
    sql::Rows& matches = rows[next++];
    if (fresh.count <= kMaxCachedMatches) {
      fresh.matches = read_matches_from(matches, sql.keys.size(), false);
    }
  }
  cache.put(key, fresh, miss);
  out.version = fresh.version;
  out.facts = sql::read_page_rows(rows[next], query.page, sql.keys.size(), each_row);
  out.facts->total_count = fresh.count;
  return out;
}

}  // namespace

// A search asks the cache for its count and, where they are kept, its matches at the
// workspace's lead version; nullopt when this list is not a search the cache serves.
std::optional<CachedSearch> LeadStore::cached_search(sql::Connection& c,
                                                     const domain::WorkspaceId& ws,
                                                     const LeadListQuery& query,
                                                     const sql::ListSql& sql) const {
  if (query.search_folded.empty() || c.dialect().lead_version().empty()) return std::nullopt;
  return search_matches(c, search_results_, ws, query, sql);
}

PageFacts LeadStore::list(const domain::WorkspaceId& ws, const LeadListQuery& query,
                          const ItemVisitor<domain::Lead>& visit) {
  static const Operation op("list_leads");
  return runner_.snapshot(op, [&](sql::Connection& c) {
    const sql::ListSql sql = lead_list_sql(c.dialect(), ws, query);
    if (searched_by_id(c, query)) {
      static const std::string by_ids = leads_by_ids_select(kLeadColumns, kLeadFrom);
      domain::Lead record;
      return *search_page_by_id(c, search_results_, ws, query, sql, by_ids, nullptr,
                                [&](const sql::Rows& rows) {
                                  read_lead_into(rows, record);
                                  visit(record);
                                })
                  .facts;
    }
    const auto search = cached_search(c, ws, query, sql);
    if (search && search->matches) {
      domain::Lead record;
      auto facts = page_of_matches(*search->matches, query, [&](std::int64_t rowid) {
        read_lead_into(lead_by_rowid(c, lead_columns_by_rowid(), rowid), record);
        visit(record);
      });
      if (facts) return *facts;
    }
    return sql::visit_list<domain::Lead>(c, sql, query.page, read_lead_into, visit,
                                         search ? std::optional(search->count) : std::nullopt);
  });
}

// PostgreSQL's rendered page: the thread's kept page when the workspace's lead version has not
// moved since it was read, else read and kept (docs/design.md, "Page cache"); one round trip
// either way, the version read with the page's statements, which run only when it has moved.
// `sql` is the list's statement with kRenderedSearchColumns for a search, kRenderedColumns
// otherwise. nullopt, with nothing given to `visit`, when a lead of a page that is no search
// has no JSON (written before migration 0013 and unchanged since): the caller reads the page
// again and renders it.
std::optional<PageFacts> LeadStore::kept_or_read_page(sql::Connection& c,
                                                      const domain::WorkspaceId& ws,
                                                      const LeadListQuery& query,
                                                      const sql::ListSql& sql,
                                                      const ItemVisitor<std::string_view>& visit) {
  const std::string key = lead_page_key(ws.value, query);
  RenderedPage* kept = pages_.find(key);
  const std::int64_t* held = kept != nullptr ? &kept->version : nullptr;
  RenderedPage fresh;
  sql::VersionedPage read;
  if (searched_by_id(c, query)) {
    static const std::string by_ids = leads_by_ids_select(kRenderedSearchColumns, kRenderedFrom);
    std::string item;
    read = search_page_by_id(
        c, search_results_, ws, query, sql, by_ids, held, [&](const sql::Rows& rows) {
          if (!rows.is_null(0)) return fresh.add(rows.text_view(0));
          const auto lead = select_lead(c, ws, domain::LeadId{std::string(rows.text_view(1))});
          render_lead_item(*lead, item);
          fresh.add(item);
        });
  } else {
    bool unrendered = false;
    read = sql::run_versioned_list_rows(c, sql, query.page,
                                        {c.dialect().lead_version(), sql::Params().id(ws)}, held,
                                        [&](const sql::Rows& rows) {
                                          if (unrendered || (unrendered = rows.is_null(0))) return;
                                          fresh.add(rows.text_view(0));
                                        });
    if (unrendered) return std::nullopt;
  }
  if (!read.facts) {
    kept->stood = true;
    kept->each(visit);
    return kept->facts;
  }
  fresh.version = read.version;
  fresh.facts = *read.facts;
  fresh.each(visit);
  pages_.put(key, std::move(fresh));
  return *read.facts;
}

// A kept page that stood at its last read asks for the workspace's lead version alone, as one
// statement outside any transaction (its own snapshot): when the version has not moved, the kept
// bytes are that snapshot's page. That is the key check and one small statement for the
// database, against BEGIN, the check, the version, the two gated statements and COMMIT. A page
// that did not stand last time skips this, so that reads among writes stay one round trip
// (docs/design.md, "Page cache").
std::optional<PageFacts> LeadStore::kept_page_if_standing(
    const domain::WorkspaceId& ws, const LeadListQuery& query,
    const ItemVisitor<std::string_view>& visit) {
  if (pages_.empty()) return std::nullopt;
  RenderedPage* kept = pages_.find(lead_page_key(ws.value, query));
  if (kept == nullptr || !kept->stood) return std::nullopt;
  static const Operation op("lead_page_version");
  const std::int64_t version = runner_.read(op, [&](sql::Connection& c) {
    auto rows = sql::query_planned(
        c, {c.dialect().lead_version(), sql::Params().id(ws), sql::Planning::kOnce});
    rows.next();
    return rows.int64(0);
  });
  if (version != kept->version) {
    kept->stood = false;
    return std::nullopt;
  }
  kept->each(visit);
  return kept->facts;
}

PageFacts LeadStore::list_rendered(const domain::WorkspaceId& ws, const LeadListQuery& query,
                                   const ItemVisitor<std::string_view>& visit) {
  static const Operation op("list_leads");
  if (auto facts = kept_page_if_standing(ws, query, visit)) return *facts;
  return runner_.snapshot(op, [&](sql::Connection& c) {
    if (searched_by_id(c, query)) {
      return *kept_or_read_page(
          c, ws, query,
          lead_list_sql(c.dialect(), ws, query, kRenderedSearchColumns, kRenderedFrom), visit);
    }
    const sql::ListSql rendered =
        lead_list_sql(c.dialect(), ws, query, kRenderedColumns, kRenderedFrom);
    if (keeps_pages(c) && !sql::page_form_depends_on_count(rendered)) {
      if (auto facts = kept_or_read_page(c, ws, query, rendered, visit)) return *facts;
    }
    const auto search = cached_search(c, ws, query, rendered);
    std::string item;
    if (search && search->matches) {
      static const std::string rendered_by_rowid =
          "SELECT " + std::string(kRenderedColumns) + " FROM leads l WHERE l.rowid = ?";
      domain::Lead lead;
      auto facts = page_of_matches(*search->matches, query, [&](std::int64_t rowid) {
        const auto rendered = lead_by_rowid(c, rendered_by_rowid, rowid);
        if (!rendered.is_null(0)) return visit(rendered.text_view(0));
        read_lead_into(lead_by_rowid(c, lead_columns_by_rowid(), rowid), lead);
        render_lead_item(lead, item);
        visit(item);
      });
      if (facts) return *facts;
    }
    std::size_t given = 0;
    bool unrendered = false;
    const PageFacts facts = sql::run_list_rows(
        c, rendered, query.page,
        [&](const sql::Rows& rows) {
          if (unrendered || (unrendered = rows.is_null(0))) return;
          visit(rows.text_view(0));
          ++given;
        },
        search ? std::optional(search->count) : std::nullopt);
    if (!unrendered) return facts;
    // A lead written before migration 0013 and unchanged since has no JSON: the rest of the
    // page is read again from the columns (in this snapshot, so the same rows in the same
    // order), as a list of records reads it, and each lead rendered.
    sql::ListStatements st = sql::list_statements_for(lead_list_sql(c.dialect(), ws, query),
                                                      query.page, c.dialect(), facts.total_count);
    auto rows = c.query(st.page_sql, sql::Params(std::move(st.page_params)));
    const auto limit = static_cast<std::size_t>(std::max(query.page.limit, 1));
    domain::Lead lead;
    for (std::size_t row = 0; row < limit && rows.next(); ++row) {
      if (row < given) continue;
      read_lead_into(rows, lead);
      render_lead_item(lead, item);
      visit(item);
    }
    return facts;
  });
}

sql::ListStatements lead_list_statements(const sql::Dialect& dialect, const domain::WorkspaceId& ws,
                                         const LeadListQuery& query,
                                         std::optional<std::int64_t> total_count) {
  return sql::list_statements_for(lead_list_sql(dialect, ws, query), query.page, dialect,
                                  total_count);
}

}  // namespace leadline::store
