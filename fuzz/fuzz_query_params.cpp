// Fuzzes list query strings: bytes -> QueryParams::parse -> the shared list parameters, each
// endpoint's sort, the filter values and the page position, checking the decoded ranges.
#include <array>
#include <string_view>
#include <utility>

#include "api/list_params.hpp"
#include "domain/unicode_text.hpp"
#include "fuzz_check.hpp"

using namespace leadline;
using store::ContactSortField;
using store::ConversationSortField;
using store::LeadSortField;

namespace {

// Same shape as the resources' tables (those live in their .cpp files' anonymous namespaces).
constexpr std::array<std::pair<std::string_view, LeadSortField>, 4> kLeadSorts{{
    {"created_at", LeadSortField::kCreatedAt},
    {"updated_at", LeadSortField::kUpdatedAt},
    {"lead_score", LeadSortField::kLeadScore},
    {"visitor_name", LeadSortField::kVisitorName},
}};
constexpr std::array<std::pair<std::string_view, ContactSortField>, 4> kContactSorts{{
    {"created_at", ContactSortField::kCreatedAt},
    {"last_activity", ContactSortField::kLastActivity},
    {"name", ContactSortField::kName},
    {"email", ContactSortField::kEmail},
}};
constexpr std::array<std::pair<std::string_view, ConversationSortField>, 2> kConversationSorts{{
    {"created_at", ConversationSortField::kCreatedAt},
    {"updated_at", ConversationSortField::kUpdatedAt},
}};

template <class Field, std::size_t N>
void check_sort(const api::QueryParams& query,
                const std::array<std::pair<std::string_view, Field>, N>& table) {
  fuzz::check_decoded(
      api::decode_sort(query, table, Field::kCreatedAt), [&](const store::SortSpec<Field>& spec) {
        const auto name = api::sort_field_name(table, spec.field);
        FUZZ_CHECK(!name.empty(), "decoded sort field is not in the table");
        const auto given = query.get("sort");
        if (!given) {
          FUZZ_CHECK(
              spec.field == Field::kCreatedAt && spec.direction == store::SortDirection::kDesc,
              "the default sort is not created_at:desc");
        } else {
          FUZZ_CHECK(given->starts_with(name), "sort field differs from the text");
        }
      });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = api::QueryParams::parse(fuzz::as_text(data, size));
  if (const auto* e = api::failed(parsed)) {
    fuzz::check_message(*e);
    return 0;
  }
  const auto& query = std::get<api::QueryParams>(parsed);

  // An empty allow-list names the first parameter, if there is one.
  const auto unknown = query.reject_unknown({});
  FUZZ_CHECK(unknown.has_value() == !query.empty(), "reject_unknown({}) disagrees with empty()");
  if (unknown) fuzz::check_message(*unknown);
  if (auto e = query.reject_unknown({"stage", "search", "sort", "limit", "cursor", "page"})) {
    fuzz::check_message(*e);
  }

  for (const std::string_view name : {"stage", "status", "tag", "id"}) {
    fuzz::check_decoded(api::non_empty_param(query, name),
                        [&](const std::optional<std::string_view>& value) {
                          FUZZ_CHECK(!value || !value->empty(), "an empty filter was accepted");
                          FUZZ_CHECK(value == query.get(name), "a filter value changed");
                          if (value) FUZZ_CHECK(domain::is_valid_utf8(*value), "filter not UTF-8");
                        });
  }

  check_sort(query, kLeadSorts);
  check_sort(query, kContactSorts);
  check_sort(query, kConversationSorts);

  auto common = api::decode_common_list_params(query);
  if (const auto* e = api::failed(common)) {
    fuzz::check_message(*e);
    return 0;
  }
  const auto& params = std::get<api::CommonListParams>(common);
  FUZZ_CHECK(params.limit >= 1 && params.limit <= api::kMaxLimit, "limit out of 1..100");
  FUZZ_CHECK(params.page >= 0 && params.page <= 1'000'000'000, "page out of range");
  FUZZ_CHECK(!params.cursor || (params.page == 0 && !params.cursor->empty()),
             "cursor accepted together with page, or empty");
  FUZZ_CHECK(domain::is_valid_utf8(params.search_folded), "folded search is not UTF-8");
  FUZZ_CHECK(domain::case_fold(params.search_folded) == params.search_folded,
             "case folding is not idempotent");

  const api::CursorCodec codec(std::string(32, 'k'));
  fuzz::check_decoded(api::decode_page(params, codec, "fuzz-binding"),
                      [&](const store::PageRequest& page) {
                        FUZZ_CHECK(page.limit == params.limit, "page limit differs");
                        FUZZ_CHECK(page.offset >= 0, "negative offset");
                        FUZZ_CHECK(!page.after || page.offset == 0, "cursor with an offset");
                        if (params.page > 1) {
                          FUZZ_CHECK(page.offset == (params.page - 1) * params.limit,
                                     "offset is not (page - 1) * limit");
                        }
                      });
  return 0;
}
