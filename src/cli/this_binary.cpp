// The binary is located through /proc/self/exe, not argv[0]: argv[0] is whatever the parent
// chose (a bare name PATH resolved, a path relative to the parent's directory at exec time, or
// anything `exec -a` set), while /proc/self/exe is the file the kernel runs. It is then said
// relative to the working directory, as `make run` users type it (`./build/leadline`).
#include "cli/this_binary.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

namespace leadline::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kName = "leadline";

std::optional<fs::path> own_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return std::nullopt;
  // A binary replaced by a rebuild while it runs is still the one to run, under its path.
  std::string text = exe.string();
  constexpr std::string_view kDeleted = " (deleted)";
  if (text.ends_with(kDeleted)) text.erase(text.size() - kDeleted.size());
  return fs::path(text);
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

bool found_on_path_as_itself(const fs::path& exe) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string_view dirs(path);
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
    // An empty entry means the working directory, which the relative form covers already.
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / kName;
    std::error_code ec;
    if (fs::exists(candidate, ec)) return same_file(candidate, exe);  // the first hit runs
  }
  return false;
}

std::string shell_quoted(const std::string& word) {
  const bool plain = word.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_./-+,:@%") == std::string::npos;
  if (plain && !word.empty()) return word;
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

std::string command_to_run_this_binary() {
  const auto exe = own_executable();
  if (!exe) return std::string(kName);
  if (exe->filename() == kName && found_on_path_as_itself(*exe)) return std::string(kName);
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec) {
    const fs::path relative = exe->lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..") {
      return shell_quoted("./" + relative.string());
    }
  }
  return shell_quoted(exe->string());
}

}  // namespace leadline::cli
