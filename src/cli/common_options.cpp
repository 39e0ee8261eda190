// Shared option handling: database location, workspace and id resolution.
#include "cli/common_options.hpp"

#include <exception>

#include "cli/setting_sources.hpp"
#include "domain/field_rules.hpp"
#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"

namespace leadline::cli {

std::vector<OptionSpec> common_options() {
  return {
      {.name = "db",
       .value_name = "URL",
       .help = std::string("database (env LEADLINE_DB, default ") + kDefaultDbUrl + ")"},
      {.name = "json", .help = "print exactly one JSON value on stdout"},
  };
}

Result<std::string> resolve_db_url(const ParsedArguments& args) {
  auto given = flag_or_env(args, "db", "LEADLINE_DB");
  if (!given) return std::string(kDefaultDbUrl);
  if (given->value.empty()) return usage_failure("--db must not be empty");
  return given->value;
}

Result<std::unique_ptr<store::Database>> open_store(const ParsedArguments& args) {
  auto url = resolve_db_url(args);
  if (auto* f = std::get_if<Failure>(&url)) return *f;
  return open_store_at(std::get<std::string>(url));
}

Result<std::unique_ptr<store::Database>> open_store_at(const std::string& url,
                                                       store::OperationMetrics* metrics,
                                                       const store::OpenOptions& options) {
  // open_database reports an unusable URL or database by throwing; at this edge that is an
  // ordinary outcome the operator should read, not a crash.
  try {
    return store::open_database(url, domain::system_clock(), metrics, options);
  } catch (const std::exception& e) {
    return failure("cannot open database " + url + ": " + e.what());
  }
}

Result<std::string> uuid_option(const ParsedArguments& args, const std::string& option) {
  const std::string text = args.value(option).value_or("");
  auto id = domain::parse_uuid(text);
  if (!id) return usage_failure("--" + option + " must be an id (UUID), got \"" + text + "\"");
  return *id;
}

OptionSpec workspace_option() {
  return {.name = "workspace", .value_name = "WS", .help = "workspace id", .required = true};
}

Result<domain::WorkspaceId> existing_workspace(store::Database& db, const ParsedArguments& args) {
  auto id = uuid_option(args, "workspace");
  if (auto* f = std::get_if<Failure>(&id)) return *f;
  domain::WorkspaceId ws{std::get<std::string>(id)};
  if (!db.workspaces().exists(ws)) return failure("no workspace with id " + ws.value);
  return ws;
}

Result<std::string> required_text_option(const ParsedArguments& args, const std::string& option) {
  std::string text = args.value(option).value_or("");
  if (!domain::is_valid_utf8(text)) return usage_failure("--" + option + " must be valid UTF-8");
  if (domain::trim_unicode_space(text).empty()) {
    return usage_failure("--" + option + " must not be empty");
  }
  return std::string(domain::trim_unicode_space(text));
}

Result<std::string> required_text_option(const ParsedArguments& args, const std::string& option,
                                         std::size_t max_code_points) {
  auto text = required_text_option(args, option);
  if (auto* f = std::get_if<Failure>(&text)) return *f;
  if (auto error =
          domain::check_max_length("--" + option, std::get<std::string>(text), max_code_points)) {
    return usage_failure(*error);
  }
  return text;
}

}  // namespace leadline::cli
