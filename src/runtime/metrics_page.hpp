// The text of GET /metrics on the admin listener: every leadline metric in one page.
#pragma once

#include <string>

#include "auth/usage_recorder.hpp"
#include "observability/http_metrics.hpp"
#include "store/engine.hpp"
#include "store/operation.hpp"

namespace leadline::runtime {

// `engine` is not const: counting its pool's connections takes the pool's lock.
std::string metrics_page(const observability::HttpMetrics& http,
                         const store::OperationMetrics& db_metrics, store::Engine& engine,
                         const auth::UsageRecorder& usage);

}  // namespace leadline::runtime
