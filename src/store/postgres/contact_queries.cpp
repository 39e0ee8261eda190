// Contacts: e-mail uniqueness through the folded unique index, computed conversation
// figures, lock-compare-write PATCH that also moves last_activity, keyset-paged lists.
#include "store/postgres/contact_queries.hpp"

#include <algorithm>
#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "store/contact_folded_columns.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/new_records.hpp"
#include "store/postgres/list_page.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::postgres {

namespace {

constexpr const char* kContactColumns =
    "c.id, c.first_name, c.last_name, c.email, c.phone, c.company_name, c.tags, "
    "c.profile_notes, c.last_activity, c.created_at, c.updated_at, "
    "(SELECT COUNT(*) FROM conversations cv "
    "WHERE cv.workspace_id = c.workspace_id AND cv.contact_id = c.id), "
    "(SELECT MAX(cv.created_at) FROM conversations cv "
    "WHERE cv.workspace_id = c.workspace_id AND cv.contact_id = c.id)";

// A winner that is deleted between our failed insert and the look-up leaves the address free
// again; a few rounds settle any realistic race.
constexpr int kInsertAttempts = 3;

std::optional<domain::Contact> first_contact(const Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return read_contact(Row(r, 0));
}

std::optional<domain::ContactId> other_contact_with_email(Connection& conn,
                                                          const domain::WorkspaceId& ws,
                                                          const std::string& email,
                                                          const domain::ContactId& self) {
  const Result r = conn.query(
      "SELECT id FROM contacts WHERE workspace_id = $1 AND email_folded = $2 AND id <> $3",
      Params().text(ws.value).text(domain::case_fold(email)).text(self.value));
  if (r.rows() == 0) return std::nullopt;
  return domain::ContactId{r.text(0, 0)};
}

// False when another contact of the workspace holds the folded e-mail.
bool try_insert(Connection& conn, const domain::WorkspaceId& ws, const domain::Contact& c,
                const std::optional<std::string>& metadata_json) {
  const ContactFoldedColumns folded = contact_folded_columns(c);
  return conn.query(
                 "INSERT INTO contacts (id, workspace_id, first_name, last_name, email, phone, "
                 "company_name, tags, profile_notes, metadata, last_activity, created_at, "
                 "updated_at, first_name_folded, last_name_folded, email_folded, search_folded, "
                 "visitor_search_folded) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, "
                 "$11, $12, $13, $14, $15, $16, $17, $18) "
                 "ON CONFLICT (workspace_id, email_folded) WHERE email_folded IS NOT NULL "
                 "DO NOTHING RETURNING id",
                 Params()
                     .text(c.id.value)
                     .text(ws.value)
                     .text(c.first_name)
                     .opt_text(c.last_name)
                     .opt_text(c.email)
                     .opt_text(c.phone)
                     .opt_text(c.company_name)
                     .text(encode_string_array(c.tags))
                     .text(c.profile_notes)
                     .opt_text(metadata_json)
                     .int64(c.last_activity.unix_ms)
                     .int64(c.created_at.unix_ms)
                     .int64(c.updated_at.unix_ms)
                     .text(folded.first_name)
                     .opt_text(folded.last_name)
                     .opt_text(folded.email)
                     .text(folded.search)
                     .text(folded.visitor_search))
             .rows() == 1;
}

void write_contact(Connection& conn, const domain::WorkspaceId& ws, const domain::Contact& c) {
  const ContactFoldedColumns folded = contact_folded_columns(c);
  conn.query(
      "UPDATE contacts SET first_name = $1, last_name = $2, email = $3, phone = $4, "
      "company_name = $5, tags = $6::jsonb, profile_notes = $7, last_activity = $8, "
      "updated_at = $9, first_name_folded = $10, last_name_folded = $11, email_folded = $12, "
      "search_folded = $13, visitor_search_folded = $14 WHERE workspace_id = $15 AND id = $16",
      Params()
          .text(c.first_name)
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
          .text(folded.visitor_search)
          .text(ws.value)
          .text(c.id.value));
}

}  // namespace

