// What a resource operation gets once routing, authentication, limits and scope have passed.
#pragma once

#include <string_view>

#include "api/cursor_codec.hpp"
#include "api/query_params.hpp"
#include "http/request.hpp"
#include "store/store.hpp"

namespace leadline::api {

struct ResourceContext {
  const http::Request& request;
  http::Response& response;
  const QueryParams& query;
  const domain::WorkspaceId& workspace;
  store::Store& store;
  const CursorCodec& cursors;
};

// One function per resource; each answers every method the router allows for it.
void handle_leads(ResourceContext& ctx);
void handle_contacts(ResourceContext& ctx);
void handle_conversations(ResourceContext& ctx);

}  // namespace leadline::api
