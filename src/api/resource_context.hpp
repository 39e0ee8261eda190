// What a resource operation gets once routing, authentication, limits and scope have passed.
#pragma once

#include "api/cursor_codec.hpp"
#include "api/errors.hpp"
#include "api/query_params.hpp"
#include "http/request.hpp"
#include "store/database.hpp"
#include "webhooks/webhook_url.hpp"

namespace leadline::api {

// What registering a webhook endpoint accepts (serve's --webhook-allow-http and
// --webhook-allow-private).
struct WebhookRules {
  webhooks::UrlRules urls;
};

struct ResourceContext {
  const http::Request& request;
  http::Response& response;
  const QueryParams& query;
  const domain::WorkspaceId& workspace;
  store::Database& db;
  const CursorCodec& cursors;
  const WebhookRules& webhooks;
};

// One function per resource; each answers every method its route allows.
Outcome handle_leads(ResourceContext& ctx);
Outcome handle_contacts(ResourceContext& ctx);
Outcome handle_conversations(ResourceContext& ctx);
Outcome handle_events(ResourceContext& ctx);
Outcome handle_webhooks(ResourceContext& ctx);
Outcome handle_webhook_rotation(ResourceContext& ctx);
Outcome handle_webhook_deliveries(ResourceContext& ctx);
Outcome handle_webhook_redelivery(ResourceContext& ctx);

}  // namespace leadline::api
