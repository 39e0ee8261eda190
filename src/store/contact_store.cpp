// Contacts: e-mail uniqueness through the folded unique index, computed conversation figures,
// lock-compare-write PATCH that also moves last_activity, keyset-paged lists.
#include "store/contact_store.hpp"

#include "record_json/event_shapes.hpp"
#include "store/records/event_outbox.hpp"

#include <algorithm>
#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "store/records/contact_folded_columns.hpp"
#include "store/records/json_string_array.hpp"
#include "store/records/list_sort_keys.hpp"
#include "store/records/new_records.hpp"
#include "store/records/record_patches.hpp"
#include "store/sql/column_list.hpp"
#include "store/sql/list_page.hpp"
#include "store/sql/updated_window.hpp"

namespace leadline::store {

namespace {

// Read with read_contact.
constexpr std::string_view kContactColumns =
    "c.id, c.first_name, c.last_name, c.email, c.phone, c.company_name, c.tags, "
    "c.profile_notes, c.last_activity, c.created_at, c.updated_at, c.conversation_count, "
    "c.last_conversation_at";

// A winner that is deleted between a failed insert and the look-up leaves the address free
// again; a few rounds settle any realistic race.
constexpr int kInsertAttempts = 3;

// Refills `c`, whose strings keep their capacity from row to row.
void read_contact_into(const sql::Rows& row, domain::Contact& c) {
  row.text_into(0, c.id.value);
  row.text_into(1, c.first_name);
  row.opt_text_into(2, c.last_name);
  row.opt_text_into(3, c.email);
  row.opt_text_into(4, c.phone);
  row.opt_text_into(5, c.company_name);
  decode_string_array_into(row.text_view(6), c.tags);
  row.text_into(7, c.profile_notes);
  c.last_activity = {row.int64(8)};
  c.created_at = {row.int64(9)};
  c.updated_at = {row.int64(10)};
  c.conversation_count = row.int64(11);
  c.last_conversation_at.reset();
  if (!row.is_null(12)) c.last_conversation_at = domain::Timestamp{row.int64(12)};
}

domain::Contact read_contact(const sql::Rows& row) {
  domain::Contact c;
  read_contact_into(row, c);
  return c;
}

std::optional<domain::Contact> select_contact(sql::Connection& conn, const domain::WorkspaceId& ws,
                                              const domain::ContactId& id,
                                              std::string_view suffix = {}) {
  // The plain read's text is built once; a write appends its row lock.
  static const std::string sql = "SELECT " + std::string(kContactColumns) +
                                 " FROM contacts c WHERE c.workspace_id = ? AND c.id = ?";
  auto rows =
      conn.query(suffix.empty() ? sql : sql + std::string(suffix), sql::Params().id(ws).id(id));
  if (!rows.next()) return std::nullopt;
  return read_contact(rows);
}

std::optional<domain::ContactId> other_contact_with_email(sql::Connection& conn,
                                                          const domain::WorkspaceId& ws,
                                                          const std::string& email,
                                                          const domain::ContactId& self) {
  auto rows =
      conn.query("SELECT id FROM contacts WHERE workspace_id = ? AND email_folded = ? AND id <> ?",
                 sql::Params().id(ws).text(domain::case_fold(email)).id(self));
  if (!rows.next()) return std::nullopt;
  return domain::ContactId{rows.text(0)};
}

// The columns a create and a PATCH both write, in this order, and their values.
constexpr std::string_view kWrittenColumns =
    "first_name, last_name, email, phone, company_name, tags, profile_notes, last_activity, "
    "updated_at, first_name_folded, last_name_folded, email_folded, search_folded, "
    "visitor_search_folded";

sql::Params& add_written_values(sql::Params& params, const domain::Contact& c) {
  const ContactFoldedColumns folded = contact_folded_columns(c);
  return params.text(c.first_name)
      .opt_text(c.last_name)
      .opt_text(c.email)
      .opt_text(c.phone)
      .opt_text(c.company_name)
      .text(encode_string_array(c.tags))
      .text(c.profile_notes)
      .int64(c.last_activity.unix_ms)
      .int64(c.updated_at.unix_ms)
      .text(folded.first_name)
      .opt_text(folded.last_name)
      .opt_text(folded.email)
      .text(folded.search)
      .text(folded.visitor_search);
}

// False when another contact of the workspace holds the folded e-mail. `values` are
// new_contact_values.
bool try_insert(sql::Connection& conn, const sql::Params& values) {
  static const std::string sql =
      "INSERT INTO contacts (" + new_contact_columns() + ") VALUES (" +
      sql::placeholders_for(new_contact_columns()) +
      ") ON CONFLICT (workspace_id, email_folded) WHERE email_folded IS NOT NULL "
      "DO NOTHING RETURNING id";
  return conn.query(sql, values).next();
}

// False (and nothing written) when another contact took the e-mail meanwhile.
bool write_contact(sql::Connection& conn, const domain::WorkspaceId& ws, const domain::Contact& c) {
  static const std::string sql = "UPDATE contacts SET " + sql::set_clause(kWrittenColumns) +
                                 " WHERE workspace_id = ? AND id = ?";
  sql::Params params;
  add_written_values(params, c).id(ws).id(c.id);
  return conn.execute_unless_duplicate(sql, params).has_value();
}

sql::ListSql contact_list_sql(const sql::Dialect& dialect, const domain::WorkspaceId& ws,
                              const ContactListQuery& query) {
  auto sql = sql::ListSql::of_workspace(kContactColumns, "contacts c", "c", ws.value);
  sql.sort_by(contact_sort_keys(query.sort.field), query.sort.direction);
  // Contacts show no updated_at: their sync window is on last_activity, which every change
  // of the contact or of its conversations moves.
  sql::filter_updated_window(sql, dialect, {"c", "last_activity", "contacts_by_activity"},
                             query.updated);
  if (query.tag) {
    dialect.add_tag_filter(sql, {"c", "tags", "contact_tags", "contact_id"}, *query.tag);
  }
  if (!query.search_folded.empty()) {
    dialect.add_search(sql, {"c", "search_folded", "contacts_search", "contacts c"},
                       query.search_folded);
  }
  if (query.search_folded.empty() && query.updated.empty()) {
    // The triggers count each tag's contacts as they count the contacts.
    if (query.tag) {
      sql::count_from_record_counts(sql, "contact_tag", ws.value, *query.tag);
    } else {
      sql::count_from_record_counts(sql, "contact", ws.value, std::nullopt);
    }
  }
  return sql;
}

}  // namespace

const std::string& new_contact_columns() {
  // The conversation figures are not among the written columns: a PATCH never moves them.
  static const std::string columns =
      "id, workspace_id, metadata, created_at, conversation_count, last_conversation_at, " +
      std::string(kWrittenColumns);
  return columns;
}

sql::Params new_contact_values(const domain::WorkspaceId& ws, const domain::Contact& contact,
                               const std::optional<std::string>& metadata_json) {
  sql::Params params;
  params.id(contact.id).id(ws).opt_text(metadata_json).int64(contact.created_at.unix_ms);
  params.int64(contact.conversation_count);
  contact.last_conversation_at ? params.int64(contact.last_conversation_at->unix_ms)
                               : params.null();
  add_written_values(params, contact);
  return params;
}

PreparedContact prepare_contact(const domain::WorkspaceId& ws, const domain::NewContact& contact,
                                domain::Timestamp now) {
  PreparedContact prepared{.contact = new_contact_record(contact, now), .values = {}, .event = {}};
  prepared.values = new_contact_values(ws, prepared.contact, contact.metadata_json);
  prepared.event =
      prepare_event(ws, "contact.created", record_json::contact_data(prepared.contact), {}, now);
  return prepared;
}

CreateResult<domain::Contact> insert_contact(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::NewContact& contact,
                                             domain::Timestamp now) {
  return insert_contact(conn, ws, prepare_contact(ws, contact, now));
}

CreateResult<domain::Contact> insert_contact(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const PreparedContact& prepared) {
  const domain::Contact& out = prepared.contact;
  for (int attempt = 0; attempt < kInsertAttempts; ++attempt) {
    if (try_insert(conn, prepared.values)) {
      record_event(conn, ws, prepared.event);
      return out;
    }
    if (!out.email) break;
    // Each statement sees what committed before it (SQLite: one writer; PostgreSQL: READ
    // COMMITTED), so this finds the winner, or this transaction's own earlier insert.
    if (auto existing = find_contact_by_email(conn, ws, *out.email)) {
      return EmailConflict{*existing};
    }
  }
  throw std::runtime_error("contact e-mail conflict without a conflicting contact");
}

ContactPeople people_of(const domain::Contact& contact) {
  return {contact.id,    contact.first_name, contact.last_name,
          contact.email, contact.phone,      contact.company_name};
}

namespace {

// Planned once for every value: a plan for the values of a workspace that the statistics do not
// know yet (created since the last ANALYZE; none of its rows, to the planner) may as well walk
// any index that starts with the workspace, and one by name then reads every contact of the
// workspace for each look-up. The generic plan, made for an average workspace, takes the index
// on the e-mail (docs/design.md, "Imports"). Without the contact's conversation count and
// latest conversation (kContactColumns): in an import those read a conversations table that
// grows in the same transaction, and the plan made while it was empty scanned it whole for each
// visitor (20k conversations: 96 s instead of 18).
constexpr std::string_view kPeopleByEmail =
    "SELECT id, first_name, last_name, email, phone, company_name, email_folded FROM contacts "
    "WHERE workspace_id = ? AND email_folded ";

ContactPeople people_from_row(const sql::Rows& rows) {
  return ContactPeople{domain::ContactId{rows.text(0)},
                       rows.text(1),
                       rows.opt_text(2),
                       rows.opt_text(3),
                       rows.opt_text(4),
                       rows.opt_text(5)};
}

}  // namespace

std::optional<domain::ContactId> find_contact_by_email(sql::Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::string& email) {
  static const std::string sql = std::string(kPeopleByEmail) + "= ?";
  auto rows = sql::query_planned(
      conn, {sql, sql::Params().id(ws).text(domain::case_fold(email)), sql::Planning::kOnce});
  if (!rows.next()) return std::nullopt;
  return domain::ContactId{rows.text(0)};
}

std::unordered_map<std::string, ContactPeople> find_contacts_people_by_emails(
    sql::Connection& conn, const domain::WorkspaceId& ws,
    const std::vector<std::string>& folded_emails) {
  // A thousand addresses are about 30 KB of parameter and one index probe each.
  constexpr std::size_t kPerStatement = 1000;
  const std::string sql =
      std::string(kPeopleByEmail) + "IN " + std::string(conn.dialect().json_text_values());
  std::unordered_map<std::string, ContactPeople> found;
  std::vector<std::string> some;
  for (std::size_t at = 0; at < folded_emails.size(); at += kPerStatement) {
    const auto end = folded_emails.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                 at + kPerStatement, folded_emails.size()));
    some.assign(folded_emails.begin() + static_cast<std::ptrdiff_t>(at), end);
    auto rows = sql::query_planned(
        conn, {sql, sql::Params().id(ws).text(encode_string_array(some)), sql::Planning::kOnce});
    while (rows.next()) found.emplace(rows.text(6), people_from_row(rows));
  }
  return found;
}

