// Steps every resource shares: the record id from the query, the JSON body, list envelopes.
#pragma once

#include <boost/json/object.hpp>
#include <initializer_list>
#include <string>
#include <string_view>

#include "api/envelope.hpp"
#include "api/list_params.hpp"
#include "api/resource_context.hpp"

namespace leadline::api {

// The `id` query parameter as a canonical UUID, and no other parameter.
Decoded<std::string> record_id(const QueryParams& query);

// The request body as a JSON object, Content-Type checked.
Decoded<boost::json::object> json_body(const http::Request& request);

// The value of a decode that did not fail.
template <class T>
T& value(Decoded<T>& decoded) {
  return std::get<T>(decoded);
}

// The list envelope for a page, with the next cursor bound to `binding`.
template <class T, class WriteItem>
void respond_page(ResourceContext& ctx, const store::Page<T>& page, int limit,
                  std::string_view binding, WriteItem&& write_item) {
  PaginationInfo info;
  info.has_more = page.has_more;
  info.total_count = page.total_count;
  info.limit = limit;
  if (page.has_more && page.next_position) {
    info.next_cursor = ctx.cursors.encode(*page.next_position, binding);
  }
  respond_list(ctx.response, page.items, info, write_item);
}

// Builds the cursor binding from the workspace, endpoint and every filter value in order.
std::string cursor_binding(const ResourceContext& ctx, std::string_view endpoint,
                           std::initializer_list<std::string_view> parts);

// 404 for a record of `resource` ("lead") that the workspace does not have.
ApiError record_not_found(std::string_view resource);

// 409 for a contact e-mail another contact of the workspace holds.
ApiError duplicate_email(const store::EmailConflict& conflict);

}  // namespace leadline::api
