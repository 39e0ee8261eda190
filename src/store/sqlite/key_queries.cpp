// API key rows; only the SHA-256 hash of a key is ever stored.
#include "store/sqlite/key_queries.hpp"

#include "domain/uuid.hpp"
#include "store/json_string_array.hpp"
#include "store/record_columns.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::sqlite {

namespace {

std::optional<ApiKeyRecord> select_key_by_id(Connection& conn, const domain::ApiKeyId& id) {
  auto q = conn.query(std::string("SELECT ") + kKeyColumns + " FROM api_keys WHERE id = ?");
  q.bind_text(id.value);
  if (!q.step()) return std::nullopt;
  return read_key(q);
}

}  // namespace

ApiKeyRecord insert_api_key(Connection& conn, const NewApiKey& key, domain::Timestamp now) {
  ApiKeyRecord k{{domain::new_uuid_v7(now.unix_ms)},
                 key.workspace_id,
                 key.name,
                 key.prefix,
                 key.scopes,
                 key.allowed_ips,
                 now,
                 std::nullopt};
  auto q = conn.query(
      "INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, scopes, allowed_ips, "
      "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind_text(k.id.value)
      .bind_text(k.workspace_id.value)
      .bind_text(k.name)
      .bind_text(k.prefix)
      .bind_text(key.key_hash)
      .bind_int(k.scopes)
      .bind_text(encode_string_array(k.allowed_ips))
      .bind_int(now.unix_ms)
      .run();
  return k;
}

std::optional<ApiKeyRecord> select_key_by_hash(Connection& conn, const std::string& key_hash) {
  auto q = conn.query(std::string("SELECT ") + kKeyColumns + " FROM api_keys WHERE key_hash = ?");
  q.bind_text(key_hash);
  if (!q.step()) return std::nullopt;
  return read_key(q);
}

std::vector<ApiKeyRecord> select_keys_of_workspace(Connection& conn,
                                                   const domain::WorkspaceId& ws) {
  auto q = conn.query(std::string("SELECT ") + kKeyColumns +
                      " FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id");
  q.bind_text(ws.value);
  std::vector<ApiKeyRecord> out;
  while (q.step()) out.push_back(read_key(q));
  return out;
}

std::variant<ApiKeyRecord, NotFound> revoke_key(Connection& conn, const domain::ApiKeyId& id,
                                                domain::Timestamp now) {
  {
    auto q = conn.query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
    q.bind_int(now.unix_ms).bind_text(id.value).run();
  }
  auto key = select_key_by_id(conn, id);
  if (!key) return NotFound{};
  return *key;
}

}  // namespace leadline::store::sqlite