// Without statistics SQLite would walk the workspace's contacts and scan the tuples for each
// (20k visitors on 100k contacts: minutes); it is told to find each contact by its key, through
// the index SQLite made for the primary key. PostgreSQL probes its key by itself. A tuple is
// (id, activity or "", conversations, latest conversation's created_at).
std::string contacts_conversation_gain_sql(const sql::Dialect& dialect) {
  constexpr std::string_view activity = "CAST(NULLIF(v.c1, '') AS BIGINT)";
  constexpr std::string_view latest = "CAST(v.c3 AS BIGINT)";
  return "UPDATE contacts" + dialect.read_through_index("sqlite_autoindex_contacts_1") +
         " SET last_activity = CASE WHEN " + std::string(activity) +
         " > contacts.last_activity THEN " + std::string(activity) +
         " ELSE contacts.last_activity END, "
         "conversation_count = contacts.conversation_count + CAST(v.c2 AS BIGINT), "
         "last_conversation_at = CASE WHEN contacts.last_conversation_at IS NULL OR " +
         std::string(latest) + " > contacts.last_conversation_at THEN " + std::string(latest) +
         " ELSE contacts.last_conversation_at END FROM " + dialect.json_text_tuples(4) +
         " AS v WHERE contacts.workspace_id = ? AND contacts.id = v.c0";
}

