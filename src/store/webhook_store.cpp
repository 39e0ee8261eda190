// Webhook endpoints with their secrets; the secret is written here and read only by the
// delivery claim (delivery_store.cpp), never by the API's reads.
#include "store/webhook_store.hpp"

#include "domain/uuid.hpp"
#include "store/records/json_string_array.hpp"
#include "store/records/record_patches.hpp"
#include "store/sql/list_page.hpp"

namespace leadline::store {

namespace {

constexpr std::string_view kWebhookColumns =
    "w.id, w.url, w.events, w.description, w.enabled, w.disabled_reason, w.created_at, "
    "w.updated_at";

domain::WebhookEndpoint read_webhook(const sql::Rows& row) {
  domain::WebhookEndpoint w;
  w.id.value = row.text(0);
  w.url = row.text(1);
  w.events = decode_string_array(row.text_view(2));
  w.description = row.text(3);
  w.enabled = row.int64(4) != 0;
  w.disabled_reason = row.opt_text(5);
  w.created_at = {row.int64(6)};
  w.updated_at = {row.int64(7)};
  return w;
}

std::optional<domain::WebhookEndpoint> select_webhook(sql::Connection& conn,
                                                      const domain::WorkspaceId& ws,
                                                      const domain::WebhookId& id,
                                                      std::string_view suffix = {}) {
  static const std::string sql = "SELECT " + std::string(kWebhookColumns) +
                                 " FROM webhooks w WHERE w.workspace_id = ? AND w.id = ?";
  auto row =
      conn.query(suffix.empty() ? sql : sql + std::string(suffix), sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  return read_webhook(row);
}

}  // namespace

std::variant<domain::WebhookEndpoint, TooManyWebhooks> WebhookStore::create(
    const domain::WorkspaceId& ws, const domain::NewWebhook& webhook) {
  static const Operation op("create_webhook");
  return runner_.write(
      op, [&](sql::Connection& c) -> std::variant<domain::WebhookEndpoint, TooManyWebhooks> {
        // Concurrent creates in one workspace count one after the other.
        c.query("SELECT id FROM workspaces w WHERE id = ?" + c.dialect().lock_rows("w"),
                sql::Params().id(ws))
            .next();
        {
          auto count =
              c.query("SELECT COUNT(*) FROM webhooks WHERE workspace_id = ?", sql::Params().id(ws));
          count.next();
          if (count.int64(0) >= static_cast<std::int64_t>(domain::kMaxWebhooksPerWorkspace)) {
            return TooManyWebhooks{};
          }
        }
        const domain::Timestamp now = runner_.now();
        domain::WebhookEndpoint out;
        out.id.value = domain::new_uuid_v7(now.unix_ms);
        out.url = webhook.url;
        out.events = webhook.events;
        out.description = webhook.description;
        out.enabled = webhook.enabled;
        if (!webhook.enabled) out.disabled_reason = "requested";
        out.created_at = now;
        out.updated_at = now;
        c.execute(
            "INSERT INTO webhooks (workspace_id, id, url, events, description, enabled, "
            "disabled_reason, secret, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            sql::Params()
                .id(ws)
                .id(out.id)
                .text(out.url)
                .text(encode_string_array(out.events))
                .text(out.description)
                .int64(out.enabled ? 1 : 0)
                .opt_text(out.disabled_reason)
                .text(webhook.secret)
                .int64(now.unix_ms)
                .int64(now.unix_ms));
        return out;
      });
}

std::optional<domain::WebhookEndpoint> WebhookStore::get(const domain::WorkspaceId& ws,
                                                         const domain::WebhookId& id) {
  static const Operation op("get_webhook");
  return runner_.read(op, [&](sql::Connection& c) { return select_webhook(c, ws, id); });
}

std::optional<domain::WebhookEndpoint> WebhookStore::update(const domain::WorkspaceId& ws,
                                                            const domain::WebhookId& id,
                                                            const domain::WebhookPatch& patch) {
  static const Operation op("update_webhook");
  return runner_.write(op, [&](sql::Connection& c) -> std::optional<domain::WebhookEndpoint> {
    auto current = select_webhook(c, ws, id, c.dialect().lock_rows("w"));
    if (!current) return std::nullopt;
    domain::WebhookEndpoint next = *current;
    if (patch.url) next.url = *patch.url;
    if (patch.events) next.events = *patch.events;
    if (patch.description) next.description = *patch.description;
    if (patch.enabled) {
      next.enabled = *patch.enabled;
      next.disabled_reason =
          *patch.enabled ? std::nullopt : std::optional<std::string>("requested");
    }
    next.updated_at = advance_updated_at(current->updated_at, runner_.now());
    c.execute(
        "UPDATE webhooks SET url = ?, events = ?, description = ?, enabled = ?, "
        "disabled_reason = ?, updated_at = ? WHERE workspace_id = ? AND id = ?",
        sql::Params()
            .text(next.url)
            .text(encode_string_array(next.events))
            .text(next.description)
            .int64(next.enabled ? 1 : 0)
            .opt_text(next.disabled_reason)
            .int64(next.updated_at.unix_ms)
            .id(ws)
            .id(id));
    return next;
  });
}

bool WebhookStore::remove(const domain::WorkspaceId& ws, const domain::WebhookId& id) {
  static const Operation op("delete_webhook");
  return runner_.write(op, [&](sql::Connection& c) {
    if (c.execute("DELETE FROM webhooks WHERE workspace_id = ? AND id = ?",
                  sql::Params().id(ws).id(id)) == 0) {
      return false;
    }
    c.execute(
        "DELETE FROM webhook_deliveries WHERE workspace_id = ? AND webhook_id = ? AND "
        "status = 'pending'",
        sql::Params().id(ws).id(id));
    return true;
  });
}

Page<domain::WebhookEndpoint> WebhookStore::list(const domain::WorkspaceId& ws,
                                                 const PageRequest& page) {
  static const Operation op("list_webhooks");
  static const std::vector<sql::SortKey> keys{{"w.created_at", false}};
  return runner_.snapshot(op, [&](sql::Connection& c) {
    auto sql = sql::ListSql::of_workspace(kWebhookColumns, "webhooks w", "w", ws.value);
    sql.sort_by(keys, SortDirection::kDesc);
    return sql::run_list<domain::WebhookEndpoint>(c, sql, page, read_webhook);
  });
}

bool WebhookStore::rotate_secret(const domain::WorkspaceId& ws, const domain::WebhookId& id,
                                 const std::string& new_secret) {
  static const Operation op("rotate_webhook_secret");
  return runner_.write(op, [&](sql::Connection& c) {
    return c.execute(
               "UPDATE webhooks SET previous_secret = secret, previous_secret_until = ?, "
               "secret = ? WHERE workspace_id = ? AND id = ?",
               sql::Params()
                   .int64(runner_.now().unix_ms + domain::kSecretRotationGraceMs)
                   .text(new_secret)
                   .id(ws)
                   .id(id)) > 0;
  });
}

}  // namespace leadline::store
