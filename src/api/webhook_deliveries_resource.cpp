// /webhook-deliveries: the delivery log (list with filters, one with its attempts) and
// /webhook-deliveries/retry, which redelivers one now.
#include "api/resource_support.hpp"
#include "domain/uuid.hpp"
#include "record_json/webhook_shapes.hpp"

namespace leadline::api {

namespace {

void write_listed(JsonWriter& w, const domain::Delivery& delivery) {
  record_json::write_delivery(w, delivery);
}

// An optional filter that must be a UUID when given.
template <class IdType>
Decoded<std::optional<IdType>> id_filter(const QueryParams& query, std::string_view name) {
  auto text = non_empty_param(query, name);
  if (auto* e = failed(text)) return *e;
  if (!value(text)) return std::optional<IdType>{};
  auto uuid = domain::parse_uuid(*value(text));
  if (!uuid) return BadRequest{std::string(name) + " must be a UUID"};
  return std::optional<IdType>{IdType{std::move(*uuid)}};
}

Outcome list_deliveries(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown(
          {"webhook_id", "event_id", "status", "limit", "cursor", "page"})) {
    return *e;
  }
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  auto webhook = id_filter<domain::WebhookId>(ctx.query, "webhook_id");
  if (auto* e = failed(webhook)) return *e;
  auto event = id_filter<domain::EventId>(ctx.query, "event_id");
  if (auto* e = failed(event)) return *e;
  auto status_text = non_empty_param(ctx.query, "status");
  if (auto* e = failed(status_text)) return *e;

  store::DeliveryListQuery q;
  q.webhook = value(webhook);
  q.event = value(event);
  if (const auto& s = value(status_text)) {
    q.status = domain::parse_delivery_status(*s);
    if (!q.status) return BadRequest{"status must be one of: pending, succeeded, failed"};
  }
  const std::string binding = cursor_binding(
      ctx, "webhook-deliveries",
      {q.webhook ? std::string_view(q.webhook->value) : "",
       q.event ? std::string_view(q.event->value) : "", value(status_text).value_or("")});
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  q.page = value(page);
  const auto result = ctx.db.deliveries().list(ctx.workspace, q);
  respond_page(ctx, result, value(common).limit, binding, write_listed);
  return kAnswered;
}

Outcome get_delivery(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto delivery = ctx.db.deliveries().get(ctx.workspace, domain::DeliveryId{value(id)});
  if (!delivery) return record_not_found("webhook delivery");
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_delivery(w, *delivery, true); });
  return kAnswered;
}

}  // namespace

Outcome handle_webhook_deliveries(ResourceContext& ctx) {
  return ctx.query.has("id") ? get_delivery(ctx) : list_deliveries(ctx);
}

Outcome handle_webhook_redelivery(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto result = ctx.db.deliveries().retry(ctx.workspace, domain::DeliveryId{value(id)});
  if (std::holds_alternative<store::NotFound>(result)) return record_not_found("webhook delivery");
  if (std::holds_alternative<store::EndpointDisabled>(result)) {
    return ApiError(ErrorKind::kStateRefuses,
                    "the delivery's webhook endpoint is disabled; enable it first");
  }
  respond_data(ctx.response, Success::kOk, [&](JsonWriter& w) {
    record_json::write_delivery(w, std::get<domain::Delivery>(result));
  });
  return kAnswered;
}

}  // namespace leadline::api
