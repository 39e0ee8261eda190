// Built on each scrape from the live counters; nothing is cached between scrapes.
#include "runtime/metrics_page.hpp"

#include "observability/prometheus_text.hpp"

namespace leadline::runtime {

std::string metrics_page(const observability::HttpMetrics& http,
                         const store::OperationMetrics& db_metrics, store::Engine& engine,
                         const auth::UsageRecorder& usage) {
  std::string out;
  out.reserve(16 * 1024);
  http.render(out);
  db_metrics.render(out);
  observability::write_family(out, "leadline_usage_flush_lag_seconds",
                              "Seconds since usage counts were last written to the database.",
                              "gauge");
  observability::write_sample(out, "leadline_usage_flush_lag_seconds", {},
                              usage.seconds_since_flush());
  // Only PostgreSQL's pool counts its connections; with SQLite the family is left out.
  if (const auto pool = engine.pool_counts()) {
    observability::write_family(out, "leadline_db_pool_connections",
                                "Connections of the database pool, by state.", "gauge");
    observability::write_sample(out, "leadline_db_pool_connections", {{"state", "idle"}},
                                static_cast<std::uint64_t>(pool->idle));
    observability::write_sample(out, "leadline_db_pool_connections", {{"state", "in_use"}},
                                static_cast<std::uint64_t>(pool->in_use));
  }
  return out;
}

}  // namespace leadline::runtime
