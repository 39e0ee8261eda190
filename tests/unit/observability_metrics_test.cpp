// Histogram buckets and the Prometheus text of the HTTP metrics.

#include <gtest/gtest.h>

#include <string>

#include "observability/http_metrics.hpp"
#include "observability/prometheus_text.hpp"

namespace leadline::observability {
namespace {

TEST(Histogram, CountsEachObservationInItsBucketCumulatively) {
  Histogram h;
  h.observe(0.0001);  // first bucket
  h.observe(0.0005);  // on the bound: still the first (le is inclusive)
  h.observe(0.3);     // 0.5
  h.observe(10);      // +Inf only
  const auto s = h.snapshot();
  EXPECT_EQ(s.cumulative[0], 2u);
  EXPECT_EQ(s.cumulative[8], 2u);   // le 0.25
  EXPECT_EQ(s.cumulative[9], 3u);   // le 0.5
  EXPECT_EQ(s.cumulative[11], 3u);  // le 2.5
  EXPECT_EQ(s.count(), 4u);
  EXPECT_NEAR(s.sum_seconds, 10.3006, 1e-6);
}

TEST(HttpMetrics, RendersCountersByLabelAndUnknownLabelsFallIntoTheLastRoute) {
  HttpMetrics metrics({"/a", "none"});
  metrics.observe("/a", "GET", 200, 0.001);
  metrics.observe("/a", "GET", 204, 0.001);
  metrics.observe("/zzz", "BREW", 429, 0.001);
  std::string out;
  metrics.render(out);
  EXPECT_NE(out.find("# TYPE leadline_http_requests_total counter\n"), std::string::npos);
  EXPECT_NE(
      out.find(R"(leadline_http_requests_total{route="/a",method="GET",status_class="2xx"} 2)"),
      std::string::npos)
      << out;
  EXPECT_NE(
      out.find(R"(leadline_http_requests_total{route="none",method="other",status_class="4xx"} 1)"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(leadline_http_request_duration_seconds_bucket{route="/a",le="+Inf"} 2)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(leadline_http_request_duration_seconds_count{route="/a"} 2)"),
            std::string::npos);
  EXPECT_NE(out.find("leadline_rate_limited_total 1\n"), std::string::npos);
  EXPECT_NE(out.find("leadline_http_requests_in_flight 0\n"), std::string::npos);
  {
    const auto busy = metrics.enter();
    std::string during;
    metrics.render(during);
    EXPECT_NE(during.find("leadline_http_requests_in_flight 1\n"), std::string::npos);
  }
}

TEST(PrometheusText, EscapesLabelValues) {
  std::string out;
  write_sample(out, "m", {{"l", "a\"b\\c\nd"}}, std::uint64_t{1});
  EXPECT_EQ(out, "m{l=\"a\\\"b\\\\c\\nd\"} 1\n");
}

}  // namespace
}  // namespace leadline::observability
