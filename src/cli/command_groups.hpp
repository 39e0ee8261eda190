// The subcommands of `leadline`, one function per command group, collected by command_line.cpp.
#pragma once

#include <vector>

#include "cli/command.hpp"

namespace leadline::cli {

std::vector<Command> serve_commands();       // serve
std::vector<Command> workspaces_commands();  // workspaces create|list
std::vector<Command> keys_commands();        // keys create|list|revoke|usage
std::vector<Command> people_commands();      // reps add, agents add, departments add
std::vector<Command> import_commands();      // import
std::vector<Command> users_commands();       // users add|list|reset|remove

}  // namespace leadline::cli
