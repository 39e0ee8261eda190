// The paging, sorting and search parameters shared by every list endpoint, decoded and checked
// against the list rules of docs/api.md ("Lists: paging, sorting, search").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "api/cursor_codec.hpp"
#include "api/decoded.hpp"
#include "api/query_params.hpp"
#include "store/list_query.hpp"

namespace leadline::api {

inline constexpr int kDefaultLimit = 50;
inline constexpr int kMaxLimit = 100;

struct CommonListParams {
  int limit = kDefaultLimit;
  std::optional<std::string_view> cursor;
  std::int64_t page = 0;      // 0 = not given
  std::string search_folded;  // empty = no search
};

Decoded<CommonListParams> decode_common_list_params(const QueryParams& query);

// A filter value that must be non-empty when given (stage, status, tag).
Decoded<std::optional<std::string_view>> non_empty_param(const QueryParams& query,
                                                         std::string_view name);

// updated_since (inclusive) and updated_before (exclusive), each a timestamp in the record
// format; before must be later than since.
Decoded<store::UpdatedWindow> decode_updated_window(const QueryParams& query);

// What a window adds to a list's cursor binding: nothing without one, so that cursors issued
// before windows existed stay valid, else both bounds (an absent one as empty).
std::string updated_window_binding(const store::UpdatedWindow& window);

// Sort "field", "field:asc" or "field:desc" against an endpoint's allowed fields.
template <class Field, std::size_t N>
Decoded<store::SortSpec<Field>> decode_sort(
    const QueryParams& query, const std::array<std::pair<std::string_view, Field>, N>& allowed,
    Field default_field);

template <class Field, std::size_t N>
std::string_view sort_field_name(const std::array<std::pair<std::string_view, Field>, N>& allowed,
                                 Field field) {
  for (const auto& [name, f] : allowed) {
    if (f == field) return name;
  }
  return {};
}

// Resolves the page position: cursor (decoded under `binding`) or page offset.
Decoded<store::PageRequest> decode_page(const CommonListParams& params, const CursorCodec& codec,
                                        std::string_view binding);

// --- template definition ---
Decoded<store::SortDirection> decode_sort_direction(std::string_view direction);

template <class Field, std::size_t N>
Decoded<store::SortSpec<Field>> decode_sort(
    const QueryParams& query, const std::array<std::pair<std::string_view, Field>, N>& allowed,
    Field default_field) {
  const auto value = query.get("sort");
  if (!value) return store::SortSpec<Field>{default_field, store::SortDirection::kDesc};
  if (value->empty()) return BadRequest{"sort must not be empty"};
  const std::size_t colon = value->find(':');
  const std::string_view name = value->substr(0, colon);
  store::SortSpec<Field> spec{default_field, store::SortDirection::kAsc};
  bool found = false;
  for (const auto& [n, f] : allowed) {
    if (n == name) {
      spec.field = f;
      found = true;
    }
  }
  if (!found) {
    std::string names;
    for (const auto& [n, f] : allowed) names.append(names.empty() ? "" : ", ").append(n);
    return BadRequest{"sort field '" + std::string(name) +
                      "' is not allowed; use one of: " + names};
  }
  if (colon != std::string_view::npos) {
    auto dir = decode_sort_direction(value->substr(colon + 1));
    if (auto* e = failed(dir)) return *e;
    spec.direction = std::get<store::SortDirection>(dir);
  }
  return spec;
}

}  // namespace leadline::api
