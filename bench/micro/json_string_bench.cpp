// The one JSON string escaper (json_text::append_string, eight bytes at a time) against a
// byte-at-a-time loop like those it replaced and against Boost.JSON's serializer, on the strings
// an API page is made of.
#include <benchmark/benchmark.h>

#include <boost/json/serialize.hpp>
#include <boost/json/serializer.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "json_text/json_text.hpp"

namespace {

const std::string kName = "Zo\xc3\xab M\xc3\xbcller";
const std::string kEmail = "zoe.mueller@example.com";
const std::string kSummary =
    "Wants a quote for 40 seats of the enterprise plan, billed yearly; asked whether the "
    "onboarding workshop can be held in German and whether single sign-on through their "
    "existing identity provider is included. Call back after the budget meeting on Thursday.";
const std::string kSummaryWithNewline = kSummary.substr(0, 120) + "\n" + kSummary.substr(120);

// As store/json_string_array.cpp and observability/logger.cpp escaped, one byte at a time.
void append_bytewise(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      out += "\\u00";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0x0F]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

void append_boost_serialize(std::string& out, std::string_view s) {
  out += boost::json::serialize(boost::json::string_view(s.data(), s.size()));
}

// Drains `serializer` (reset to `s`) straight into the output, without serialize()'s temporary.
void drain(boost::json::serializer& serializer, std::string& out, std::string_view s) {
  serializer.reset(boost::json::string_view(s.data(), s.size()));
  while (!serializer.done()) {
    const std::size_t at = out.size();
    out.resize(at + s.size() + 64);
    const auto written = serializer.read(out.data() + at, s.size() + 64);
    out.resize(at + written.size());
  }
}

// Boost.JSON's serializer writing straight into the output.
void append_boost_serializer(std::string& out, std::string_view s) {
  boost::json::serializer serializer;
  drain(serializer, out, s);
}

// The same with one serializer kept for every string, as a writer would keep it.
void append_boost_serializer_kept(std::string& out, std::string_view s) {
  static thread_local boost::json::serializer serializer;
  drain(serializer, out, s);
}

using Append = void (*)(std::string&, std::string_view);

// The strings of one list page: 50 leads, each with its id, names, e-mail, phone, stage, source,
// summary and two tags.
std::vector<std::string> page_strings() {
  std::vector<std::string> strings;
  for (int i = 0; i < 50; ++i) {
    const std::string n = std::to_string(i);
    const std::string summary = i % 5 == 0 ? kSummaryWithNewline : kSummary;
    for (const std::string& s : std::vector<std::string>{
             "0190abc0-0000-7000-8000-0000000000" + n, kName + n, "Acme Industries GmbH", kEmail,
             "+49 30 1234567" + n, "qualified", "website", summary, "enterprise", "q4-campaign"}) {
      strings.push_back(s);
    }
  }
  return strings;
}

void BM_EscapePage(benchmark::State& state, Append append) {
  const std::vector<std::string> strings = page_strings();
  std::string out;
  for (auto _ : state) {
    out.clear();
    for (const auto& s : strings) append(out, s);
    benchmark::DoNotOptimize(out.data());
  }
}

BENCHMARK_CAPTURE(BM_EscapePage, eight_bytes, leadline::json_text::append_string);
BENCHMARK_CAPTURE(BM_EscapePage, bytewise, append_bytewise);
BENCHMARK_CAPTURE(BM_EscapePage, boost_serialize, append_boost_serialize);
BENCHMARK_CAPTURE(BM_EscapePage, boost_serializer, append_boost_serializer);
BENCHMARK_CAPTURE(BM_EscapePage, boost_serializer_kept, append_boost_serializer_kept);

void BM_Escape(benchmark::State& state, Append append, const std::string& text) {
  std::string out;
  for (auto _ : state) {
    out.clear();
    append(out, text);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

#define ESCAPERS(label, text)                                                                  \
  BENCHMARK_CAPTURE(BM_Escape, label##_eight_bytes, leadline::json_text::append_string, text); \
  BENCHMARK_CAPTURE(BM_Escape, label##_bytewise, append_bytewise, text);                       \
  BENCHMARK_CAPTURE(BM_Escape, label##_boost_serialize, append_boost_serialize, text);         \
  BENCHMARK_CAPTURE(BM_Escape, label##_boost_serializer, append_boost_serializer, text);       \
  BENCHMARK_CAPTURE(BM_Escape, label##_boost_serializer_kept, append_boost_serializer_kept, text)

ESCAPERS(name, kName);
ESCAPERS(email, kEmail);
ESCAPERS(summary, kSummary);
ESCAPERS(summary_newline, kSummaryWithNewline);

}  // namespace
