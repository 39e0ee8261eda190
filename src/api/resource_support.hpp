// Steps every resource shares: the record id from the query, the JSON body, list envelopes.
#pragma once

#include <optional>
#include <string>

#include "api/envelope.hpp"
#include "api/list_params.hpp"
#include "api/resource_context.hpp"
#include "boost/json/object.hpp"

namespace leadline::api {

// The `id` query parameter as a canonical UUID, and no other parameter; answers 400 and
// returns nothing otherwise.
std::optional<std::string> require_record_id(ResourceContext& ctx);

// The request body as a JSON object (Content-Type checked); answers 400 otherwise.
std::optional<boost::json::object> require_json_body(ResourceContext& ctx);

// Answers 400 with the message of a failed decode; returns the value otherwise.
template <class T>
std::optional<T> take_or_answer(ResourceContext& ctx, Decoded<T>&& decoded) {
  if (auto* e = failed(decoded)) {
    respond_error(ctx.response, 400, e->message);
    return std::nullopt;
  }
  return std::move(std::get<T>(decoded));
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

std::string_view not_found_message(std::string_view resource);

}  // namespace leadline::api
