// `leadline keys create|list|revoke|usage`: API keys of a workspace. The plaintext key exists
// only in the output of `keys create`; the store keeps its SHA-256 hash and a display prefix.
#include <boost/json/array.hpp>

#include "auth/api_key.hpp"
#include "auth/ip_rule.hpp"
#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/record_reports.hpp"
#include "cli/scopes.hpp"

namespace leadline::cli {

namespace {

Result<std::vector<std::string>> allowed_ips(const ParsedArguments& args) {
  auto entries = args.values("allow-ip");
  for (const auto& entry : entries) {
    if (!auth::parse_ip_range(entry)) {
      return usage_failure("--allow-ip \"" + entry +
                           "\" is not an IPv4/IPv6 address or CIDR range");
    }
  }
  return entries;
}

std::optional<Failure> create_key(const Invocation& in) {
  auto name = required_text_option(in.args, "name");
  if (auto* f = std::get_if<Failure>(&name)) return *f;
  auto scopes = parse_scopes(in.args.value("scopes").value_or(""));
  if (auto* f = std::get_if<Failure>(&scopes)) return *f;
  auto ips = allowed_ips(in.args);
  if (auto* f = std::get_if<Failure>(&ips)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;

  const std::string key = auth::generate_api_key();
  const auto record = std::get<0>(store)->keys().create({
      .workspace_id = std::get<domain::WorkspaceId>(ws),
      .name = std::get<std::string>(name),
      .prefix = auth::display_prefix(key),
      .key_hash = auth::hash_api_key(key),
      .scopes = std::get<domain::ScopeSet>(scopes),
      .allowed_ips = std::get<std::vector<std::string>>(ips),
  });

  auto data = api_key_json(record);
  // "key" right after "id", the order the contract lists.
  boost::json::object ordered;
  for (const auto& field : data) {
    ordered[field.key()] = field.value();
    if (field.key() == "id") ordered["key"] = key;
  }
  in.out.emit({.headline = "API key created.",
               .data = std::move(ordered),
               .notes = {"Store the key now: it is shown only this once."}});
  return std::nullopt;
}

std::optional<Failure> list_keys(const Invocation& in) {
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;

  boost::json::array items;
  for (const auto& key : std::get<0>(store)->keys().list(std::get<domain::WorkspaceId>(ws))) {
    items.push_back(api_key_listing_json(key));
  }
  in.out.emit({.data = std::move(items)});
  return std::nullopt;
}

std::optional<Failure> revoke_key(const Invocation& in) {
  auto id = uuid_option(in.args, "id");
  if (auto* f = std::get_if<Failure>(&id)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  const auto revoked = std::get<0>(store)->keys().revoke({std::get<std::string>(id)});
  const auto* key = std::get_if<domain::ApiKeyRecord>(&revoked);
  if (key == nullptr) return failure("no API key with id " + std::get<std::string>(id));
  auto data = api_key_listing_json(*key);
  in.out.emit(
      {.headline = "API key revoked.",
       .data = boost::json::object{{"id", data["id"]}, {"revoked_at", data["revoked_at"]}}});
  return std::nullopt;
}

std::optional<Failure> key_usage(const Invocation& in) {
  auto id = uuid_option(in.args, "id");
  if (auto* f = std::get_if<Failure>(&id)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  const auto usage = std::get<0>(store)->usage().report({std::get<std::string>(id)});
  const auto* report = std::get_if<domain::UsageReport>(&usage);
  if (report == nullptr) return failure("no API key with id " + std::get<std::string>(id));
  in.out.emit({.data = usage_json(*report),
               .notes = {"Week is the ISO week and month the calendar month, both UTC; "
                         "by_endpoint, error_rate and rate_limited cover this month."}});
  return std::nullopt;
}

OptionSpec key_id_option() {
  return {.name = "id", .value_name = "KEY_ID", .help = "API key id", .required = true};
}

}  // namespace

std::vector<Command> keys_commands() {
  return {
      {{.name = "keys create",
        .summary = "Create an API key; the key itself is printed once and never again.",
        .options =
            {workspace_option(),
             {.name = "name", .value_name = "NAME", .help = "label for the key", .required = true},
             {.name = "scopes",
              .value_name = "SCOPES",
              .help = "read, write or read,write",
              .required = true},
             {.name = "allow-ip",
              .value_name = "IP_OR_CIDR",
              .help = "only accept requests from this address or range; none = any",
              .repeatable = true}}},
       create_key},
      {{.name = "keys list",
        .summary = "List the API keys of a workspace (revoked ones included).",
        .options = {workspace_option()}},
       list_keys},
      {{.name = "keys revoke",
        .summary = "Revoke an API key; requests with it fail from the very next one.",
        .options = {key_id_option()}},
       revoke_key},
      {{.name = "keys usage",
        .summary = "Show the requests made with an API key.",
        .options = {key_id_option()}},
       key_usage},
  };
}

}  // namespace leadline::cli