void add_contacts_conversations(sql::Connection& conn, const domain::WorkspaceId& ws,
                                const std::map<domain::ContactId, ContactConversationGain>& gains) {
  constexpr std::size_t kPerStatement = 1000;
  const std::string sql = contacts_conversation_gain_sql(conn.dialect());
  std::string tuples;
  std::size_t in_statement = 0;
  const auto send = [&] {
    tuples.push_back(']');
    // Nothing waits for its answer: it travels with the import's next statement.
    conn.execute_later(sql, sql::Params().text(tuples).id(ws));
    tuples.clear();
    in_statement = 0;
  };
  for (const auto& [id, gain] : gains) {
    tuples.append(in_statement == 0 ? "[" : ",");
    tuples.append(encode_string_array(
        {id.value, gain.activity ? std::to_string(gain.activity->unix_ms) : std::string(),
         std::to_string(gain.conversations),
         std::to_string(gain.latest_conversation.value_or(domain::Timestamp{}).unix_ms)}));
    if (++in_statement == kPerStatement) send();
  }
  if (in_statement > 0) send();
}

CreateResult<domain::Contact> ContactStore::create(const domain::WorkspaceId& ws,
                                                   const domain::NewContact& contact) {
  static const Operation op("create_contact");
  // Prepared before the write: the transaction only writes it (PreparedEvent says why).
  const PreparedContact prepared = prepare_contact(ws, contact, runner_.now());
  return runner_.write(op, [&](sql::Connection& c) { return insert_contact(c, ws, prepared); });
}

