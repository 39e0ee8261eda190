// The hours a usage read fetches: usage rows are per UTC hour, and every window the report and
// the series show is made of whole days.
#pragma once

#include <cstdint>

#include "domain/usage.hpp"

namespace leadline::store {

// Closed range of hour numbers (hours since the Unix epoch, UTC).
struct HourRange {
  std::int64_t first;
  std::int64_t last;
};

// Every hour of the days first_day to last_day (days since the Unix epoch, UTC), both included.
constexpr HourRange hours_of_days(std::int64_t first_day, std::int64_t last_day) {
  return {first_day * domain::kHoursPerDay, (last_day + 1) * domain::kHoursPerDay - 1};
}

}  // namespace leadline::store
