// Assertion helpers shared by the suites: envelope shapes, field sets, id and timestamp formats,
// and timestamp arithmetic for building import files.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "support/http_client.hpp"

// Status assertions that print the whole response on failure.
#define EXPECT_STATUS(response, code) EXPECT_EQ((response).status, (code)) << (response).describe()
#define ASSERT_STATUS(response, code) ASSERT_EQ((response).status, (code)) << (response).describe()

namespace leadline_test {

namespace json = boost::json;
using KeySet = std::set<std::string>;

KeySet keys_of(const json::object& object);
KeySet keys_of(const json::value& value);  // empty for non-objects

// KeySet built from a list with some optional additions (convenience for expected shapes).
KeySet key_set(std::initializer_list<std::string> keys);

// Lowercase UUID text of any version / version 7 (with the RFC 4122 variant).
bool is_uuid(std::string_view text);
bool is_uuid_v7(std::string_view text);
// Milliseconds since the epoch in the first 48 bits of a UUIDv7.
std::int64_t uuid_v7_millis(std::string_view text);

// `YYYY-MM-DDTHH:MM:SS.mmmZ`
bool is_timestamp(std::string_view text);
// Milliseconds since the epoch of a timestamp in that format; throws when malformed.
std::int64_t timestamp_millis(std::string_view text);
std::string format_timestamp(std::int64_t millis);
std::int64_t now_millis();
// The timestamp `offset` from now (negative offsets lie in the past).
std::string timestamp_from_now(std::chrono::milliseconds offset);

// `{ success: true, data: <object> }`, nothing else.
::testing::AssertionResult is_single_envelope(const HttpResponse& response);
// `{ success: true, data: [...], pagination: {has_more, next_cursor, total_count, limit} }`
// with next_cursor a non-empty string exactly when has_more is true.
::testing::AssertionResult is_list_envelope(const HttpResponse& response);
// `{ success: false, error: <non-empty string> }` with this status, nothing else; when
// `mentions` is non-empty the error string must contain it.
::testing::AssertionResult is_error(const HttpResponse& response, unsigned status,
                                    std::string_view mentions = {});
// Content-Type is `application/json; charset=utf-8` (spacing and case of the parameter tolerated).
::testing::AssertionResult has_json_content_type(const HttpResponse& response);
// All three X-RateLimit-* headers are present (or, with `present` false, none of them).
::testing::AssertionResult has_rate_limit_headers(const HttpResponse& response,
                                                  bool present = true);

// Convenience accessors.
const json::object& as_obj(const json::value& v);
const json::array& as_arr(const json::value& v);
std::string str(const json::value& v);  // throws when not a string
std::vector<std::string> ids_of(const json::array& items);
// pagination.total_count of a list response; throws when absent.
std::int64_t total_count(const HttpResponse& list_response);
std::vector<std::string> strings_of(const json::value& array_of_strings);

// Repeats a (possibly multi-byte UTF-8) string n times.
std::string repeat(std::string_view piece, std::size_t n);

}  // namespace leadline_test
