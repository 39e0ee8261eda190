// API usage per key, UTC hour and endpoint: added to by the usage recorder's flushes, summed up
// into the report operators read.
#pragma once

#include <variant>
#include <vector>

#include "domain/usage.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"

namespace leadline::store {

class UsageStore {
 public:
  explicit UsageStore(OperationRunner& runner) : runner_(runner) {}

  // Adds the counts; those of keys that no longer exist are dropped.
  void record(const std::vector<domain::UsageDelta>& deltas);

  // As of the store's clock: today, this ISO week, this calendar month (UTC).
  std::variant<domain::UsageReport, NotFound> report(const domain::ApiKeyId& id);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
