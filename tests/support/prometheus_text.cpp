// Hand-written parser: enough of the format to catch what a broken exposition looks like.
#include "support/prometheus_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace leadline_test {

namespace {

bool valid_name(const std::string& name, bool allow_colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (allow_colon && c == ':');
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::optional<double> parse_value(const std::string& text) {
  if (text == "+Inf") return INFINITY;
  if (text == "-Inf") return -INFINITY;
  if (text == "NaN") return NAN;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

bool parse_sample(const std::string& line, PromSample& sample, std::string& error) {
  std::size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  sample.name = line.substr(0, i);
  if (!valid_name(sample.name, true)) {
    error = "bad metric name in: " + line;
    return false;
  }
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (i < line.size() && line[i] != '}') {
      const std::size_t eq = line.find('=', i);
      if (eq == std::string::npos) {
        error = "label without '=' in: " + line;
        return false;
      }
      const std::string label = line.substr(i, eq - i);
      if (!valid_name(label, false) || eq + 1 >= line.size() || line[eq + 1] != '"') {
        error = "bad label in: " + line;
        return false;
      }
      std::string value;
      std::size_t j = eq + 2;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size()) {
          ++j;
          value += line[j] == 'n' ? '\n' : line[j];
        } else {
          value += line[j];
        }
      }
      if (j >= line.size()) {
        error = "unterminated label value in: " + line;
        return false;
      }
      sample.labels[label] = value;
      i = j + 1;
      if (i < line.size() && line[i] == ',') ++i;
    }
    if (i >= line.size()) {
      error = "unterminated labels in: " + line;
      return false;
    }
    ++i;
  }
  if (i >= line.size() || line[i] != ' ') {
    error = "no value in: " + line;
    return false;
  }
  std::istringstream rest(line.substr(i + 1));
  std::string value_text, timestamp, extra;
  rest >> value_text >> timestamp >> extra;
  const auto value = parse_value(value_text);
  if (!value || !extra.empty()) {
    error = "bad value in: " + line;
    return false;
  }
  sample.value = *value;
  return true;
}

std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  if (types.count(name)) return name;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      const std::string base = name.substr(0, name.size() - s.size());
      if (types.count(base)) return base;
    }
  }
  return {};
}

std::string series_key(const PromSample& sample) {
  std::string key;
  for (const auto& [name, value] : sample.labels) {
    if (name != "le") key += name + "=" + value + ",";
  }
  return key;
}

}  // namespace

std::optional<double> PromPage::value(const std::string& name,
                                      const std::map<std::string, std::string>& labels) const {
  for (const auto& sample : samples) {
    if (sample.name == name && sample.labels == labels) return sample.value;
  }
  return std::nullopt;
}

std::optional<PromPage> parse_prometheus(const std::string& text, std::string& error) {
  PromPage page;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      std::istringstream words(line);
      std::string hash, kind, name, type;
      words >> hash >> kind >> name;
      if (kind == "TYPE") {
        words >> type;
        static const std::vector<std::string> kTypes = {"counter", "gauge", "histogram", "summary",
                                                        "untyped"};
        if (!valid_name(name, true) ||
            std::find(kTypes.begin(), kTypes.end(), type) == kTypes.end()) {
          error = "bad TYPE line: " + line;
          return std::nullopt;
        }
        page.types[name] = type;
      }
      continue;
    }
    PromSample sample;
    if (!parse_sample(line, sample, error)) return std::nullopt;
    if (family_of(sample.name, page.types).empty()) {
      error = "sample without a TYPE line: " + line;
      return std::nullopt;
    }
    page.samples.push_back(std::move(sample));
  }

  // Histograms: per series, buckets ascending by le, counts non-decreasing, +Inf == _count.
  for (const auto& [family, type] : page.types) {
    if (type != "histogram") continue;
    std::map<std::string, std::vector<std::pair<double, double>>> buckets;
    std::map<std::string, double> counts;
    for (const auto& s : page.samples) {
      if (s.name == family + "_bucket") {
        auto le = s.labels.find("le");
        if (le == s.labels.end()) {
          error = family + "_bucket without le";
          return std::nullopt;
        }
        buckets[series_key(s)].emplace_back(*parse_value(le->second), s.value);
      } else if (s.name == family + "_count") {
        counts[series_key(s)] = s.value;
      }
    }
    for (const auto& [series, list] : buckets) {
      for (std::size_t i = 1; i < list.size(); ++i) {
        if (!(list[i].first > list[i - 1].first) || list[i].second < list[i - 1].second) {
          error = family + "{" + series + "}: buckets out of order or decreasing";
          return std::nullopt;
        }
      }
      if (list.empty() || !std::isinf(list.back().first)) {
        error = family + "{" + series + "}: no +Inf bucket";
        return std::nullopt;
      }
      if (!counts.count(series) || counts[series] != list.back().second) {
        error = family + "{" + series + "}: _count differs from the +Inf bucket";
        return std::nullopt;
      }
    }
  }
  return page;
}

}  // namespace leadline_test
