// The request metrics of one HTTP server: requests by route, method and status class, latency
// by route, requests in flight and rate-limited requests. Label values come from fixed lists
// given at construction, so series cannot multiply and the hot path is atomics only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "observability/histogram.hpp"

namespace leadline::observability {

class HttpMetrics {
 public:
  // Route labels any request may carry; a route not in the list is counted as the last one.
  explicit HttpMetrics(std::vector<std::string> routes);

  // One answered request; `seconds` from its parse to its response being ready.
  void observe(std::string_view route, std::string_view method, unsigned status, double seconds);

  // Counts a request in flight for as long as it lives.
  class InFlight {
   public:
    explicit InFlight(std::atomic<std::int64_t>& gauge) : gauge_(&gauge) {
      gauge_->fetch_add(1, std::memory_order_relaxed);
    }
    ~InFlight() { gauge_->fetch_sub(1, std::memory_order_relaxed); }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;

   private:
    std::atomic<std::int64_t>* gauge_;
  };
  InFlight enter() { return InFlight(in_flight_); }

  // leadline_http_requests_total, leadline_http_request_duration_seconds,
  // leadline_http_requests_in_flight and leadline_rate_limited_total.
  void render(std::string& out) const;

 private:
  std::size_t route_index(std::string_view route) const;

  std::vector<std::string> routes_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> requests_;  // [route][method][status class]
  std::unique_ptr<Histogram[]> durations_;                  // [route]
  std::atomic<std::int64_t> in_flight_{0};
  std::atomic<std::uint64_t> rate_limited_{0};
};

}  // namespace leadline::observability
