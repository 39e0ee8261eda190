// `leadline serve`: wires store -> authenticator -> rate limiter -> usage recorder -> API
// handler -> HTTP server, announces the address, and runs until SIGINT or SIGTERM.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <exception>
#include <iostream>
#include <memory>
#include <thread>

#include "api/api_handler.hpp"
#include "auth/authenticator.hpp"
#include "auth/redis_sliding_window_limiter.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/demo_data.hpp"
#include "cli/serve_settings.hpp"
#include "cli/shutdown_signals.hpp"
#include "http/server.hpp"

namespace leadline::cli {

namespace {

// Often enough that `keys usage` sees requests within the 5 seconds the contract allows.
constexpr std::chrono::milliseconds kUsageFlushInterval{1000};

// One report for both forms: the human lines end with the line tests and scripts wait for.
Report listening_report(const std::string& address, const std::optional<DemoSeed>& demo) {
  const std::string listening = "leadline listening on " + address;
  boost::json::object data{{"listening_on", address}, {"message", listening}};
  Report report{.human_body = false};
  if (demo) {
    auto summary = describe_demo(*demo, address);
    data["demo"] = std::move(summary.json);
    report.notes = std::move(summary.lines);
  }
  report.notes.push_back(listening);
  report.data = std::move(data);
  return report;
}

// The in-process limiter, or the shared one when --redis is set. A Redis that cannot be reached
// yet is only a warning: instances and Redis may come up in any order, and until it answers
// every API request is refused with 503 rather than served unlimited.
std::unique_ptr<auth::RateLimiter> make_limiter(const ServeSettings& config) {
  if (!config.redis) return std::make_unique<auth::SlidingWindowLimiter>(config.rate_limit);
  // hiredis writes with write(2): a Redis that went away must cost a request a 503, not the
  // process a SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  auto shared = std::make_unique<auth::RedisSlidingWindowLimiter>(config.rate_limit, *config.redis);
  if (auto reason = shared->probe()) {
    std::cerr << "leadline: warning: cannot reach Redis at " << config.redis->display() << " ("
              << *reason << "); serving anyway, API requests get 503 until it answers" << std::endl;
  }
  return shared;
}

std::optional<Failure> serve(const Invocation& in) {
  auto settings = serve_settings(in.args);
  if (auto* f = std::get_if<Failure>(&settings)) return *f;
  auto& config = std::get<ServeSettings>(settings);
  auto opened = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&opened)) return *f;
  auto& store = *std::get<0>(opened);

  std::optional<DemoSeed> demo;
  if (in.args.has("demo")) {
    auto seeded = seed_demo_data(store);
    if (auto* f = std::get_if<Failure>(&seeded)) return *f;
    demo = std::get<DemoSeed>(std::move(seeded));
  }

  auth::Authenticator authenticator(store, config.trusted_proxies);
  const auto limiter = make_limiter(config);
  auth::UsageRecorder usage(store, kUsageFlushInterval);
  api::ApiHandler handler(store, authenticator, *limiter, usage);
  // Each request on a database server waits on round trips; more threads than cores keep the
  // cores busy meanwhile (measured with PostgreSQL on 2 cores: 8 threads serve 1.8x the reads of
  // 2, and 1.8x what handing every request to the 64-thread blocking pool did).
  if (config.server.threads == 0 && store.remote()) {
    config.server.threads = 4 * std::max(1u, std::thread::hardware_concurrency());
  }
  http::Server server(config.server, handler);
  ShutdownSignals signals([&server] { server.stop(); });

  std::string address;
  // listen() reports a busy port or an unresolvable host by throwing; for the operator that
  // is an ordinary failure to read, not a crash.
  try {
    address = server.listen();
  } catch (const std::exception& e) {
    return failure(e.what());
  }
  in.out.emit(listening_report(address, demo));

  server.run();
  usage.flush();
  return std::nullopt;
}

}  // namespace

std::vector<Command> serve_commands() {
  return {
      {{.name = "serve",
        .summary = "Run the HTTP API until SIGINT or SIGTERM.",
        .options = serve_option_specs(),
        .details = "Prints \"leadline listening on HOST:PORT\" once requests are accepted. With "
                   "--redis, every instance given the same Redis shares one window per key; "
                   "while Redis cannot be reached, API requests get 503 with Retry-After: 1 "
                   "(never served unlimited), and service resumes by itself when it answers."},
       serve},
  };
}

}  // namespace leadline::cli
