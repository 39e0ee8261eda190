// API key rows; only the SHA-256 hash of a key is ever stored.
#include "store/postgres/key_queries.hpp"

#include "domain/uuid.hpp"
#include "store/json_string_array.hpp"
#include "store/record_columns.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::postgres {

namespace {

std::optional<ApiKeyRecord> first_key(const Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return read_key(Row(r, 0));
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
  conn.query(
      "INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, scopes, allowed_ips, "
      "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)",
      Params()
          .text(k.id.value)
          .text(k.workspace_id.value)
          .text(k.name)
          .text(k.prefix)
          .text(key.key_hash)
          .int64(k.scopes)
          .text(encode_string_array(k.allowed_ips))
          .int64(now.unix_ms));
  return k;
}

std::optional<ApiKeyRecord> select_key_by_hash(Connection& conn, const std::string& key_hash) {
  return first_key(
      conn.query(std::string("SELECT ") + kKeyColumns + " FROM api_keys WHERE key_hash = $1",
                 Params().text(key_hash)));
}

std::vector<ApiKeyRecord> select_keys_of_workspace(Connection& conn,
                                                   const domain::WorkspaceId& ws) {
  const Result r = conn.query(std::string("SELECT ") + kKeyColumns +
                                  " FROM api_keys WHERE workspace_id = $1 ORDER BY created_at, id",
                              Params().text(ws.value));
  std::vector<ApiKeyRecord> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(read_key(Row(r, i)));
  return out;
}

std::variant<ApiKeyRecord, NotFound> revoke_key(Connection& conn, const domain::ApiKeyId& id,
                                                domain::Timestamp now) {
  // COALESCE keeps the first revocation time; RETURNING reads the row in the same statement.
  auto key =
      first_key(conn.query(std::string("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) "
                                       "WHERE id = $2 RETURNING ") +
                               kKeyColumns,
                           Params().int64(now.unix_ms).text(id.value)));
  if (!key) return NotFound{};
  return *key;
}

}  // namespace leadline::store::postgres
