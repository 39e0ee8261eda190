// A clock the test sets: time moves only when the test says so, so no test sleeps to make it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "domain/clock.hpp"

namespace leadline::unit_test {

class ManualClock final : public domain::Clock {
 public:
  explicit ManualClock(domain::Timestamp start = domain::now()) : ms_(start.unix_ms) {}

  domain::Timestamp now() const override { return {ms_.load()}; }
  void set(domain::Timestamp t) { ms_ = t.unix_ms; }
  void advance(std::chrono::milliseconds d) { ms_ += d.count(); }

 private:
  std::atomic<std::int64_t> ms_;
};

}  // namespace leadline::unit_test
