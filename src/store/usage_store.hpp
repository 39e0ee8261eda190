// API usage per key, UTC hour and endpoint: added to by the usage recorder's flushes, summed up
// into the report operators read and the series the dashboard charts, and forgotten after the
// retention.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "domain/timestamp.hpp"
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
  // The same report over every key of the workspace (all zero for one without usage).
  domain::UsageReport workspace_report(const domain::WorkspaceId& ws);
  // The workspace's requests by outcome, or those of one of its keys (NotFound for a key of
  // another workspace or none), per hour and per day as of the store's clock.
  std::variant<domain::UsageSeries, NotFound> series(const domain::WorkspaceId& ws,
                                                     const std::optional<domain::ApiKeyId>& key);
  // The latest request counted for each key of the workspace, by key id; keys without retained
  // usage are absent.
  std::map<std::string, domain::Timestamp> last_used(const domain::WorkspaceId& ws);

  // Deletes up to `batch` rows of hours that ended by `cutoff`, oldest first; returns how many.
  std::int64_t purge_older_than(domain::Timestamp cutoff, int batch);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
