// The `leadline` operator command: picks the subcommand named on the command line and runs it.
#pragma once

namespace leadline::cli {

// Returns the process exit code: 0 success, 1 failure, 2 usage error. Never throws.
int run(int argc, char** argv);

}  // namespace leadline::cli
