// `leadline import --workspace WS FILE`: JSON Lines intake of leads, contacts and
// conversations. Every line is decoded before anything is stored, and the store applies the
// batch all-or-nothing, so a bad line leaves the database as it was.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/import_line.hpp"

namespace leadline::cli {

namespace {

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

Result<std::vector<store::ImportItem>> read_items(std::istream& input) {
  std::vector<store::ImportItem> items;
  std::string text;
  int line = 0;
  while (std::getline(input, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (is_blank(text)) continue;
    auto record = decode_import_line(text);
    if (auto* bad = api::failed(record)) {
      return failure("line " + std::to_string(line) + ": " + bad->message);
    }
    items.push_back({.line = line, .record = std::get<ImportRecord>(std::move(record))});
  }
  if (input.bad()) return failure("reading the import input failed");
  return items;
}

Result<std::vector<store::ImportItem>> read_file(const std::string& path) {
  if (path == "-") return read_items(std::cin);
  std::ifstream file(path, std::ios::binary);
  if (!file) return failure("cannot open " + path + ": " + std::strerror(errno));
  return read_items(file);
}

boost::json::object counts_json(const store::ImportCounts& counts) {
  return {{"conversations", counts.conversations},
          {"contacts", counts.contacts},
          {"leads", counts.leads},
          {"messages", counts.messages}};
}

std::optional<Failure> import_file(const Invocation& in) {
  auto store = open_store(in.args);
  if (auto* f = std::get_if<Failure>(&store)) return *f;
  auto ws = existing_workspace(*std::get<0>(store), in.args);
  if (auto* f = std::get_if<Failure>(&ws)) return *f;
  auto items = read_file(in.args.positionals().front());
  if (auto* f = std::get_if<Failure>(&items)) return *f;

  store::ImportCounts counts;
  const auto& batch = std::get<std::vector<store::ImportItem>>(items);
  if (!batch.empty()) {
    auto outcome = std::get<0>(store)->imports().apply(std::get<domain::WorkspaceId>(ws), batch);
    if (auto* failed = std::get_if<store::ImportFailure>(&outcome)) {
      return failure("line " + std::to_string(failed->line) + ": " + failed->message);
    }
    counts = std::get<store::ImportCounts>(outcome);
  }
  in.out.emit({.headline = "Imported.", .data = counts_json(counts)});
  return std::nullopt;
}

}  // namespace

std::vector<Command> import_commands() {
  return {
      {{.name = "import",
        .summary = "Import leads, contacts and conversations from a JSON Lines file.",
        .options = {workspace_option()},
        .positionals = {{.name = "FILE", .help = "JSON Lines file, or - for stdin"}},
        .details =
            "One JSON object per line with \"type\": \"lead\", \"contact\" or \"conversation\";\n"
            "blank lines are skipped. Leads and contacts take the fields of the API's create\n"
            "operations plus created_at (leads also lead_score). A conversation takes source,\n"
            "status, tags, created_at, visitor (a contact, matched by e-mail), agent_id,\n"
            "department_id and messages (sender_type, content, attachments, status, created_at,\n"
            "sender_name). A bad line is reported as \"line N: ...\" and nothing is imported."},
       import_file},
  };
}

}  // namespace leadline::cli
