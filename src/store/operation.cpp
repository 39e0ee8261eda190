// The process-wide register of operation names, and their histograms' exposition.
#include "store/operation.hpp"

#include <atomic>
#include <mutex>
#include <stdexcept>

#include "observability/prometheus_text.hpp"

namespace leadline::store {

namespace {

// Written under the mutex (once per call site); read without it, up to `count`, which is
// published with release order after the name it counts.
struct Register {
  std::mutex mutex;
  std::array<std::string_view, Operation::kCapacity> names;
  std::atomic<std::size_t> count{0};
};

Register& operation_register() {
  static Register r;
  return r;
}

}  // namespace

Operation::Operation(std::string_view name) {
  Register& r = operation_register();
  std::lock_guard lock(r.mutex);
  const std::size_t n = r.count.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < n; ++i) {
    if (r.names[i] == name) {
      index_ = i;
      return;
    }
  }
  if (n == kCapacity) throw std::length_error("more store operations than Operation::kCapacity");
  r.names[n] = name;
  index_ = n;
  r.count.store(n + 1, std::memory_order_release);
}

std::string_view Operation::name() const {
  return name_at(index_);
}

std::size_t Operation::registered() {
  return operation_register().count.load(std::memory_order_acquire);
}

std::string_view Operation::name_at(std::size_t index) {
  return operation_register().names[index];
}

void OperationMetrics::render(std::string& out) const {
  observability::write_family(out, "leadline_db_query_duration_seconds",
                              "Time spent in database calls, by store operation.", "histogram");
  const std::size_t n = Operation::registered();
  for (std::size_t i = 0; i < n; ++i) {
    const auto snapshot = durations_[i].snapshot();
    if (snapshot.count() == 0) continue;
    observability::write_histogram(out, "leadline_db_query_duration_seconds",
                                   {{"operation", Operation::name_at(i)}}, snapshot);
  }
}

}  // namespace leadline::store
