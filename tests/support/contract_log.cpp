// One file per test process, opened once and appended with one write per response, so the
// suites running in parallel never interleave lines.
#include "support/contract_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <string>

namespace leadline_test {

namespace {

int log_fd() {
  static const int fd = [] {
    const char* dir = std::getenv("LEADLINE_CONTRACT_LOG_DIR");
    if (!dir || !*dir) return -1;
    const std::string path =
        std::string(dir) + "/responses-" + std::to_string(::getpid()) + ".jsonl";
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }();
  return fd;
}

}  // namespace

void record_for_contract_check(std::string_view method, std::string_view target,
                               const HttpResponse& response) {
  const int fd = log_fd();
  if (fd < 0) return;
  boost::json::object headers;
  for (const auto& [name, value] : response.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    headers[lower] = value;
  }
  boost::json::object line{{"method", method},
                           {"path", target},
                           {"status", response.status},
                           {"content_type", response.header("Content-Type")},
                           {"headers", std::move(headers)},
                           {"body", response.body}};
  std::string text = boost::json::serialize(line);
  text.push_back('\n');
  static std::mutex write_mutex;
  std::lock_guard lock(write_mutex);
  const ssize_t written = ::write(fd, text.data(), text.size());
  (void)written;  // a lost line only shrinks what is checked; the checker reports coverage
}

}  // namespace leadline_test
