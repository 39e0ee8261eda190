// API usage as records: the counts flushed per key, day and endpoint, and the report an
// operator reads.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "domain/ids.hpp"

namespace leadline::domain {

// Usage counted in memory and flushed in batches: one row per key, UTC day and endpoint.
struct UsageDelta {
  ApiKeyId key_id;
  std::int64_t day;      // days since the Unix epoch, UTC
  std::string endpoint;  // "GET /leads"
  std::int64_t requests = 0;
  std::int64_t errors = 0;        // responses >= 400, 429s included
  std::int64_t rate_limited = 0;  // 429s
};

struct UsageReport {
  std::int64_t today = 0;
  std::int64_t this_week = 0;
  std::int64_t this_month = 0;
  std::map<std::string, std::int64_t> by_endpoint;  // this month
  double error_rate = 0;                            // this month
  std::int64_t rate_limited = 0;                    // this month
};

}  // namespace leadline::domain
