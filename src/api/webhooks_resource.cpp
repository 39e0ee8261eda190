// /webhooks: endpoint CRUD (at most 16 per workspace) and /webhooks/rotate-secret.
#include "api/resource_support.hpp"
#include "api/webhook_body.hpp"
#include "record_json/record_shapes.hpp"
#include "record_json/webhook_shapes.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::api {

namespace {

void write_endpoint(JsonWriter& w, const domain::WebhookEndpoint& endpoint) {
  record_json::write_webhook(w, endpoint);
}

Outcome list_webhooks(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"limit", "cursor", "page"})) return *e;
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  const std::string binding = cursor_binding(ctx, "webhooks", {});
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  const auto result = ctx.db.webhooks().list(ctx.workspace, value(page));
  respond_page(ctx, result, value(common).limit, binding, write_endpoint);
  return kAnswered;
}

Outcome get_webhook(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto endpoint = ctx.db.webhooks().get(ctx.workspace, domain::WebhookId{value(id)});
  if (!endpoint) return record_not_found("webhook endpoint");
  respond_data(ctx.response, Success::kOk, [&](JsonWriter& w) { write_endpoint(w, *endpoint); });
  return kAnswered;
}

Outcome create_webhook(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({})) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto webhook = decode_webhook_create(value(body), ctx.webhooks);
  if (auto* e = failed(webhook)) return *e;
  const auto result = ctx.db.webhooks().create(ctx.workspace, value(webhook));
  if (std::holds_alternative<store::TooManyWebhooks>(result)) {
    return ApiError(ErrorKind::kStateRefuses, "a workspace has at most " +
                                                  std::to_string(domain::kMaxWebhooksPerWorkspace) +
                                                  " webhook endpoints");
  }
  respond_data(ctx.response, Success::kCreated, [&](JsonWriter& w) {
    record_json::write_webhook(w, std::get<domain::WebhookEndpoint>(result), value(webhook).secret);
  });
  return kAnswered;
}

Outcome update_webhook(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto patch = decode_webhook_patch(value(body), ctx.webhooks);
  if (auto* e = failed(patch)) return *e;
  const auto endpoint =
      ctx.db.webhooks().update(ctx.workspace, domain::WebhookId{value(id)}, value(patch));
  if (!endpoint) return record_not_found("webhook endpoint");
  respond_data(ctx.response, Success::kOk, [&](JsonWriter& w) { write_endpoint(w, *endpoint); });
  return kAnswered;
}

Outcome delete_webhook(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  if (!ctx.db.webhooks().remove(ctx.workspace, domain::WebhookId{value(id)})) {
    return record_not_found("webhook endpoint");
  }
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_deleted(w, value(id)); });
  return kAnswered;
}

}  // namespace

Outcome handle_webhooks(ResourceContext& ctx) {
  const std::string_view method = ctx.request.method;
  if (method == "GET") return ctx.query.has("id") ? get_webhook(ctx) : list_webhooks(ctx);
  if (method == "POST") return create_webhook(ctx);
  if (method == "PATCH") return update_webhook(ctx);
  return delete_webhook(ctx);
}

Outcome handle_webhook_rotation(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  // No body, or {}.
  if (!ctx.request.body.empty()) {
    auto body = json_body(ctx.request);
    if (auto* e = failed(body)) return *e;
    if (!value(body).empty()) return BadRequest{"rotate-secret takes no body fields"};
  }
  const std::string secret = webhooks::generate_secret();
  if (!ctx.db.webhooks().rotate_secret(ctx.workspace, domain::WebhookId{value(id)}, secret)) {
    return record_not_found("webhook endpoint");
  }
  respond_data(ctx.response, Success::kOk, [&](JsonWriter& w) {
    w.begin_object().field("id", value(id)).field("secret", secret).end_object();
  });
  return kAnswered;
}

}  // namespace leadline::api
