// `leadline serve`: reads the settings, opens the database (seeding the demo workspace with
// --demo), then hands over to the server runtime and reports where it listens.
#include <exception>
#include <iostream>

#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/demo_data.hpp"
#include "cli/effective_config.hpp"
#include "cli/serve_settings.hpp"
#include "runtime/api_server.hpp"
#include "store/operation.hpp"

namespace leadline::cli {

namespace {

// One report for both forms: the human lines end with the line tests and scripts wait for (the
// API's first, then the admin listener's).
Report listening_report(const std::string& address, const std::optional<std::string>& admin,
                        const std::optional<DemoSeed>& demo) {
  const std::string listening = "leadline listening on " + address;
  boost::json::object data{{"listening_on", address}, {"message", listening}};
  if (admin) data["admin_listening_on"] = *admin;
  Report report{.human_body = false};
  if (demo) {
    auto summary = describe_demo(*demo, address);
    data["demo"] = std::move(summary.json);
    report.notes = std::move(summary.lines);
  }
  report.notes.push_back(listening);
  if (admin) report.notes.push_back("admin listening on " + *admin);
  report.data = std::move(data);
  return report;
}

std::optional<Failure> serve(const Invocation& in) {
  auto sources = setting_sources(in.args);
  if (auto* f = std::get_if<Failure>(&sources)) return *f;
  auto settings = serve_settings(std::get<SettingSources>(sources));
  if (auto* f = std::get_if<Failure>(&settings)) return *f;
  auto& config = std::get<ServeSettings>(settings);
  if (in.args.has("print-config")) {
    std::cout << effective_config_toml(std::get<SettingSources>(sources)) << std::flush;
    return std::nullopt;
  }
  store::OperationMetrics db_metrics;
  auto opened = open_store_at(config.db_url, &db_metrics, config.db);
  if (auto* f = std::get_if<Failure>(&opened)) return *f;
  auto& db = *std::get<0>(opened);

  std::optional<DemoSeed> demo;
  if (config.demo) {
    auto seeded = seed_demo_data(db);
    if (auto* f = std::get_if<Failure>(&seeded)) return *f;
    demo = std::get<DemoSeed>(std::move(seeded));
  }

  // A busy port or an unresolvable host is, for the operator, an ordinary failure to read.
  try {
    runtime::run_api_server(
        config.runtime, db, db_metrics,
        [&](const std::string& address, const std::optional<std::string>& admin) {
          in.out.emit(listening_report(address, admin, demo));
        });
  } catch (const std::exception& e) {
    return failure(e.what());
  }
  return std::nullopt;
}

}  // namespace

std::vector<Command> serve_commands() {
  return {
      {{.name = "serve",
        .summary = "Run the HTTP API until SIGINT or SIGTERM.",
        .options = serve_option_specs(),
        .details = "Prints \"leadline listening on HOST:PORT\" once requests are accepted (and "
                   "\"admin listening on HOST:PORT\" with --admin-listen). With "
                   "--redis, every instance given the same Redis shares one window per key; "
                   "while Redis cannot be reached, API requests get 503 with Retry-After: 1 "
                   "(never served unlimited), and service resumes by itself when it answers."},
       serve},
  };
}

}  // namespace leadline::cli
