// Query-string decoding and the list parameter rules of docs/api.md.
#include <gtest/gtest.h>

#include "api/list_params.hpp"
#include "api/query_params.hpp"

namespace leadline::api {
namespace {

QueryParams parse(std::string_view q) {
  auto r = QueryParams::parse(q);
  EXPECT_TRUE(std::holds_alternative<QueryParams>(r)) << q;
  return std::holds_alternative<QueryParams>(r) ? std::get<QueryParams>(r) : QueryParams{};
}

std::string list_error(std::string_view q) {
  auto r = decode_common_list_params(parse(q));
  return std::holds_alternative<BadRequest>(r) ? std::get<BadRequest>(r).message : "";
}

CommonListParams list_ok(std::string_view q) {
  auto r = decode_common_list_params(parse(q));
  EXPECT_TRUE(std::holds_alternative<CommonListParams>(r)) << q;
  return std::holds_alternative<CommonListParams>(r) ? std::get<CommonListParams>(r)
                                                     : CommonListParams{};
}

TEST(QueryParams, DecodesPercentAndPlus) {
  auto q = parse("search=M%C3%BCller+GmbH&tag=a%2Bb");
  EXPECT_EQ(*q.get("search"), "Müller GmbH");
  EXPECT_EQ(*q.get("tag"), "a+b");
  EXPECT_FALSE(q.get("limit").has_value());
}

// Beast passes these bytes in a request target; RFC 3986 keeps them out of a query, and the API
// has always taken them as they are.
TEST(QueryParams, TakesRawUtf8AndBytesOutsideRfc3986AsTheyAre) {
  auto q = parse("search=M\xc3\xbcller&tag=a|b\"[c]{d}^`<e>\\#");
  EXPECT_EQ(*q.get("search"), "M\xc3\xbcller");
  EXPECT_EQ(*q.get("tag"), "a|b\"[c]{d}^`<e>\\#");
}

TEST(QueryParams, EmptyPairsAreSkippedAndABareNameIsEmpty) {
  auto q = parse("&&limit&=x&");
  EXPECT_EQ(*q.get("limit"), "");
  EXPECT_EQ(*q.get(""), "x");
}

TEST(QueryParams, RejectsDuplicatesBadEscapesAndBadUtf8) {
  EXPECT_TRUE(std::holds_alternative<BadRequest>(QueryParams::parse("limit=1&limit=2")));
  EXPECT_TRUE(std::holds_alternative<BadRequest>(QueryParams::parse("search=%zz")));
  EXPECT_TRUE(std::holds_alternative<BadRequest>(QueryParams::parse("search=%")));
  EXPECT_TRUE(std::holds_alternative<BadRequest>(QueryParams::parse("search=%ff")));
}

TEST(QueryParams, NamesTheUnknownParameter) {
  auto q = parse("limit=5&colour=red");
  auto e = q.reject_unknown({"limit"});
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("'colour'"), std::string::npos);
}

TEST(ListParams, LimitDefaultsClampsAndRejects) {
  EXPECT_EQ(list_ok("").limit, 50);
  EXPECT_EQ(list_ok("limit=1").limit, 1);
  EXPECT_EQ(list_ok("limit=100").limit, 100);
  EXPECT_EQ(list_ok("limit=101").limit, 100);
  EXPECT_EQ(list_ok("limit=99999999999999999999999").limit, 100);
  for (const char* bad : {"limit=0", "limit=-1", "limit=1.5", "limit=abc", "limit=", "limit=+5"}) {
    EXPECT_NE(list_error(bad).find("limit"), std::string::npos) << bad;
  }
  EXPECT_EQ(list_error("limit=0"),
            "limit must be an integer of at least 1 (values above 100 are treated as 100)");
}

TEST(ListParams, PageAndCursorRules) {
  EXPECT_EQ(list_ok("page=3").page, 3);
  for (const char* bad : {"page=0", "page=-2", "page=x", "page=", "page=1.0"}) {
    EXPECT_NE(list_error(bad).find("page"), std::string::npos) << bad;
  }
  EXPECT_NE(list_error("page=2&cursor=abc").find("together"), std::string::npos);
  EXPECT_NE(list_error("cursor=").find("cursor"), std::string::npos);
}

TEST(ListParams, EmptySearchMeansNoSearchAndSearchIsFolded) {
  EXPECT_EQ(list_ok("search=").search_folded, "");
  EXPECT_EQ(list_ok("search=%C3%89COLE").search_folded, "école");
}

TEST(ListParams, SearchRejectsEveryControlCharacter) {
  for (const char* bad : {"search=a%00b", "search=%01", "search=a%09", "search=%0A", "search=%0D",
                          "search=%1B%5B0m", "search=%1F", "search=x%7F"}) {
    EXPECT_NE(list_error(bad).find("search must not contain control characters"), std::string::npos)
        << bad;
  }
  // U+0080..U+009F are C1 controls in Unicode but letters' neighbours in UTF-8 text; they and
  // spaces stay searchable.
  EXPECT_EQ(list_ok("search=a+b").search_folded, "a b");
  EXPECT_EQ(list_ok("search=%C2%85").search_folded, "\u0085");
}

Decoded<store::UpdatedWindow> window(std::string_view q) {
  return decode_updated_window(parse(q));
}

std::string window_error(std::string_view q) {
  auto r = window(q);
  return std::holds_alternative<BadRequest>(r) ? std::get<BadRequest>(r).message : "";
}

TEST(UpdatedWindow, AbsentBoundsAreNoWindow) {
  auto w = std::get<store::UpdatedWindow>(window("limit=5"));
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(updated_window_binding(w), "");
}

TEST(UpdatedWindow, TakesTheRecordFormatAsUnixMilliseconds) {
  auto w = std::get<store::UpdatedWindow>(
      window("updated_since=2026-03-01T10:00:00.000Z&updated_before=2026-03-01T10:00:00.001Z"));
  ASSERT_TRUE(w.since && w.before);
  EXPECT_EQ(w.since->unix_ms, 1772359200000);
  EXPECT_EQ(w.before->unix_ms, 1772359200001);
  auto since_only =
      std::get<store::UpdatedWindow>(window("updated_since=1970-01-01T00:00:00.000Z"));
  EXPECT_EQ(since_only.since->unix_ms, 0);
  EXPECT_FALSE(since_only.before);
  auto before_only =
      std::get<store::UpdatedWindow>(window("updated_before=2000-02-29T23:59:59.999Z"));
  EXPECT_FALSE(before_only.since);
  EXPECT_EQ(before_only.before->unix_ms, 951868799999);
}

TEST(UpdatedWindow, AnythingButTheRecordFormatIs400NamingTheParameter) {
  for (const char* name : {"updated_since", "updated_before"}) {
    for (const char* bad :
         {"", "2026-03-01T10:00:00Z", "2026-03-01T10:00:00.000z", "2026-03-01t10:00:00.000Z",
          "2026-03-01T10:00:00.000%2B00:00", "2026-03-01T10:00:00.000+00:00",
          "2026-03-01T10:00:00.0000Z", "2026-03-01T10:00:00.00Z", "2026-03-01", "garbage",
          "2026-02-31T10:00:00.000Z", "2026-03-01 10:00:00.000Z", "2026-03-01T24:00:00.000Z",
          "1772359200000", "%202026-03-01T10:00:00.000Z"}) {
      const std::string q = std::string(name) + "=" + bad;
      EXPECT_EQ(window_error(q), std::string(name) +
                                     " must be a timestamp in the record format "
                                     "YYYY-MM-DDTHH:MM:SS.mmmZ")
          << q;
    }
  }
}

TEST(UpdatedWindow, BeforeMustBeLaterThanSince) {
  const std::string since = "updated_since=2026-03-01T10:00:00.500Z";
  EXPECT_EQ(window_error(since + "&updated_before=2026-03-01T10:00:00.500Z"),
            "updated_before must be later than updated_since");
  EXPECT_EQ(window_error(since + "&updated_before=2026-03-01T10:00:00.499Z"),
            "updated_before must be later than updated_since");
  EXPECT_EQ(window_error(since + "&updated_before=2026-03-01T10:00:00.501Z"), "");
  // A malformed bound is named before the order of the two is looked at.
  EXPECT_EQ(window_error("updated_since=x&updated_before=2026-03-01T10:00:00.000Z"),
            "updated_since must be a timestamp in the record format YYYY-MM-DDTHH:MM:SS.mmmZ");
}

TEST(UpdatedWindow, BindingTellsEveryWindowApart) {
  const auto binding = [](std::string_view q) {
    return updated_window_binding(std::get<store::UpdatedWindow>(window(q)));
  };
  const std::string a = "2026-03-01T10:00:00.000Z";
  const std::string b = "2026-03-01T11:00:00.000Z";
  const std::vector<std::string> bindings = {
      binding(""),
      binding("updated_since=" + a),
      binding("updated_before=" + a),
      binding("updated_since=" + b),
      binding("updated_since=" + a + "&updated_before=" + b),
  };
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    for (std::size_t j = i + 1; j < bindings.size(); ++j) {
      EXPECT_NE(bindings[i], bindings[j]) << i << " " << j;
    }
  }
  EXPECT_EQ(bindings[4],
            "\x1fsince=1772359200000\x1f"
            "before=1772362800000");
}

