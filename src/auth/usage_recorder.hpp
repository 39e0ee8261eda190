// Usage per key, UTC hour (by `clock`) and endpoint, counted in memory on the request path and
// written to the database in batches by a background thread (every flush_interval, and on
// stop), so a request never pays a write.
#pragma once

#include <chrono>
#include <memory>
#include <string_view>

#include "auth/sliding_window_limiter.hpp"
#include "auth/storage_ports.hpp"
#include "observability/logger.hpp"

namespace leadline::auth {

class UsageRecorder {
 public:
  // Failed flushes are reported through `logger` (which must outlive the recorder).
  UsageRecorder(UsageSink sink, std::chrono::milliseconds flush_interval,
                Clock clock = system_clock_ms(),
                const observability::Logger& logger = observability::Logger::fallback());
  ~UsageRecorder();  // flushes

  // endpoint: "GET /leads". status: the response status sent.
  void record(std::string_view key_id, std::string_view endpoint, unsigned status);

  // Writes everything counted so far; called by the background thread and at shutdown.
  void flush();

  // Seconds since the counts were last written in full (or since the start), by `clock`.
  double seconds_since_flush() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::auth
