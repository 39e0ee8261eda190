// The success envelopes of the contract, {success,data} and {success,data,pagination}, written
// straight into the response body. Errors have theirs in errors.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "http/request.hpp"
#include "record_json/json_writer.hpp"

namespace leadline::api {

// Every body the API writes goes through the one writer of record_json/.
using record_json::JsonWriter;

enum class Success : unsigned { kOk = 200, kCreated = 201 };

// Calls write_data(JsonWriter&) to write the value of `data`.
template <class WriteData>
void respond_data(http::Response& response, Success status, WriteData&& write_data) {
  response.status = static_cast<unsigned>(status);
  response.body.clear();
  JsonWriter w(response.body);
  w.begin_object().field("success", true).key("data");
  write_data(w);
  w.end_object();
}

struct PaginationInfo {
  bool has_more = false;
  std::optional<std::string> next_cursor;
  std::int64_t total_count = 0;
  int limit = 0;
};

// The list envelope in two halves, for items written as they come: begin_list writes up to
// the first item, end_list closes the items and adds the pagination.
inline JsonWriter begin_list(http::Response& response) {
  response.status = static_cast<unsigned>(Success::kOk);
  response.body.clear();
  JsonWriter w(response.body);
  w.begin_object().field("success", true).key("data").begin_array();
  return w;
}

inline void end_list(JsonWriter& w, const PaginationInfo& pagination) {
  w.end_array();
  w.key("pagination")
      .begin_object()
      .field("has_more", pagination.has_more)
      .field("next_cursor", pagination.next_cursor)
      .field("total_count", pagination.total_count)
      .field("limit", pagination.limit)
      .end_object();
  w.end_object();
}

// Calls write_item(JsonWriter&, const Item&) for each item.
template <class Items, class WriteItem>
void respond_list(http::Response& response, const Items& items, const PaginationInfo& pagination,
                  WriteItem&& write_item) {
  JsonWriter w = begin_list(response);
  for (const auto& item : items) write_item(w, item);
  end_list(w, pagination);
}

}  // namespace leadline::api
