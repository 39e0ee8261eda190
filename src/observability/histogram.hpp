// A latency histogram with the fixed buckets every leadline histogram uses (0.5 ms … 2.5 s),
// observed lock-free from any thread: one relaxed atomic increment per bucket hit.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace leadline::observability {

class Histogram {
 public:
  static constexpr std::array<double, 12> kBounds = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                     0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

  void observe(double seconds);

  struct Snapshot {
    std::array<std::uint64_t, kBounds.size() + 1> cumulative{};  // per bound, then +Inf
    double sum_seconds = 0;
    std::uint64_t count() const { return cumulative.back(); }
  };
  // Taken while others observe: each bucket is exact, the sum may lag by in-flight observations.
  Snapshot snapshot() const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};  // not cumulative
  std::atomic<std::uint64_t> sum_ns_{0};
};

}  // namespace leadline::observability
