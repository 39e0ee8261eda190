// Writers for the Prometheus text exposition format 0.0.4: HELP/TYPE lines, samples with
// escaped label values, and histograms as _bucket/_sum/_count series.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "observability/histogram.hpp"

namespace leadline::observability {

inline constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4";

using Label = std::pair<std::string_view, std::string_view>;

// "# HELP name help" and "# TYPE name type" (type: counter, gauge, histogram).
void write_family(std::string& out, std::string_view name, std::string_view help,
                  std::string_view type);

void write_sample(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                  double value);
void write_sample(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                  std::uint64_t value);

// name_bucket{labels...,le="…"} for every bound and +Inf, then name_sum and name_count.
void write_histogram(std::string& out, std::string_view name, std::initializer_list<Label> labels,
                     const Histogram::Snapshot& snapshot);

}  // namespace leadline::observability
