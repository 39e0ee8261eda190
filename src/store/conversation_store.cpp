// Conversations: visitor fields come from the linked contact, agent fields from the agent,
// last_message and message_count from the messages, all in one statement per page.
#include "store/conversation_store.hpp"

#include "record_json/event_shapes.hpp"
#include "store/records/event_outbox.hpp"

#include "store/records/json_string_array.hpp"
#include "store/records/list_sort_keys.hpp"
#include "store/records/record_patches.hpp"
#include "store/records/stored_enums.hpp"
#include "store/sql/list_page.hpp"
#include "store/sql/updated_window.hpp"
#include "store/workspace_store.hpp"

namespace leadline::store {

namespace {

// Read with read_conversation.
constexpr std::string_view kConversationColumns =
    "cv.id, cv.source, cv.status, cv.tags, cv.created_at, cv.updated_at, cv.agent_id, "
    "cv.department_id, ct.first_name, ct.last_name, ct.email, ct.phone, ct.company_name, "
    "a.first_name, a.last_name, a.email, cv.last_message, cv.message_count";
constexpr std::string_view kConversationFrom =
    "conversations cv "
    "LEFT JOIN contacts ct ON ct.workspace_id = cv.workspace_id AND ct.id = cv.contact_id "
    "LEFT JOIN agents a ON a.workspace_id = cv.workspace_id AND a.id = cv.agent_id";

domain::ConversationStatus stored_status(std::string_view text) {
  return stored_enum(text, &domain::parse_conversation_status, "conversation status");
}

// Both column lists start with the conversation's own six fields (columns 0-5) and then, at
// `people`, the visitor's five and the agent's three.
domain::Conversation read_own_fields_and_people(const sql::Rows& row, int people) {
  domain::Conversation c;
  c.id.value = row.text(0);
  c.source = row.text(1);
  c.status = stored_status(row.text_view(2));
  c.tags = decode_string_array(row.text_view(3));
  c.created_at = {row.int64(4)};
  c.updated_at = {row.int64(5)};
  c.visitor_name = row.opt_text(people);
  c.visitor_last_name = row.opt_text(people + 1);
  c.visitor_email = row.opt_text(people + 2);
  c.visitor_phone = row.opt_text(people + 3);
  c.visitor_company = row.opt_text(people + 4);
  c.agent_name = row.opt_text(people + 5);
  c.agent_last_name = row.opt_text(people + 6);
  c.agent_email = row.opt_text(people + 7);
  return c;
}

domain::Conversation read_conversation(const sql::Rows& row) {
  domain::Conversation c = read_own_fields_and_people(row, 8);
  if (!row.is_null(6)) c.agent_id = domain::AgentId{row.text(6)};
  if (!row.is_null(7)) c.department_id = domain::DepartmentId{row.text(7)};
  c.last_message = row.opt_text(16);
  c.message_count = row.int64(17);
  return c;
}

// Refills `m`, whose strings keep their capacity from row to row.
void read_message_into(const sql::Rows& row, domain::Message& m) {
  row.text_into(0, m.id.value);
  row.text_into(1, m.sender_type);
  row.text_into(2, m.content);
  row.opt_text_into(3, m.attachments_json);
  row.text_into(4, m.status);
  m.created_at = {row.int64(5)};
  row.opt_text_into(6, m.sender_name);
}

// Each message of a conversation, oldest first, to `visit` in one refilled record.
void visit_messages(sql::Connection& conn, const domain::WorkspaceId& ws,
                    const domain::ConversationId& id, const ItemVisitor<domain::Message>& visit) {
  auto rows = conn.query(
      "SELECT id, sender_type, content, attachments, status, created_at, sender_name "
      "FROM messages WHERE workspace_id = ? AND conversation_id = ? "
      "ORDER BY created_at, id",
      sql::Params().id(ws).id(id));
  domain::Message m;
  while (rows.next()) {
    read_message_into(rows, m);
    visit(m);
  }
}

// One conversation of a workspace by id, with `columns` (read from kConversationFrom).
std::string select_one_conversation(std::string_view columns) {
  return "SELECT " + std::string(columns) + " FROM " + std::string(kConversationFrom) +
         " WHERE cv.workspace_id = ? AND cv.id = ?";
}

// What get-one shows of the conversation itself: no list summary (last_message,
// message_count), no agent or department id, so no subquery over the messages.
constexpr std::string_view kDetailColumns =
    "cv.id, cv.source, cv.status, cv.tags, cv.created_at, cv.updated_at, "
    "ct.first_name, ct.last_name, ct.email, ct.phone, ct.company_name, "
    "a.first_name, a.last_name, a.email";

std::optional<domain::Conversation> select_detail(sql::Connection& conn,
                                                  const domain::WorkspaceId& ws,
                                                  const domain::ConversationId& id) {
  static const std::string sql = select_one_conversation(kDetailColumns);
  auto row = conn.query(sql, sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  return read_own_fields_and_people(row, 6);
}

// The version of what getting the conversation shows, in the connection's snapshot; nullopt
// where the engine keeps none.
std::optional<std::int64_t> conversation_version(sql::Connection& c, const domain::WorkspaceId& ws,
                                                 const domain::ConversationId& id) {
  const std::string_view sql = c.dialect().conversation_version();
  if (sql.empty()) return std::nullopt;
  auto rows = c.query(sql, sql::Params().id(ws).id(id));
  return rows.next() ? rows.int64(0) : 0;
}

// The fields a PATCH may change, locked for the rest of the write where writers run at once.
std::optional<ConversationFields> select_patchable(sql::Connection& conn,
                                                   const domain::WorkspaceId& ws,
                                                   const domain::ConversationId& id) {
  auto row = conn.query(
      "SELECT status, tags, agent_id, department_id, updated_at FROM conversations "
      "WHERE workspace_id = ? AND id = ?" +
          conn.dialect().lock_rows(""),
      sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  ConversationFields f{stored_status(row.text_view(0)), decode_string_array(row.text_view(1)),
                       std::nullopt, std::nullopt, domain::Timestamp{row.int64(4)}};
  if (!row.is_null(2)) f.agent_id = domain::AgentId{row.text(2)};
  if (!row.is_null(3)) f.department_id = domain::DepartmentId{row.text(3)};
  return f;
}

}  // namespace

std::optional<domain::Conversation> select_conversation(sql::Connection& conn,
                                                        const domain::WorkspaceId& ws,
                                                        const domain::ConversationId& id) {
  static const std::string sql = select_one_conversation(kConversationColumns);
  auto row = conn.query(sql, sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  return read_conversation(row);
}

namespace {

sql::ListSql conversation_list_sql(const sql::Dialect& dialect, const domain::WorkspaceId& ws,
                                   const ConversationListQuery& query) {
  auto sql = sql::ListSql::of_workspace(kConversationColumns, kConversationFrom, "cv", ws.value);
  sql.sort_by(conversation_sort_keys(query.sort.field), query.sort.direction);
  if (query.status) sql.filter("cv.status = ?", std::string(to_string(*query.status)));
  sql::filter_updated_window(sql, dialect, {"cv", "updated_at", "conversations_by_updated"},
                             query.updated);
  if (query.tag) {
    dialect.add_tag_filter(sql, {"cv", "tags", "conversation_tags", "conversation_id"}, *query.tag);
  }
  if (!query.search_folded.empty()) {
    // Matches the linked contact's first, last, e-mail and company (not phone), found in the
    // contacts' own search index (SQLite migration 0012). Unlinked conversations never match a
    // search.
    dialect.add_search(sql,
                       {.alias = "ct",
                        .column = "visitor_search_folded",
                        .fts_table = "contacts_search",
                        .count_from = {},
                        .rowids_by_workspace = false,
                        .index_holds_more = true},
                       query.search_folded);
  } else {
    // Without a search the joins never change how many conversations match.
    sql.count_from = "conversations cv";
    if (query.tag && !query.status && query.updated.empty()) {
      sql::count_from_record_counts(sql, "conversation_tag", ws.value, *query.tag);
    } else if (!query.tag && query.updated.empty()) {
      sql::count_from_record_counts(
          sql, "conversation", ws.value,
          query.status ? std::optional<std::string>(to_string(*query.status)) : std::nullopt);
    }
  }
  return sql;
}

}  // namespace

std::optional<domain::ConversationWithMessages> ConversationStore::get(
    const domain::WorkspaceId& ws, const domain::ConversationId& id) {
  static const Operation op("get_conversation");
  return runner_.snapshot(
      op, [&](sql::Connection& c) -> std::optional<domain::ConversationWithMessages> {
        domain::ConversationWithMessages out;
        auto conversation = select_conversation(c, ws, id);
        if (!conversation) return std::nullopt;
        out.conversation = std::move(*conversation);
        visit_messages(c, ws, id, [&out](const domain::Message& m) { out.messages.push_back(m); });
        return out;
      });
}

bool ConversationStore::render(const domain::WorkspaceId& ws, const domain::ConversationId& id,
                               std::string& out, const ConversationWriter& writer) {
  static const Operation op("get_conversation");
  std::string key;
  key.append(std::to_string(ws.value.size())).append(":").append(ws.value).append(id.value);
  // One statement, no transaction: the version alone says whether the kept bytes still stand.
  if (const KeptRendering* kept = renderings_.find(key)) {
    const bool current = runner_.read(
        op, [&](sql::Connection& c) { return conversation_version(c, ws, id) == kept->version; });
    if (current) {
      out.append(kept->bytes);
      return true;
    }
  }
  const std::size_t start = out.size();
  std::optional<std::int64_t> version;
  const bool found = runner_.snapshot(op, [&](sql::Connection& c) {
    // A read the engine runs again (a lost connection) starts over.
    out.resize(start);
    version = conversation_version(c, ws, id);
    const auto conversation = select_detail(c, ws, id);
    if (!conversation) return false;
    writer.head(*conversation);
    visit_messages(c, ws, id, writer.message);
    writer.end();
    return true;
  });
  const std::size_t written = out.size() - start;
  if (found && version && written <= renderings_.budget_bytes() / 4) {
    renderings_.put(key, KeptRendering{*version, out.substr(start)}, written);
  }
  return found;
}

UpdateResult<domain::ConversationPatchResult> ConversationStore::update(
    const domain::WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch) {
  static const Operation op("update_conversation");
  return runner_.write(
      op, [&](sql::Connection& c) -> UpdateResult<domain::ConversationPatchResult> {
        const auto current = select_patchable(c, ws, id);
        if (!current) return NotFound{};
        if (patch.agent_id.value && !agent_in_workspace(c, ws, *patch.agent_id.value)) {
          return InvalidReference{"agent_id"};
        }
        if (patch.department_id.value &&
            !department_in_workspace(c, ws, *patch.department_id.value)) {
          return InvalidReference{"department_id"};
        }
        ConversationFields next = apply_patch(*current, patch);
        if (!(next == *current)) {
          const auto before = select_conversation(c, ws, id);
          next.updated_at = advance_updated_at(current->updated_at, runner_.now());
          c.execute(
              "UPDATE conversations SET status = ?, tags = ?, agent_id = ?, department_id = ?, "
              "updated_at = ? WHERE workspace_id = ? AND id = ?",
              sql::Params()
                  .text(domain::to_string(next.status))
                  .text(encode_string_array(next.tags))
                  .opt_id(next.agent_id)
                  .opt_id(next.department_id)
                  .int64(next.updated_at.unix_ms)
                  .id(ws)
                  .id(id));
          const auto after = select_conversation(c, ws, id);
          record_event(c, ws, "conversation.updated", record_json::conversation_data(*after),
                       record_json::previous_attributes(*before, *after), next.updated_at);
        }
        return domain::ConversationPatchResult{id, next.status, next.tags, next.updated_at};
      });
}

sql::ListStatements conversation_list_statements(const sql::Dialect& dialect,
                                                 const domain::WorkspaceId& ws,
                                                 const ConversationListQuery& query,
                                                 std::optional<std::int64_t> total_count) {
  return sql::list_statements_for(conversation_list_sql(dialect, ws, query), query.page, dialect,
                                  total_count);
}

Page<domain::Conversation> ConversationStore::list(const domain::WorkspaceId& ws,
                                                   const ConversationListQuery& query) {
  static const Operation op("list_conversations");
  return runner_.snapshot(op, [&](sql::Connection& c) {
    return sql::run_list<domain::Conversation>(c, conversation_list_sql(c.dialect(), ws, query),
                                               query.page, read_conversation);
  });
}

}  // namespace leadline::store
