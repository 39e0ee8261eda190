// Line formatting and the single write per line.
#include "observability/logger.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "json_text/json_text.hpp"

namespace leadline::observability {

namespace {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarn:
      return "warn";
    case Level::kError:
      break;
  }
  return "error";
}

// RFC 3339 UTC with milliseconds, like the API's timestamps: 2026-11-26T06:00:00.123Z.
void append_now(std::string& out) {
  const auto now = std::chrono::system_clock::now();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch());
  const std::time_t seconds = static_cast<std::time_t>(ms.count() / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  const int n = std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                              utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                              utc.tm_min, utc.tm_sec, static_cast<int>(ms.count() % 1000));
  out.append(text, static_cast<std::size_t>(n));
}

// Text values stay bare when that is unambiguous, else they are quoted like JSON strings.
void append_text_value(std::string& out, std::string_view text) {
  bool bare = !text.empty();
  for (const char c : text) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == '"' || c == '=' || c == '\\') bare = false;
  }
  if (bare) {
    out += text;
  } else {
    json_text::append_string(out, text);
  }
}

void append_number(std::string& out, const Field& field) {
  char text[32];
  int n = 0;
  if (const auto* i = std::get_if<std::int64_t>(&field.value)) {
    n = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(*i));
  } else {
    n = std::snprintf(text, sizeof text, "%.3f", std::get<double>(field.value));
  }
  out.append(text, static_cast<std::size_t>(n));
}

void write_all(int fd, const std::string& line) {
  // One write for the whole line; a short write (a full pipe) continues where it stopped.
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // nowhere left to report a failing log
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::optional<Level> parse_level(std::string_view text) {
  if (text == "debug") return Level::kDebug;
  if (text == "info") return Level::kInfo;
  if (text == "warn") return Level::kWarn;
  if (text == "error") return Level::kError;
  return std::nullopt;
}

std::optional<LogFormat> parse_log_format(std::string_view text) {
  if (text == "json") return LogFormat::kJson;
  if (text == "text") return LogFormat::kText;
  return std::nullopt;
}

Logger::Logger(LogFormat format, Level min_level, int fd)
    : format_(format), min_level_(min_level), fd_(fd) {}

std::string Logger::format(Level level, std::string_view msg,
                           std::initializer_list<Field> fields) const {
  std::string line;
  line.reserve(256);
  if (format_ == LogFormat::kJson) {
    line += R"({"time":")";
    append_now(line);
    line += R"(","level":")";
    line += level_name(level);
    line += R"(","msg":)";
    json_text::append_string(line, msg);
    for (const Field& field : fields) {
      line += ',';
      json_text::append_string(line, field.key);
      line += ':';
      if (const auto* text = std::get_if<std::string_view>(&field.value)) {
        json_text::append_string(line, *text);
      } else {
        append_number(line, field);
      }
    }
    line += '}';
  } else {
    append_now(line);
    line += " level=";
    line += level_name(level);
    line += " msg=";
    append_text_value(line, msg);
    for (const Field& field : fields) {
      line += ' ';
      line += field.key;
      line += '=';
      if (const auto* text = std::get_if<std::string_view>(&field.value)) {
        append_text_value(line, *text);
      } else {
        append_number(line, field);
      }
    }
  }
  return line;
}

void Logger::log(Level level, std::string_view msg, std::initializer_list<Field> fields) const {
  if (!enabled(level)) return;
  std::string line = format(level, msg, fields);
  line += '\n';
  write_all(fd_, line);
}

const Logger& Logger::fallback() {
  static const Logger logger;
  return logger;
}

}  // namespace leadline::observability
