// A store operation's name as the metrics show it ("list_leads"), registered once by the code
// that runs the operation, so that there is no separate list of operations to keep in step.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "observability/histogram.hpp"

namespace leadline::store {

class Operation {
 public:
  static constexpr std::size_t kCapacity = 128;

  // `name` must outlive the process (a string literal). Registering a name twice yields the
  // same index. Throws std::length_error beyond kCapacity distinct names.
  explicit Operation(std::string_view name);

  std::size_t index() const { return index_; }
  std::string_view name() const;

  // Names registered so far, by index.
  static std::size_t registered();
  static std::string_view name_at(std::size_t index);

 private:
  std::size_t index_;
};

// Time spent in each operation (leadline_db_query_duration_seconds): one histogram per possible
// operation, preallocated, so observing is a few relaxed atomic increments.
class OperationMetrics {
 public:
  void observe(const Operation& op, double seconds) { durations_[op.index()].observe(seconds); }

  // The histogram family, with a series for every operation called at least once.
  void render(std::string& out) const;

 private:
  std::array<observability::Histogram, Operation::kCapacity> durations_;
};

}  // namespace leadline::store
