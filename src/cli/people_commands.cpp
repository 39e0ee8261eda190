// `leadline reps add`, `agents add`, `departments add`: the people and teams that leads and
// conversations are assigned to.
#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/record_reports.hpp"
#include "domain/field_rules.hpp"

namespace leadline::cli {

namespace {

// Same length limits as contact names, so that a person's name fits wherever it is shown.
Result<std::string> name_option(const ParsedArguments& args, const std::string& option) {
  return required_text_option(args, option, domain::limits::kContactFirstName);
}

Result<domain::Person> person_options(const ParsedArguments& args) {
  auto first = name_option(args, "first-name");
  if (auto* f = std::get_if<Failure>(&first)) return *f;
  auto last = name_option(args, "last-name");
  if (auto* f = std::get_if<Failure>(&last)) return *f;
  auto email = domain::normalize_email("--email", args.value("email").value_or(""));
  if (email.error) return usage_failure(*email.error);
  domain::Person person;
  person.first_name = std::get<std::string>(first);
  person.last_name = std::get<std::string>(last);
  person.email = *email.address;
  return person;
}

enum class PersonKind { kRep, kAgent };

std::optional<Failure> add_person(const Invocation& in, PersonKind kind) {
  auto person = person_options(in.args);
  if (auto* f = std::get_if<Failure>(&person)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;

  auto& db = *std::get<0>(store);
  const auto& workspace = std::get<domain::WorkspaceId>(ws);
  const auto& given = std::get<domain::Person>(person);
  const auto added = kind == PersonKind::kRep ? db.workspaces().add_rep(workspace, given)
                                              : db.workspaces().add_agent(workspace, given);
  in.out.emit({.headline = kind == PersonKind::kRep ? "Sales rep added." : "Agent added.",
               .data = person_json(added)});
  return std::nullopt;
}

std::optional<Failure> add_department(const Invocation& in) {
  auto name = name_option(in.args, "name");
  if (auto* f = std::get_if<Failure>(&name)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;

  const auto added = std::get<0>(store)->workspaces().add_department(
      std::get<domain::WorkspaceId>(ws), std::get<std::string>(name));
  in.out.emit({.headline = "Department added.", .data = department_json(added)});
  return std::nullopt;
}

std::vector<OptionSpec> person_option_specs() {
  return {
      workspace_option(),
      {.name = "first-name", .value_name = "F", .help = "first name", .required = true},
      {.name = "last-name", .value_name = "L", .help = "last name", .required = true},
      {.name = "email", .value_name = "E", .help = "e-mail address", .required = true},
  };
}

}  // namespace

std::vector<Command> people_commands() {
  return {
      {{.name = "reps add",
        .summary = "Add a sales rep; leads are assigned to reps (assigned_rep_id).",
        .options = person_option_specs()},
       [](const Invocation& in) { return add_person(in, PersonKind::kRep); }},
      {{.name = "agents add",
        .summary = "Add a chat agent; conversations are assigned to agents (agent_id).",
        .options = person_option_specs()},
       [](const Invocation& in) { return add_person(in, PersonKind::kAgent); }},
      {{.name = "departments add",
        .summary = "Add a department; conversations are routed to departments (department_id).",
        .options =
            {workspace_option(),
             {.name = "name", .value_name = "N", .help = "department name", .required = true}}},
       add_department},
  };
}

}  // namespace leadline::cli
