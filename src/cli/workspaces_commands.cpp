// `leadline workspaces create|list`: the tenants every key and record belongs to.
#include <boost/json/array.hpp>

#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/record_reports.hpp"

namespace leadline::cli {

namespace {

std::optional<Failure> create_workspace(const Invocation& in) {
  auto name = required_text_option(in.args, "name");
  if (auto* f = std::get_if<Failure>(&name)) return *f;
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  const auto ws = std::get<0>(store)->workspaces().create(std::get<std::string>(name));
  in.out.emit({.headline = "Workspace created.",
               .data = workspace_json(ws),
               .notes = {"Next: leadline keys create --workspace " + ws.id.value +
                         " --name NAME --scopes read,write"}});
  return std::nullopt;
}

std::optional<Failure> list_workspaces(const Invocation& in) {
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;

  boost::json::array items;
  for (const auto& ws : std::get<0>(store)->workspaces().list())
    items.push_back(workspace_json(ws));
  in.out.emit({.data = std::move(items)});
  return std::nullopt;
}

}  // namespace

std::vector<Command> workspaces_commands() {
  return {
      {{.name = "workspaces create",
        .summary = "Create a workspace; its id is what --workspace takes elsewhere.",
        .options =
            {{.name = "name", .value_name = "NAME", .help = "workspace name", .required = true}}},
       create_workspace},
      {{.name = "workspaces list", .summary = "List every workspace."}, list_workspaces},
  };
}

}  // namespace leadline::cli
