// A shell-words reading of just what the README's curl lines use: single and double quotes,
// backslash-newline continuations, $API / $KEY inside double quotes, and -s -X -H -d.
#include "support/readme_examples.hpp"

#include <sstream>
#include <stdexcept>

namespace leadline_test {

namespace {

// Lines of the ```sh blocks, continuation lines joined, comments and blank lines dropped.
std::vector<std::string> shell_lines(const std::string& markdown) {
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  std::string line;
  bool in_sh = false;
  bool in_other_block = false;
  std::string pending;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      if (in_sh || in_other_block) {
        in_sh = in_other_block = false;
      } else if (line == "```sh" || line == "```bash" || line == "```shell") {
        in_sh = true;
      } else {
        in_other_block = true;
      }
      continue;
    }
    if (!in_sh) continue;
    if (!line.empty() && line.back() == '\\') {
      pending += line.substr(0, line.size() - 1) + " ";
      continue;
    }
    line = pending + line;
    pending.clear();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    lines.push_back(line.substr(first));
  }
  return lines;
}

std::string expand(const std::string& text, const std::string& api, const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 4, "$API") == 0) {
      out += api;
      i += 3;
    } else if (text.compare(i, 4, "$KEY") == 0) {
      out += key;
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Shell words: '…' literal, "…" with $API/$KEY expanded, a comment ends the line.
std::vector<std::string> words(const std::string& line, const std::string& api,
                               const std::string& key) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == '\'' || c == '"') {
      const auto end = line.find(c, i + 1);
      if (end == std::string::npos) throw std::runtime_error("unclosed quote in: " + line);
      const std::string quoted = line.substr(i + 1, end - i - 1);
      word += c == '"' ? expand(quoted, api, key) : quoted;
      in_word = true;
      i = end;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

ReadmeExample parse_curl(const std::string& line, const std::vector<std::string>& args) {
  ReadmeExample example;
  example.command = line;
  std::optional<std::string> method;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::runtime_error(a + " without a value in: " + line);
      return args[++i];
    };
    if (a == "-s") continue;
    if (a == "-X") {
      method = value();
    } else if (a == "-H") {
      const std::string& header = value();
      const auto colon = header.find(':');
      if (colon == std::string::npos) throw std::runtime_error("bad -H in: " + line);
      const auto start = header.find_first_not_of(' ', colon + 1);
      example.headers.emplace_back(header.substr(0, colon),
                                   start == std::string::npos ? "" : header.substr(start));
    } else if (a == "-d") {
      example.body = value();
    } else if (a.rfind("-", 0) == 0) {
      throw std::runtime_error("curl option " + a + " is not understood by the test: " + line);
    } else {
      if (!example.url.empty()) throw std::runtime_error("two URLs in: " + line);
      example.url = a;
    }
  }
  if (example.url.empty()) throw std::runtime_error("no URL in: " + line);
  example.method = method ? *method : example.body ? "POST" : "GET";
  return example;
}

}  // namespace

std::vector<ReadmeExample> readme_curl_examples(const std::string& markdown, const std::string& api,
                                                const std::string& key) {
  std::vector<ReadmeExample> examples;
  for (const std::string& line : shell_lines(markdown)) {
    const auto args = words(line, api, key);
    if (!args.empty() && args[0] == "curl") examples.push_back(parse_curl(line, args));
  }
  return examples;
}

}  // namespace leadline_test
