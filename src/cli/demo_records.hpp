// The fixed content of the demo workspace: people, departments, and the leads, contacts and
// conversations handed to the store's import. Deterministic apart from being relative to "now".
#pragma once

#include <string>
#include <vector>

#include "domain/records.hpp"
#include "store/database.hpp"

namespace leadline::cli {

std::vector<domain::Person> demo_reps();
std::vector<domain::Person> demo_agents();
std::vector<std::string> demo_departments();

// ~30 leads, ~30 contacts and ~20 conversations with 2-6 messages each, spread over the 30
// days before `now`; conversations use the given agents and departments.
std::vector<store::ImportItem> demo_import_items(
    domain::Timestamp now, const std::vector<domain::AgentId>& agents,
    const std::vector<domain::DepartmentId>& departments);

}  // namespace leadline::cli
