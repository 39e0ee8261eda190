// limit clamps above 100 (Stripe-like leniency) but rejects nonsense; page and cursor exclude
// each other.
#include "api/list_params.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "domain/timestamp.hpp"
#include "domain/unicode_text.hpp"

namespace leadline::api {

namespace {

constexpr std::size_t kMaxSearchLength = 200;

// Parses a run of ASCII digits; saturates at INT64_MAX. Nothing when not all digits.
std::optional<std::int64_t> parse_whole_number(std::string_view s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    if (v > (INT64_MAX - 9) / 10) {
      v = INT64_MAX;
    } else {
      v = v * 10 + (c - '0');
    }
  }
  return v;
}

Decoded<std::optional<domain::Timestamp>> record_timestamp_param(const QueryParams& query,
                                                                 std::string_view name) {
  const auto text = query.get(name);
  if (!text) return std::optional<domain::Timestamp>();
  auto t = domain::parse_record_timestamp(*text);
  if (!t) {
    return BadRequest{std::string(name) +
                      " must be a timestamp in the record format YYYY-MM-DDTHH:MM:SS.mmmZ"};
  }
  return t;
}

}  // namespace

Decoded<store::UpdatedWindow> decode_updated_window(const QueryParams& query) {
  auto since = record_timestamp_param(query, "updated_since");
  if (auto* e = failed(since)) return *e;
  auto before = record_timestamp_param(query, "updated_before");
  if (auto* e = failed(before)) return *e;
  store::UpdatedWindow window{std::get<std::optional<domain::Timestamp>>(since),
                              std::get<std::optional<domain::Timestamp>>(before)};
  if (window.since && window.before && *window.before <= *window.since) {
    return BadRequest{"updated_before must be later than updated_since"};
  }
  return window;
}

std::string updated_window_binding(const store::UpdatedWindow& window) {
  if (window.empty()) return {};
  const auto bound = [](const std::optional<domain::Timestamp>& t) {
    return t ? std::to_string(t->unix_ms) : std::string();
  };
  // Two more parts after cursor_binding's.
  return kBindingSeparator + ("since=" + bound(window.since)) + kBindingSeparator +
         "before=" + bound(window.before);
}

Decoded<store::SortDirection> decode_sort_direction(std::string_view direction) {
  if (direction == "asc") return store::SortDirection::kAsc;
  if (direction == "desc") return store::SortDirection::kDesc;
  return BadRequest{"sort direction must be 'asc' or 'desc'"};
}

Decoded<std::optional<std::string_view>> non_empty_param(const QueryParams& query,
                                                         std::string_view name) {
  auto value = query.get(name);
  if (value && value->empty()) return BadRequest{std::string(name) + " must not be empty"};
  return value;
}

Decoded<CommonListParams> decode_common_list_params(const QueryParams& query) {
  CommonListParams params;
  if (auto limit = query.get("limit")) {
    if (limit->empty()) return BadRequest{"limit must not be empty"};
    auto n = parse_whole_number(*limit);
    if (!n || *n < 1) {
      const std::string max = std::to_string(kMaxLimit);
      return BadRequest{"limit must be an integer of at least 1 (values above " + max +
                        " are treated as " + max + ")"};
    }
    params.limit = *n > kMaxLimit ? kMaxLimit : static_cast<int>(*n);
  }
  if (auto page = query.get("page")) {
    if (page->empty()) return BadRequest{"page must not be empty"};
    auto n = parse_whole_number(*page);
    if (!n || *n < 1) return BadRequest{"page must be an integer of at least 1"};
    if (*n > 1'000'000'000) return BadRequest{"page must be at most 1000000000"};
    params.page = *n;
  }
  if (auto cursor = query.get("cursor")) {
    if (cursor->empty()) return BadRequest{"cursor must not be empty"};
    if (params.page != 0) return BadRequest{"page and cursor cannot be used together"};
    params.cursor = cursor;
  }
  if (auto search = query.get("search"); search && !search->empty()) {
    // No record field is searched for control characters; a needle with one is a client bug.
    const bool has_control = std::any_of(search->begin(), search->end(), [](char c) {
      const auto byte = static_cast<unsigned char>(c);
      return byte < 0x20 || byte == 0x7f;
    });
    if (has_control) {
      return BadRequest{"search must not contain control characters (U+0000 to U+001F, U+007F)"};
    }
    if (domain::code_point_count(*search) > kMaxSearchLength) {
      return BadRequest{"search must be at most 200 characters"};
    }
    params.search_folded = domain::case_fold(*search);
  }
  return params;
}

Decoded<store::PageRequest> decode_page(const CommonListParams& params, const CursorCodec& codec,
                                        std::string_view binding) {
  store::PageRequest page;
  page.limit = params.limit;
  if (params.cursor) {
    auto position = codec.decode(*params.cursor, binding);
    if (auto* e = failed(position)) return *e;
    page.after = std::move(std::get<store::KeysetPosition>(position));
  } else if (params.page > 1) {
    page.offset = (params.page - 1) * params.limit;
  }
  return page;
}

}  // namespace leadline::api
