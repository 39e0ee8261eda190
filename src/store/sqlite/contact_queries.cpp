// Contacts: e-mail uniqueness through the folded unique index, computed conversation
// figures, compare-then-write PATCH that also moves last_activity, keyset-paged lists.
#include "store/sqlite/contact_queries.hpp"

#include "domain/unicode_text.hpp"
#include "store/contact_folded_columns.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/new_records.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"
#include "store/sqlite/list_page.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr const char* kContactColumns =
    "c.id, c.first_name, c.last_name, c.email, c.phone, c.company_name, c.tags, "
    "c.profile_notes, c.last_activity, c.created_at, c.updated_at, "
    "(SELECT COUNT(*) FROM conversations cv WHERE cv.contact_id = c.id), "
    "(SELECT MAX(cv.created_at) FROM conversations cv WHERE cv.contact_id = c.id)";

std::optional<domain::ContactId> other_contact_with_email(Connection& conn,
                                                          const domain::WorkspaceId& ws,
                                                          const std::string& email,
                                                          const domain::ContactId& self) {
  auto q =
      conn.query("SELECT id FROM contacts WHERE workspace_id = ? AND email_folded = ? AND id <> ?");
  q.bind_text(ws.value).bind_text(domain::case_fold(email)).bind_text(self.value);
  if (!q.step()) return std::nullopt;
  return domain::ContactId{q.text(0)};
}

}  // namespace

CreateResult<domain::Contact> insert_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::NewContact& contact,
                                             domain::Timestamp now) {
  const domain::Contact out = new_contact_record(contact, now);
  const ContactFoldedColumns folded = contact_folded_columns(out);
  try {
    auto q = conn.query(
        "INSERT INTO contacts (id, workspace_id, first_name, last_name, email, phone, "
        "company_name, tags, profile_notes, metadata, last_activity, created_at, updated_at, "
        "first_name_folded, last_name_folded, email_folded, search_folded, "
        "visitor_search_folded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind_text(out.id.value)
        .bind_text(ws.value)
        .bind_text(out.first_name)
        .bind_opt_text(out.last_name)
        .bind_opt_text(out.email)
        .bind_opt_text(out.phone)
        .bind_opt_text(out.company_name)
        .bind_text(encode_string_array(out.tags))
        .bind_text(out.profile_notes)
        .bind_opt_text(contact.metadata_json)
        .bind_int(out.last_activity.unix_ms)
        .bind_int(out.created_at.unix_ms)
        .bind_int(out.updated_at.unix_ms)
        .bind_text(folded.first_name)
        .bind_opt_text(folded.last_name)
        .bind_opt_text(folded.email)
        .bind_text(folded.search)
        .bind_text(folded.visitor_search)
        .run();
  } catch (const SqliteError& e) {
    if (!e.is_unique_violation() || !out.email) throw;
    if (auto existing = find_contact_by_email(conn, ws, *out.email)) {
      return EmailConflict{*existing};
    }
    throw;
  }
  return out;
}

std::optional<domain::ContactId> find_contact_by_email(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::string& email) {
  auto q = conn.query("SELECT id FROM contacts WHERE workspace_id = ? AND email_folded = ?");
  q.bind_text(ws.value).bind_text(domain::case_fold(email));
  if (!q.step()) return std::nullopt;
  return domain::ContactId{q.text(0)};
}

std::optional<domain::Contact> select_contact(Connection& conn, const domain::WorkspaceId& ws,
                                              const domain::ContactId& id) {
  auto q = conn.query(std::string("SELECT ") + kContactColumns +
                      " FROM contacts c WHERE c.workspace_id = ? AND c.id = ?");
  q.bind_text(ws.value).bind_text(id.value);
  if (!q.step()) return std::nullopt;
  return read_contact(q);
}

UpdateResult<domain::Contact> update_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::ContactId& id,
                                             const domain::ContactPatch& patch,
                                             domain::Timestamp now) {
  const auto current = select_contact(conn, ws, id);
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
  const ContactFoldedColumns folded = contact_folded_columns(next);
  auto q = conn.query(
      "UPDATE contacts SET first_name = ?, last_name = ?, email = ?, phone = ?, "
      "company_name = ?, tags = ?, profile_notes = ?, last_activity = ?, updated_at = ?, "
      "first_name_folded = ?, last_name_folded = ?, email_folded = ?, search_folded = ?, "
      "visitor_search_folded = ? WHERE workspace_id = ? AND id = ?");
  q.bind_text(next.first_name)
      .bind_opt_text(next.last_name)
      .bind_opt_text(next.email)
      .bind_opt_text(next.phone)
      .bind_opt_text(next.company_name)
      .bind_text(encode_string_array(next.tags))
      .bind_text(next.profile_notes)
      .bind_int(next.last_activity.unix_ms)
      .bind_int(next.updated_at.unix_ms)
      .bind_text(folded.first_name)
      .bind_opt_text(folded.last_name)
      .bind_opt_text(folded.email)
      .bind_text(folded.search)
      .bind_text(folded.visitor_search)
      .bind_text(ws.value)
      .bind_text(id.value)
      .run();
  return next;
}

bool delete_contact(Connection& conn, const domain::WorkspaceId& ws, const domain::ContactId& id) {
  auto q = conn.query("DELETE FROM contacts WHERE workspace_id = ? AND id = ?");
  q.bind_text(ws.value).bind_text(id.value).run();
  return conn.changes() > 0;
}

void raise_contact_activity(Connection& conn, const domain::WorkspaceId& ws,
                            const domain::ContactId& id, domain::Timestamp at) {
  auto q = conn.query(
      "UPDATE contacts SET last_activity = max(last_activity, ?) WHERE workspace_id = ? AND "
      "id = ?");
  q.bind_int(at.unix_ms).bind_text(ws.value).bind_text(id.value).run();
}

Page<domain::Contact> list_contacts(Connection& conn, const domain::WorkspaceId& ws,
                                    const ContactListQuery& query) {
  ListSql sql;
  sql.columns = kContactColumns;
  sql.from = "contacts c";
  sql.where = "c.workspace_id = ?";
  sql.params.emplace_back(ws.value);
  if (query.tag) {
    sql.where += " AND EXISTS (SELECT 1 FROM json_each(c.tags) WHERE json_each.value = ?)";
    sql.params.emplace_back(*query.tag);
  }
  if (!query.search_folded.empty()) {
    add_search(sql, "c", "contacts_search", "search_folded", query.search_folded, sql.from);
  }
  if (query.search_folded.empty() && !query.tag) {
    count_from_record_counts(sql, "contact", ws.value, std::nullopt, sqlite_dialect());
  }
  sql.keys = contact_sort_keys(query.sort.field);
  sql.id_expr = "c.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Contact>(conn, sql, query.page, read_contact<Query>);
}

}  // namespace leadline::store::sqlite
