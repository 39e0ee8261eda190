// The curl examples of README.md's shell code blocks as requests, so that a test can run every
// one of them against a server and breaks when the README gains an example that shows nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "support/http_client.hpp"

namespace leadline_test {

struct ReadmeExample {
  std::string command;              // as written (continuation lines joined), for failure messages
  std::string method;               // -X, else GET (POST when -d is given)
  std::string url;                  // with $API and $KEY already replaced
  Headers headers;                  // -H, with $KEY replaced
  std::optional<std::string> body;  // -d
};

// Every `curl` command in the ```sh blocks of the Markdown text; `api` replaces $API (such as
// "/api/v1/external", a path the test client can send) and `key` replaces $KEY. Throws
// std::runtime_error on a curl option it does not know, so that nothing is silently skipped.
std::vector<ReadmeExample> readme_curl_examples(const std::string& markdown, const std::string& api,
                                                const std::string& key);

}  // namespace leadline_test
