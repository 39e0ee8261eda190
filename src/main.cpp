// Entry point of the `leadline` binary: everything lives in the operator command layer.
#include "cli/command_line.hpp"

int main(int argc, char** argv) {
  return leadline::cli::run(argc, argv);
}
