// Built on each scrape from the live counters; nothing is cached between scrapes.
#include "cli/metrics_page.hpp"

#include "observability/prometheus_text.hpp"

namespace leadline::cli {

std::string metrics_page(const observability::HttpMetrics& http,
                         const store::InstrumentedStore& store, const auth::UsageRecorder& usage) {
  std::string out;
  out.reserve(16 * 1024);
  http.render(out);
  store.render_metrics(out);
  observability::write_family(out, "leadline_usage_flush_lag_seconds",
                              "Seconds since usage counts were last written to the database.",
                              "gauge");
  observability::write_sample(out, "leadline_usage_flush_lag_seconds", {},
                              usage.seconds_since_flush());
  return out;
}

}  // namespace leadline::cli
