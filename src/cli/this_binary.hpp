// How an operator's shell, in the server's working directory, runs this very binary again: what
// the commands that `serve` suggests (such as `keys create`) must start with.
#pragma once

#include <string>

namespace leadline::cli {

// "leadline" when PATH finds this binary under that name, "./build/leadline" when it lies under
// the working directory, else its absolute path; quoted for a POSIX shell when needed.
std::string command_to_run_this_binary();

}  // namespace leadline::cli
