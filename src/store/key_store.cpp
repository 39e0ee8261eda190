// SQL for API keys; every request reads the database (a lookup, or the check of a key the
// authenticator remembers), so a revocation by any process counts on the very next request.
#include "store/key_store.hpp"

#include <string>

#include "domain/uuid.hpp"
#include "store/records/json_string_array.hpp"

namespace leadline::store {

namespace {

// Read with read_key.
constexpr std::string_view kKeyColumns =
    "id, workspace_id, name, prefix, scopes, allowed_ips, created_at, revoked_at";

domain::ApiKeyRecord read_key(const sql::Rows& row) {
  domain::ApiKeyRecord k;
  k.id.value = row.text(0);
  k.workspace_id.value = row.text(1);
  k.name = row.text(2);
  k.prefix = row.text(3);
  k.scopes.bits = static_cast<unsigned>(row.int64(4));
  k.allowed_ips = decode_string_array(row.text_view(5));
  k.created_at = {row.int64(6)};
  if (!row.is_null(7)) k.revoked_at = domain::Timestamp{row.int64(7)};
  return k;
}

std::optional<domain::ApiKeyRecord> first_key(sql::Rows rows) {
  if (!rows.next()) return std::nullopt;
  return read_key(rows);
}

std::string select_keys(std::string_view where) {
  std::string sql = "SELECT ";
  sql += kKeyColumns;
  sql += " FROM api_keys WHERE ";
  sql += where;
  return sql;
}

}  // namespace

domain::ApiKeyRecord KeyStore::create(const domain::NewApiKey& key) {
  static const Operation op("create_api_key");
  return runner_.write(op, [&](sql::Connection& c) {
    const domain::Timestamp now = runner_.now();
    domain::ApiKeyRecord k{{domain::new_uuid_v7(now.unix_ms)},
                           key.workspace_id,
                           key.name,
                           key.prefix,
                           key.scopes,
                           key.allowed_ips,
                           now,
                           std::nullopt};
    c.execute(
        "INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, scopes, allowed_ips, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        sql::Params()
            .id(k.id)
            .id(k.workspace_id)
            .text(k.name)
            .text(k.prefix)
            .text(key.key_hash)
            .int64(k.scopes.bits)
            .text(encode_string_array(k.allowed_ips))
            .int64(now.unix_ms));
    return k;
  });
}

std::optional<domain::ApiKeyRecord> KeyStore::find_by_hash(std::string_view key_hash) {
  static const Operation op("find_key_by_hash");
  static const std::string sql = select_keys("key_hash = ?");
  return runner_.read(op, [&](sql::Connection& c) {
    return first_key(c.query(sql, sql::Params().text(key_hash)));
  });
}

namespace {
constexpr std::string_view kUsableKey =
    "SELECT 1 FROM api_keys WHERE id = ? AND revoked_at IS NULL";
}  // namespace

CarriedCheck KeyStore::carry_usable_check(const domain::ApiKeyId& id) {
  return CarriedCheck(std::string(kUsableKey), sql::Params().id(id));
}

bool KeyStore::usable(const domain::ApiKeyId& id) {
  static const Operation op("check_api_key");
  return runner_.read(
      op, [&](sql::Connection& c) { return c.query(kUsableKey, sql::Params().id(id)).next(); });
}

std::vector<domain::ApiKeyRecord> KeyStore::list(const domain::WorkspaceId& ws) {
  static const Operation op("list_api_keys");
  static const std::string sql = select_keys("workspace_id = ? ORDER BY created_at, id");
  return runner_.read(op, [&](sql::Connection& c) {
    auto rows = c.query(sql, sql::Params().id(ws));
    std::vector<domain::ApiKeyRecord> out;
    while (rows.next()) out.push_back(read_key(rows));
    return out;
  });
}

std::variant<domain::ApiKeyRecord, NotFound> KeyStore::revoke(const domain::ApiKeyId& id) {
  return revoke_where(id, std::nullopt);
}

std::variant<domain::ApiKeyRecord, NotFound> KeyStore::revoke(const domain::WorkspaceId& ws,
                                                              const domain::ApiKeyId& id) {
  return revoke_where(id, ws);
}

std::variant<domain::ApiKeyRecord, NotFound> KeyStore::revoke_where(
    const domain::ApiKeyId& id, const std::optional<domain::WorkspaceId>& ws) {
  static const Operation op("revoke_api_key");
  // COALESCE keeps the first revocation time; RETURNING reads the row in the same statement.
  // A workspace given must own the key (the dashboard); the operator's command gives none.
  static const std::string sql =
      "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? "
      "AND (CAST(? AS TEXT) IS NULL OR workspace_id = ?) RETURNING " +
      std::string(kKeyColumns);
  return runner_.write(op, [&](sql::Connection& c) -> std::variant<domain::ApiKeyRecord, NotFound> {
    auto key = first_key(
        c.query(sql, sql::Params().int64(runner_.now().unix_ms).id(id).opt_id(ws).opt_id(ws)));
    if (!key) return NotFound{};
    return *key;
  });
}

}  // namespace leadline::store
