// The SQL of idempotent requests: a lock across instances, the stored answer, and the purge.
#include "store/idempotency_store.hpp"

#include "store/sql/dialect.hpp"

namespace leadline::store {

const Operation& IdempotencyStore::run_once_operation() {
  static const Operation op("idempotent_request");
  return op;
}

bool IdempotencyStore::try_lock(sql::Connection& c, const IdempotentRequest& request) {
  const std::string_view sql = c.dialect().try_lock_text();
  if (sql.empty()) return true;
  auto rows = c.query(sql, sql::Params().text(request.api_key.value + '\n' + request.key.value));
  return rows.next() && rows.int64(0) != 0;
}

std::optional<std::pair<std::string, StoredAnswer>> IdempotencyStore::find(
    sql::Connection& c, const IdempotentRequest& request, domain::Timestamp now) {
  auto rows = c.query(
      "SELECT fingerprint, status, body FROM idempotency_keys "
      "WHERE api_key_id = ? AND key = ? AND expires_at > ?",
      sql::Params().id(request.api_key).text(request.key.value).int64(now.unix_ms));
  if (!rows.next()) return std::nullopt;
  return std::pair{rows.text(0), StoredAnswer{static_cast<unsigned>(rows.int64(1)), rows.text(2)}};
}

void IdempotencyStore::save(sql::Connection& c, const IdempotentRequest& request,
                            const StoredAnswer& answer, domain::Timestamp now) {
  // A row still there for the key is one past its lifetime that the purge has not reached
  // (find saw none in force): the key starts a new life.
  c.execute(
      "INSERT INTO idempotency_keys (api_key_id, key, fingerprint, status, body, created_at, "
      "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (api_key_id, key) DO UPDATE SET "
      "fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body, "
      "created_at = excluded.created_at, expires_at = excluded.expires_at",
      sql::Params()
          .id(request.api_key)
          .text(request.key.value)
          .text(request.fingerprint)
          .int64(answer.status)
          .text(answer.body)
          .int64(now.unix_ms)
          .int64(now.unix_ms + domain::kIdempotencyKeyLifetimeMs));
}

IdempotentOutcome IdempotencyStore::replay_or_refuse(const IdempotentRequest& request,
                                                     std::pair<std::string, StoredAnswer> stored) {
  if (stored.first != request.fingerprint) return KeyUsedForAnotherRequest{};
  return Replayed{std::move(stored.second)};
}

IdempotentOutcome IdempotencyStore::stored_or_busy(const IdempotentRequest& request) {
  static const Operation op("find_idempotent_answer");
  auto stored =
      runner_.read(op, [&](sql::Connection& c) { return find(c, request, runner_.now()); });
  if (!stored) return KeyBusy{};
  return replay_or_refuse(request, std::move(*stored));
}

std::int64_t IdempotencyStore::purge_expired(int batch) {
  static const Operation op("purge_idempotency_keys");
  return runner_.write(op, [&](sql::Connection& c) {
    return c.execute(
        "DELETE FROM idempotency_keys WHERE (api_key_id, key) IN (SELECT api_key_id, key FROM "
        "idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)",
        sql::Params().int64(runner_.now().unix_ms).int64(batch));
  });
}

}  // namespace leadline::store
