// `leadline users add|list|reset|remove`: the dashboard users of a workspace. A user without a
// password gets a one-time setup link, where they choose one; the database keeps only the link
// token's SHA-256 and the password's Argon2id hash, never either secret.
#include <chrono>
#include <iostream>
#include <iterator>

#include <boost/json/array.hpp>

#include "auth/password_hash.hpp"
#include "auth/secret_token.hpp"
#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/public_url.hpp"
#include "cli/record_reports.hpp"
#include "domain/field_rules.hpp"
#include "domain/password_rule.hpp"

namespace leadline::cli {

namespace {

// Long enough to reach someone by mail or chat over a working day, short enough that a link
// left in an inbox soon stops being a way in.
constexpr std::chrono::hours kSetupLinkLifetime{24};

// "which works once, for 24 hours": what --help and the note after a link say of it.
std::string setup_link_terms() {
  return "which works once, for " + std::to_string(kSetupLinkLifetime.count()) +
         " hours, and is shown only this once";
}

std::string setup_link_note() {
  return "Send the setup link to the user, " + setup_link_terms() + ".";
}

// A setup link: the URL for the user, and what the store keeps of it.
struct SetupLink {
  std::string url;
  std::string token_hash;
  domain::Timestamp expires_at;
};

Result<SetupLink> new_setup_link(const ParsedArguments& args) {
  auto base = resolve_public_url(args);
  if (auto* f = std::get_if<Failure>(&base)) return *f;
  const std::string token = auth::generate_secret_token();
  return SetupLink{
      .url = std::get<std::string>(base) + "/dashboard/setup?token=" + token,
      .token_hash = auth::secret_token_hash(token),
      .expires_at = {domain::now().unix_ms + std::chrono::milliseconds(kSetupLinkLifetime).count()},
  };
}

// All of stdin less one trailing newline (what echo, a here-string or a file adds; CRLF counts
// as one), checked against the password rule.
Result<std::string> password_from_stdin() {
  std::string password(std::istreambuf_iterator<char>(std::cin), {});
  if (password.ends_with("\r\n")) {
    password.resize(password.size() - 2);
  } else if (password.ends_with('\n')) {
    password.pop_back();
  }
  if (auto error = domain::check_password(password)) {
    return usage_failure("--password-stdin: " + *error);
  }
  return password;
}

Failure no_such_user(const std::string& id) {
  return failure("no dashboard user with id " + id);
}

std::optional<Failure> add_user(const Invocation& in) {
  const auto email = domain::normalize_email("--email", in.args.value("email").value_or(""));
  if (email.error) return usage_failure(*email.error);
  auto name = required_text_option(in.args, "name", domain::limits::kDashboardUserName);
  if (auto* f = std::get_if<Failure>(&name)) return *f;

  domain::NewDashboardUser user{.workspace_id = {},
                                .email = *email.address,
                                .name = std::get<std::string>(name),
                                .password_hash = std::nullopt,
                                .setup_token_hash = std::nullopt,
                                .setup_expires_at = {}};
  std::optional<std::string> setup_url;
  if (in.args.has("password-stdin")) {
    auto password = password_from_stdin();
    if (auto* f = std::get_if<Failure>(&password)) return *f;
    user.password_hash = auth::hash_password(std::get<std::string>(password));
  } else {
    auto link = new_setup_link(in.args);
    if (auto* f = std::get_if<Failure>(&link)) return *f;
    auto& issued = std::get<SetupLink>(link);
    user.setup_token_hash = issued.token_hash;
    user.setup_expires_at = issued.expires_at;
    setup_url = issued.url;
  }

  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;
  user.workspace_id = std::get<domain::WorkspaceId>(ws);

  const auto added = std::get<0>(store)->users().add(user);
  const auto* created = std::get_if<domain::DashboardUser>(&added);
  if (created == nullptr) {
    return failure("workspace " + user.workspace_id.value +
                   " already has a dashboard user with the e-mail " + user.email +
                   " (compared case-insensitively)");
  }
  auto data = dashboard_user_json(*created);
  data["setup_url"] = setup_url ? boost::json::value(*setup_url) : boost::json::value(nullptr);
  Report report{.headline = "Dashboard user added.", .data = std::move(data)};
  if (setup_url) report.notes.push_back(setup_link_note());
  in.out.emit(report);
  return std::nullopt;
}

std::optional<Failure> list_users(const Invocation& in) {
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;

  boost::json::array items;
  for (const auto& user : std::get<0>(store)->users().list(std::get<domain::WorkspaceId>(ws))) {
    items.push_back(dashboard_user_listing_json(user));
  }
  in.out.emit({.data = std::move(items)});
  return std::nullopt;
}

std::optional<Failure> reset_user(const Invocation& in) {
  auto id = uuid_option(in.args, "id");
  if (auto* f = std::get_if<Failure>(&id)) return *f;
  auto link = new_setup_link(in.args);
  if (auto* f = std::get_if<Failure>(&link)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  const auto& issued = std::get<SetupLink>(link);
  const auto reset = std::get<0>(store)->users().reset({std::get<std::string>(id)},
                                                       issued.token_hash, issued.expires_at);
  if (!reset) return no_such_user(std::get<std::string>(id));
  in.out.emit({.headline = "Password forgotten and every session of the user ended.",
               .data = boost::json::object{{"id", reset->id.value}, {"setup_url", issued.url}},
               .notes = {setup_link_note()}});
  return std::nullopt;
}

std::optional<Failure> remove_user(const Invocation& in) {
  auto id = uuid_option(in.args, "id");
  if (auto* f = std::get_if<Failure>(&id)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  const auto& user_id = std::get<std::string>(id);
  if (!std::get<0>(store)->users().remove({user_id})) return no_such_user(user_id);
  in.out.emit({.headline = "Dashboard user removed; every session of the user ended.",
               .data = boost::json::object{{"id", user_id}, {"removed", true}}});
  return std::nullopt;
}

OptionSpec user_id_option() {
  return {.name = "id", .value_name = "USER_ID", .help = "dashboard user id", .required = true};
}

}  // namespace

std::vector<Command> users_commands() {
  return {
      {{.name = "users add",
        .summary = "Add a dashboard user to a workspace; prints a one-time setup link.",
        .options =
            {workspace_option(),
             {.name = "email",
              .value_name = "E",
              .help = "e-mail address, unique in the workspace (case-insensitively)",
              .required = true},
             {.name = "name", .value_name = "N", .help = "the user's name", .required = true},
             {.name = "password-stdin",
              .help = "read the password (12 to 128 characters) from stdin instead of "
                      "printing a setup link; one trailing newline is dropped"},
             public_url_option()},
        .details = "Without --password-stdin the user chooses a password at the printed setup "
                   "link, " +
                   setup_link_terms() + "."},
       add_user},
      {{.name = "users list",
        .summary = "List the dashboard users of a workspace.",
        .options = {workspace_option()}},
       list_users},
      {{.name = "users reset",
        .summary = "Forget a dashboard user's password, end their sessions, print a setup link.",
        .options = {user_id_option(), public_url_option()},
        .details = "The user chooses a new password at the printed setup link, " +
                   setup_link_terms() + "."},
       reset_user},
      {{.name = "users remove",
        .summary = "Remove a dashboard user; their sessions end at once.",
        .options = {user_id_option()}},
       remove_user},
  };
}

}  // namespace leadline::cli
