// A strict reader of the Prometheus text exposition format 0.0.4 for the black-box tests: it
// rejects malformed lines and inconsistent histograms, and looks samples up by name and labels.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace leadline_test {

struct PromSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

struct PromPage {
  std::map<std::string, std::string> types;  // family name -> counter, gauge, histogram, ...
  std::vector<PromSample> samples;

  // The value of the sample with exactly this name and these labels; nothing when absent.
  std::optional<double> value(const std::string& name,
                              const std::map<std::string, std::string>& labels = {}) const;
};

// Parses `text`; on a format error returns nothing and says why in `error`. Checks: every line
// is a comment, blank, or `name{labels} value`; names and label names are valid; every sample
// belongs to a family with a TYPE; each histogram series has ascending `le` buckets ending with
// +Inf, non-decreasing counts, and _count equal to the +Inf bucket.
std::optional<PromPage> parse_prometheus(const std::string& text, std::string& error);

}  // namespace leadline_test