enum class F { kA, kB };
constexpr std::array<std::pair<std::string_view, F>, 2> kSorts{{{"a", F::kA}, {"b", F::kB}}};

TEST(ListParams, SortForms) {
  auto spec = [](std::string_view q) { return decode_sort(parse(q), kSorts, F::kA); };
  auto def = std::get<store::SortSpec<F>>(spec(""));
  EXPECT_EQ(def.field, F::kA);
  EXPECT_EQ(def.direction, store::SortDirection::kDesc);
  auto asc = std::get<store::SortSpec<F>>(spec("sort=b"));
  EXPECT_EQ(asc.field, F::kB);
  EXPECT_EQ(asc.direction, store::SortDirection::kAsc);
  EXPECT_EQ(std::get<store::SortSpec<F>>(spec("sort=b:desc")).direction,
            store::SortDirection::kDesc);
  EXPECT_EQ(std::get<store::SortSpec<F>>(spec("sort=b:asc")).direction, store::SortDirection::kAsc);
  for (const char* bad : {"sort=c", "sort=b:DESC", "sort=b:", "sort=", "sort=:asc", "sort=b:up"}) {
    EXPECT_TRUE(std::holds_alternative<BadRequest>(spec(bad))) << bad;
  }
}

}  // namespace
}  // namespace leadline::api
