// Label values are escaped as the format requires (backslash, double quote, newline).
#include "observability/prometheus_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace leadline::observability {

namespace {

void append_labels(std::string& out, std::initializer_list<Label> labels,
                   std::string_view le = {}) {
  if (labels.size() == 0 && le.empty()) return;
  out += '{';
  bool first = true;
  auto append = [&](std::string_view name, std::string_view value) {
    if (!first) out += ',';
    first = false;
    out += name;
    out += "=\"";
    for (const char c : value) {
      if (c == '\\' || c == '"') {
        out += '\\';
        out += c;
      } else if (c == '\n') {
        out += "\\n";
      } else {
        out += c;
      }
    }
    out += '"';
  };
  for (const auto& [name, value] : labels) append(name, value);
  if (!le.empty()) append("le", le);
  out += '}';
}

std::string number_text(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::isnan(value)) return "NaN";
  // The shortest text that reads back as the same double.
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

}  // namespace

void write_family(std::string& out, std::string_view name, std::string_view help,
                  std::string_view type) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void write_sample(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                  double value) {
  out += name;
  append_labels(out, labels);
  out.append(" ").append(number_text(value)).append("\n");
}

void write_sample(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                  std::uint64_t value) {
  out += name;
  append_labels(out, labels);
  out.append(" ").append(std::to_string(value)).append("\n");
}

void write_histogram(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                     const Histogram::Snapshot& snapshot) {
  const std::string bucket = std::string(name) + "_bucket";
  for (std::size_t i = 0; i < snapshot.cumulative.size(); ++i) {
    char bound[32] = "+Inf";
    if (i < Histogram::kBounds.size())
      std::snprintf(bound, sizeof bound, "%g", Histogram::kBounds[i]);
    out += bucket;
    append_labels(out, labels, bound);
    out.append(" ").append(std::to_string(snapshot.cumulative[i])).append("\n");
  }
  write_sample(out, std::string(name) + "_sum", labels, snapshot.sum_seconds);
  write_sample(out, std::string(name) + "_count", labels, snapshot.count());
}

}  // namespace leadline::observability
