// Index arithmetic over fixed label lists; rendering skips series that never counted.
#include "observability/http_metrics.hpp"

#include <array>

#include "observability/prometheus_text.hpp"

namespace leadline::observability {

namespace {

// Methods outside the list are counted as "other": a client cannot invent new series.
constexpr std::array<std::string_view, 8> kMethods = {"GET",  "POST",    "PATCH", "DELETE",
                                                      "HEAD", "OPTIONS", "PUT",   "other"};
constexpr std::array<std::string_view, 5> kStatusClasses = {"1xx", "2xx", "3xx", "4xx", "5xx"};

std::size_t method_index(std::string_view method) {
  for (std::size_t i = 0; i + 1 < kMethods.size(); ++i) {
    if (kMethods[i] == method) return i;
  }
  return kMethods.size() - 1;
}

std::size_t status_class_index(unsigned status) {
  if (status < 100 || status > 599) return kStatusClasses.size() - 1;
  return status / 100 - 1;
}

}  // namespace

HttpMetrics::HttpMetrics(std::vector<std::string> routes)
    : routes_(std::move(routes)),
      requests_(new std::atomic<std::uint64_t>[routes_.size() * kMethods.size() *
                                               kStatusClasses.size()]()),
      durations_(new Histogram[routes_.size()]()) {}

std::size_t HttpMetrics::route_index(std::string_view route) const {
  for (std::size_t i = 0; i + 1 < routes_.size(); ++i) {
    if (routes_[i] == route) return i;
  }
  return routes_.size() - 1;
}

void HttpMetrics::observe(std::string_view route, std::string_view method, unsigned status,
                          double seconds) {
  const std::size_t r = route_index(route);
  const std::size_t slot = (r * kMethods.size() + method_index(method)) * kStatusClasses.size() +
                           status_class_index(status);
  requests_[slot].fetch_add(1, std::memory_order_relaxed);
  durations_[r].observe(seconds);
  if (status == 429) rate_limited_.fetch_add(1, std::memory_order_relaxed);
}

void HttpMetrics::render(std::string& out) const {
  write_family(out, "leadline_http_requests_total",
               "HTTP requests answered, by route template, method and status class.", "counter");
  for (std::size_t r = 0; r < routes_.size(); ++r) {
    for (std::size_t m = 0; m < kMethods.size(); ++m) {
      for (std::size_t c = 0; c < kStatusClasses.size(); ++c) {
        const auto count = requests_[(r * kMethods.size() + m) * kStatusClasses.size() + c].load(
            std::memory_order_relaxed);
        if (count == 0) continue;
        write_sample(
            out, "leadline_http_requests_total",
            {{"route", routes_[r]}, {"method", kMethods[m]}, {"status_class", kStatusClasses[c]}},
            count);
      }
    }
  }

  write_family(out, "leadline_http_request_duration_seconds",
               "Time from a request being parsed to its response being ready, by route template.",
               "histogram");
  for (std::size_t r = 0; r < routes_.size(); ++r) {
    write_histogram(out, "leadline_http_request_duration_seconds", {{"route", routes_[r]}},
                    durations_[r].snapshot());
  }

  write_family(out, "leadline_http_requests_in_flight", "Requests being handled right now.",
               "gauge");
  write_sample(out, "leadline_http_requests_in_flight", {},
               static_cast<double>(in_flight_.load(std::memory_order_relaxed)));

  write_family(out, "leadline_rate_limited_total", "Requests refused with 429 by the rate limit.",
               "counter");
  write_sample(out, "leadline_rate_limited_total", {},
               rate_limited_.load(std::memory_order_relaxed));
}

}  // namespace leadline::observability
