// QueryParams::parse (Boost.URL decoding) against the hand-written parser it replaced, and
// against splitting with boost::urls::parse_query too, on the query strings list requests send.
#include <benchmark/benchmark.h>

#include <boost/url/parse_query.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/query_params.hpp"
#include "domain/unicode_text.hpp"

namespace {

using Items = std::vector<std::pair<std::string, std::string>>;

// A list page with a cursor (the cursor is as long as the API's), a search, a GET-one.
const std::string kListQuery =
    "stage=qualified&search=m%C3%BCller&sort=-created_at&limit=50&cursor="
    "eyJ2IjoxLCJrIjpbIjIwMjYtMTEtMjZUMDY6MDA6MDAuMTIzWiIsIjAxOTBhYmMwLTAwMDAtNzAwMC04MDAwIl19."
    "c2lnbmF0dXJl";
const std::string kSearchQuery = "search=M%C3%BCller+GmbH&limit=20";
const std::string kIdQuery = "id=019abc00-0000-7000-8000-000000000001";

// The parser of src/api/query_params.cpp before it used Boost.URL, kept verbatim.
namespace hand_written {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      const int hi = hex_digit(in[i + 1]);
      const int lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool has(const Items& items, std::string_view name) {
  for (const auto& [k, v] : items) {
    if (k == name) return true;
  }
  return false;
}

std::optional<Items> parse(std::string_view query) {
  Items items;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) {
      if (end == query.size()) break;
      continue;
    }
    const std::size_t eq = pair.find('=');
    auto name = percent_decode(pair.substr(0, eq));
    auto value =
        percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
    if (!name || !value) return std::nullopt;
    if (!leadline::domain::is_valid_utf8(*name) || !leadline::domain::is_valid_utf8(*value)) {
      return std::nullopt;
    }
    if (has(items, *name)) return std::nullopt;
    items.emplace_back(std::move(*name), std::move(*value));
  }
  return items;
}

}  // namespace hand_written

// What splitting with the library as well would cost (it refuses raw UTF-8 and other bytes the
// API accepts, so the product does not split this way).
std::optional<Items> parse_strict(std::string_view query) {
  const auto params = boost::urls::parse_query(query);
  if (!params) return std::nullopt;
  Items items;
  const boost::urls::encoding_opts form(/*space_as_plus=*/true);
  for (const auto param : *params) {
    if (param.key.empty() && !param.has_value) continue;
    std::string name = param.key.decode(form);
    std::string value = param.value.decode(form);
    if (!leadline::domain::is_valid_utf8(name) || !leadline::domain::is_valid_utf8(value)) {
      return std::nullopt;
    }
    if (hand_written::has(items, name)) return std::nullopt;
    items.emplace_back(std::move(name), std::move(value));
  }
  return items;
}

void BM_HandWritten(benchmark::State& state, const std::string& query) {
  for (auto _ : state) benchmark::DoNotOptimize(hand_written::parse(query));
}

void BM_BoostUrlDecode(benchmark::State& state, const std::string& query) {
  for (auto _ : state) benchmark::DoNotOptimize(leadline::api::QueryParams::parse(query));
}

void BM_BoostUrlParseQuery(benchmark::State& state, const std::string& query) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_strict(query));
}

BENCHMARK_CAPTURE(BM_HandWritten, list, kListQuery);
BENCHMARK_CAPTURE(BM_BoostUrlDecode, list, kListQuery);
BENCHMARK_CAPTURE(BM_BoostUrlParseQuery, list, kListQuery);
BENCHMARK_CAPTURE(BM_HandWritten, search, kSearchQuery);
BENCHMARK_CAPTURE(BM_BoostUrlDecode, search, kSearchQuery);
BENCHMARK_CAPTURE(BM_BoostUrlParseQuery, search, kSearchQuery);
BENCHMARK_CAPTURE(BM_HandWritten, id, kIdQuery);
BENCHMARK_CAPTURE(BM_BoostUrlDecode, id, kIdQuery);
BENCHMARK_CAPTURE(BM_BoostUrlParseQuery, id, kIdQuery);

}  // namespace
