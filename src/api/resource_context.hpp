// What a resource operation gets once routing, authentication, limits and scope have passed.
#pragma once

#include "api/cursor_codec.hpp"
#include "api/errors.hpp"
#include "api/query_params.hpp"
#include "http/request.hpp"
#include "store/database.hpp"

namespace leadline::api {

struct ResourceContext {
  const http::Request& request;
  http::Response& response;
  const QueryParams& query;
  const domain::WorkspaceId& workspace;
  store::Database& db;
  const CursorCodec& cursors;
};

// One function per resource; each answers every method its route allows.
Outcome handle_leads(ResourceContext& ctx);
Outcome handle_contacts(ResourceContext& ctx);
Outcome handle_conversations(ResourceContext& ctx);

}  // namespace leadline::api