CreateResult<domain::Contact> insert_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::NewContact& contact,
                                             domain::Timestamp now) {
  const domain::Contact out = new_contact_record(contact, now);
  for (int attempt = 0; attempt < kInsertAttempts; ++attempt) {
    if (try_insert(conn, ws, out, contact.metadata_json)) return out;
    if (!out.email) break;
    // Under READ COMMITTED this statement sees the winner, which has committed (or is this
    // transaction's own earlier insert).
    if (auto existing = find_contact_by_email(conn, ws, *out.email))
      return EmailConflict{*existing};
  }
  throw std::runtime_error("contact e-mail conflict without a conflicting contact");
}

std::optional<domain::ContactId> find_contact_by_email(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::string& email) {
  const Result r =
      conn.query("SELECT id FROM contacts WHERE workspace_id = $1 AND email_folded = $2",
                 Params().text(ws.value).text(domain::case_fold(email)));
  if (r.rows() == 0) return std::nullopt;
  return domain::ContactId{r.text(0, 0)};
}

std::optional<domain::Contact> select_contact(Connection& conn, const domain::WorkspaceId& ws,
                                              const domain::ContactId& id) {
  return first_contact(conn.query(std::string("SELECT ") + kContactColumns +
                                      " FROM contacts c WHERE c.workspace_id = $1 AND c.id = $2",
                                  Params().text(ws.value).text(id.value)));
}

UpdateResult<domain::Contact> update_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::ContactId& id,
                                             const domain::ContactPatch& patch,
                                             domain::Timestamp now) {
  const auto current = first_contact(
      conn.query(std::string("SELECT ") + kContactColumns +
                     " FROM contacts c WHERE c.workspace_id = $1 AND c.id = $2 FOR UPDATE OF c",
                 Params().text(ws.value).text(id.value)));
  if (!current) return NotFound{};
  domain::Contact next = apply_patch(*current, patch);
  if (same_patchable_fields(*current, next)) return *current;
  if (next.email) {
    if (auto other = other_contact_with_email(conn, ws, *next.email, id)) {
      return EmailConflict{*other};
    }
  }
  next.updated_at = advance_updated_at(current->updated_at, now);
  next.last_activity = std::max(current->last_activity, next.updated_at);
  // A concurrent create may take the address after the check; the unique index still decides.
  if (!without_unique_violation(conn, [&] { write_contact(conn, ws, next); })) {
    if (auto other = other_contact_with_email(conn, ws, *next.email, id)) {
      return EmailConflict{*other};
    }
    throw std::runtime_error("contact e-mail conflict without a conflicting contact");
  }
  return next;
}

bool delete_contact(Connection& conn, const domain::WorkspaceId& ws, const domain::ContactId& id) {
  return conn.query("DELETE FROM contacts WHERE workspace_id = $1 AND id = $2",
                    Params().text(ws.value).text(id.value))
             .affected() > 0;
}

void raise_contact_activity(Connection& conn, const domain::WorkspaceId& ws,
                            const domain::ContactId& id, domain::Timestamp at) {
  conn.query(
      "UPDATE contacts SET last_activity = GREATEST(last_activity, $1) "
      "WHERE workspace_id = $2 AND id = $3",
      Params().int64(at.unix_ms).text(ws.value).text(id.value));
}

Page<domain::Contact> list_contacts(Connection& conn, const domain::WorkspaceId& ws,
                                    const ContactListQuery& query) {
  ListSql sql;
  sql.columns = kContactColumns;
  sql.from = "contacts c";
  sql.where = "c.workspace_id = " + bind(sql, ws.value);
  if (!query.search_folded.empty()) {
    sql.where += " AND c.search_folded LIKE " + bind(sql, contains_pattern(query.search_folded));
  }
  if (query.tag) {
    sql.where += " AND c.tags @> " + bind(sql, encode_string_array({*query.tag})) + "::jsonb";
  }
  if (query.search_folded.empty() && !query.tag) {
    count_from_record_counts(sql, "contact", ws.value, std::nullopt, postgres_dialect());
  }
  sql.keys = contact_sort_keys(query.sort.field);
  sql.id_expr = "c.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Contact>(conn, sql, query.page, read_contact<Row>);
}

}  // namespace leadline::store::postgres
