// The running server: over an opened database it wires the authenticator, rate limiter, usage
// recorder and API handler behind the HTTP listener (and the admin listener), and runs until
// SIGINT or SIGTERM.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "runtime/runtime_config.hpp"
#include "store/database.hpp"

namespace leadline::runtime {

// The addresses the listeners bound ("HOST:PORT", the real port when 0 was asked).
using ListeningCallback =
    std::function<void(const std::string& api, const std::optional<std::string>& admin)>;

// `db` was opened with `db_metrics`, so its time shows in the metrics page. Calls `on_listening`
// once every listener accepts connections; returns after a signal, once in-flight requests are
// answered and usage counts flushed. Throws std::runtime_error naming the address when a
// listener cannot bind.
void run_api_server(const RuntimeConfig& config, store::Database& db,
                    store::OperationMetrics& db_metrics, const ListeningCallback& on_listening);

}  // namespace leadline::runtime
