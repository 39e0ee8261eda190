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

// The pagination of a page, with the next cursor bound to `binding`.
PaginationInfo pagination_of(const ResourceContext& ctx, const store::PageFacts& page, int limit,
                             std::string_view binding);

// The list envelope for a page, with the next cursor bound to `binding`.
template <class T, class WriteItem>
void respond_page(ResourceContext& ctx, const store::Page<T>& page, int limit,
                  std::string_view binding, WriteItem&& write_item) {
  respond_list(ctx.response, page.items, pagination_of(ctx, page, limit, binding), write_item);
}

// The same for a page the store streams: list(visit) gives each item to visit(item) as it reads
// the row, which writes it into the body at once, and returns the page's facts.
template <class T, class List, class WriteItem>
void respond_streamed_page(ResourceContext& ctx, int limit, std::string_view binding, List&& list,
                           WriteItem&& write_item) {
  JsonWriter w = begin_list(ctx.response);
  const store::PageFacts facts =
      list(store::ItemVisitor<T>([&](const T& item) { write_item(w, item); }));
  end_list(w, pagination_of(ctx, facts, limit, binding));
}

// Builds the cursor binding from the workspace, endpoint and every filter value in order.
std::string cursor_binding(const ResourceContext& ctx, std::string_view endpoint,
                           std::initializer_list<std::string_view> parts);

// 404 for a record of `resource` ("lead") that the workspace does not have.
ApiError record_not_found(std::string_view resource);

// 409 for a contact e-mail another contact of the workspace holds.
ApiError duplicate_email(const store::EmailConflict& conflict);

}  // namespace leadline::api
