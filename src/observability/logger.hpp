// The process's one logger: structured lines (JSON or key=value text) on stderr, each written
// with a single write(2) so that lines from worker threads never interleave, and formatted
// without any lock held.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace leadline::observability {

enum class Level { kDebug, kInfo, kWarn, kError };
enum class LogFormat { kText, kJson };

std::optional<Level> parse_level(std::string_view text);  // "debug", "info", "warn", "error"
std::optional<LogFormat> parse_log_format(std::string_view text);  // "json", "text"

// One field of a line. Text values are copied into the line as they are (escaped for JSON,
// quoted for text when they hold spaces or quotes); numbers are written unquoted.
struct Field {
  std::string_view key;
  std::variant<std::string_view, std::int64_t, double> value;
};

class Logger {
 public:
  explicit Logger(LogFormat format = LogFormat::kText, Level min_level = Level::kInfo, int fd = 2);

  bool enabled(Level level) const { return level >= min_level_; }

  // Writes one line `time level msg fields...` when `level` is enabled.
  void log(Level level, std::string_view msg, std::initializer_list<Field> fields = {}) const;

  // The line log() would write, without its newline (for tests and tools).
  std::string format(Level level, std::string_view msg, std::initializer_list<Field> fields) const;

  // Text on stderr at info: what components use when nobody gave them a logger.
  static const Logger& fallback();

 private:
  LogFormat format_;
  Level min_level_;
  int fd_;
};

}  // namespace leadline::observability
