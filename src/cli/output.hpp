// The one place that decides between --json (exactly one JSON value on stdout) and the
// readable form an operator sees in a terminal.
#pragma once

#include <boost/json/value.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace leadline::cli {

struct Report {
  std::string headline{};            // human form only, first line; may be empty
  boost::json::value data{};         // the --json value, also the body of the human form
  std::vector<std::string> notes{};  // human form only, after the body
  bool human_body = true;            // false: headline and notes alone say it for humans
};

class Output {
 public:
  Output(bool json, std::ostream& stream) : json_(json), stream_(stream) {}

  bool json() const { return json_; }
  // Writes the report and flushes, so that a waiting reader (a test, a pipe) sees it at once.
  void emit(const Report& report);

 private:
  bool json_;
  std::ostream& stream_;
};

// Objects become aligned "key  value" lines, arrays of objects become tables, null becomes "-".
std::string render_human(const boost::json::value& value);

// Compact JSON with doubles written as the API writes them ("0.2", "1"), not as Boost.JSON's
// serializer does ("2E-1", "1E0").
std::string render_json(const boost::json::value& value);

}  // namespace leadline::cli
