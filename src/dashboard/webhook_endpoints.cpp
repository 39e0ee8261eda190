// Webhooks, their deliveries and the events feed are the API's own resources, answered in the
// signed-in user's workspace: one implementation, one shape, whether a program or a person asks.
// Only the test event is the dashboard's own.
#include "api/resource_support.hpp"
#include "dashboard/dashboard_call.hpp"
#include "record_json/webhook_shapes.hpp"

namespace leadline::dashboard {

api::Outcome as_api_resource(DashboardCall& call, api::Outcome (*resource)(api::ResourceContext&)) {
  api::ResourceContext ctx{
      call.request, call.response,         call.query, call.session->user.workspace_id, call.db,
      call.cursors, call.settings.webhooks};
  return resource(ctx);
}

api::Outcome webhook_test_endpoint(DashboardCall& call) {
  auto id = api::record_id(call.query);
  if (auto* e = api::failed(id)) return api::ApiError(*e);
  auto sent = call.db.deliveries().send_test_event(call.session->user.workspace_id,
                                                   domain::WebhookId{api::value(id)});
  if (const auto* delivery = std::get_if<domain::Delivery>(&sent)) {
    api::respond_data(call.response, api::Success::kCreated,
                      [&](api::JsonWriter& w) { record_json::write_delivery(w, *delivery); });
    return api::kAnswered;
  }
  if (std::holds_alternative<store::NotFound>(sent)) return api::record_not_found("webhook");
  return api::ApiError(api::ErrorKind::kStateRefuses,
                       "this webhook endpoint is disabled: enable it to send a test event");
}

}  // namespace leadline::dashboard