std::optional<domain::Contact> ContactStore::get(const domain::WorkspaceId& ws,
                                                 const domain::ContactId& id) {
  static const Operation op("get_contact");
  return runner_.read(op, [&](sql::Connection& c) { return select_contact(c, ws, id); });
}

UpdateResult<domain::Contact> ContactStore::update(const domain::WorkspaceId& ws,
                                                   const domain::ContactId& id,
                                                   const domain::ContactPatch& patch) {
  static const Operation op("update_contact");
  return runner_.write(op, [&](sql::Connection& c) -> UpdateResult<domain::Contact> {
    const auto current = select_contact(c, ws, id, c.dialect().lock_rows("c"));
    if (!current) return NotFound{};
    domain::Contact next = apply_patch(*current, patch);
    if (same_patchable_fields(*current, next)) return *current;
    if (next.email) {
      if (auto other = other_contact_with_email(c, ws, *next.email, id)) {
        return EmailConflict{*other};
      }
    }
    next.updated_at = advance_updated_at(current->updated_at, runner_.now());
    next.last_activity = std::max(current->last_activity, next.updated_at);
    // A concurrent create may take the address after the check; the unique index decides.
    if (!write_contact(c, ws, next)) {
      if (auto other = other_contact_with_email(c, ws, *next.email, id)) {
        return EmailConflict{*other};
      }
      throw std::runtime_error("contact e-mail conflict without a conflicting contact");
    }
    record_event(c, ws, "contact.updated", record_json::contact_data(next),
                 record_json::previous_attributes(*current, next), next.updated_at);
    return next;
  });
}

bool ContactStore::remove(const domain::WorkspaceId& ws, const domain::ContactId& id) {
  static const Operation op("delete_contact");
  return runner_.write(op, [&](sql::Connection& c) {
    const auto before = select_contact(c, ws, id, c.dialect().lock_rows("c"));
    if (!before) return false;
    c.execute("DELETE FROM contacts WHERE workspace_id = ? AND id = ?",
              sql::Params().id(ws).id(id));
    record_event(c, ws, "contact.deleted", record_json::contact_data(*before), {}, runner_.now());
    return true;
  });
}

sql::ListStatements contact_list_statements(const sql::Dialect& dialect,
                                            const domain::WorkspaceId& ws,
                                            const ContactListQuery& query,
                                            std::optional<std::int64_t> total_count) {
  return sql::list_statements_for(contact_list_sql(dialect, ws, query), query.page, dialect,
                                  total_count);
}

Page<domain::Contact> ContactStore::list(const domain::WorkspaceId& ws,
                                         const ContactListQuery& query) {
  return collect_page<domain::Contact>(
      [&](const ItemVisitor<domain::Contact>& visit) { return list(ws, query, visit); });
}

PageFacts ContactStore::list(const domain::WorkspaceId& ws, const ContactListQuery& query,
                             const ItemVisitor<domain::Contact>& visit) {
  static const Operation op("list_contacts");
  return runner_.snapshot(op, [&](sql::Connection& c) {
    return sql::visit_list<domain::Contact>(c, contact_list_sql(c.dialect(), ws, query), query.page,
                                            read_contact_into, visit);
  });
}

}  // namespace leadline::store
