// POSTs sent with an Idempotency-Key (docs/api.md, "Idempotent requests"): each runs once per
// API key and key within kIdempotencyKeyLifetimeMs, and its answer is stored in the transaction
// of the change it made, so that a repeat gets that answer again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "domain/idempotency_key.hpp"
#include "domain/ids.hpp"
#include "domain/timestamp.hpp"
#include "store/in_flight_keys.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

// One request with a key: whose key it is, and what the request was.
struct IdempotentRequest {
  domain::ApiKeyId api_key;
  domain::IdempotencyKey key;
  std::string fingerprint;  // equal exactly for requests that count as the same
};

// An answer as stored and replayed.
struct StoredAnswer {
  unsigned status = 0;
  std::string body;
};

// How a request with a key went.
// The operation ran and answered; `stored` says whether its answer was kept with the key.
struct Ran {
  bool stored = false;
};
struct Replayed {
  StoredAnswer answer;
};
struct KeyUsedForAnotherRequest {};
struct KeyBusy {};  // the first request with the key is still running, here or elsewhere
using IdempotentOutcome = std::variant<Ran, Replayed, KeyUsedForAnotherRequest, KeyBusy>;

class IdempotencyStore {
 public:
  explicit IdempotencyStore(OperationRunner& runner) : runner_(runner) {}

  // Runs `operation()` unless the key already has an answer or a request running. The store
  // operations `operation` calls on this thread join one write transaction with the answer it
  // returns; nullopt stores nothing and undoes them (a refusal, which changed nothing).
  template <class Operation>
  IdempotentOutcome run_once(const IdempotentRequest& request, Operation&& operation);

  // Forgets up to `batch` keys past their lifetime, in one short transaction; returns how many
  // went. Callers repeat until it returns less than `batch`.
  std::int64_t purge_expired(int batch);

 private:
  // The steps of run_once, each its SQL.
  static bool try_lock(sql::Connection& c, const IdempotentRequest& request);
  static std::optional<std::pair<std::string, StoredAnswer>> find(sql::Connection& c,
                                                                  const IdempotentRequest& request,
                                                                  domain::Timestamp now);
  static void save(sql::Connection& c, const IdempotentRequest& request, const StoredAnswer& answer,
                   domain::Timestamp now);
  static const store::Operation& run_once_operation();
  // When another request holds the key: its answer if it has just been stored (a repeat of a
  // finished request meeting another repeat), else KeyBusy.
  IdempotentOutcome stored_or_busy(const IdempotentRequest& request);
  static IdempotentOutcome replay_or_refuse(const IdempotentRequest& request,
                                            std::pair<std::string, StoredAnswer> stored);

  OperationRunner& runner_;
  InFlightKeys in_flight_;
};

template <class Operation>
IdempotentOutcome IdempotencyStore::run_once(const IdempotentRequest& request,
                                             Operation&& operation) {
  const InFlightClaim claim(in_flight_, request.api_key.value + '\n' + request.key.value);
  if (!claim.held()) return stored_or_busy(request);
  IdempotentOutcome outcome = runner_.write_together(
      run_once_operation(),
      [&](sql::Connection& c) -> IdempotentOutcome {
        // Another instance's request with the key holds the lock until its commit, after
        // which `find` sees its answer.
        if (!try_lock(c, request)) return KeyBusy{};
        const domain::Timestamp now = runner_.now();
        if (auto stored = find(c, request, now)) return replay_or_refuse(request, *stored);
        std::optional<StoredAnswer> answer = operation();
        if (!answer) return Ran{false};
        save(c, request, *answer, now);
        return Ran{true};
      },
      [](const IdempotentOutcome& o) {
        const auto* ran = std::get_if<Ran>(&o);
        return ran != nullptr && ran->stored;
      });
  if (std::holds_alternative<KeyBusy>(outcome)) return stored_or_busy(request);
  return outcome;
}

}  // namespace leadline::store
