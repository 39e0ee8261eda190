// The Usage page's numbers and charts, for the workspace or one of its keys. Both come from the
// hourly usage rows that `leadline keys usage` sums too, so the page and the command agree.
#include "api/envelope.hpp"
#include "api/resource_support.hpp"
#include "dashboard/dashboard_call.hpp"
#include "domain/uuid.hpp"

namespace leadline::dashboard {

namespace {

void write_buckets(api::JsonWriter& w, std::string_view name,
                   const std::vector<domain::UsageBucket>& buckets) {
  w.key(name).begin_array();
  for (const auto& b : buckets) {
    w.begin_object()
        .field("start", domain::Timestamp{b.start_ms})
        .field("success", b.success)
        .field("error", b.error)
        .field("rate_limited", b.rate_limited)
        .end_object();
  }
  w.end_array();
}

void write_usage(api::JsonWriter& w, const domain::UsageReport& report,
                 const domain::UsageSeries& series) {
  w.begin_object()
      .field("today", report.today)
      .field("this_week", report.this_week)
      .field("this_month", report.this_month)
      .key("by_endpoint")
      .begin_object();
  for (const auto& [endpoint, count] : report.by_endpoint) w.field(endpoint, count);
  w.end_object().field("error_rate", report.error_rate).field("rate_limited", report.rate_limited);
  write_buckets(w, "hourly", series.hourly);
  write_buckets(w, "daily", series.daily);
  w.end_object();
}

}  // namespace

api::Outcome usage_endpoint(DashboardCall& call) {
  if (auto e = call.query.reject_unknown({"key"})) return api::ApiError(*e);
  const auto& ws = call.session->user.workspace_id;
  std::optional<domain::ApiKeyId> key;
  if (const auto given = call.query.get("key")) {
    auto uuid = domain::parse_uuid(*given);
    if (!uuid) return api::ApiError(api::BadRequest{"key must be an API key id (a UUID)"});
    key = domain::ApiKeyId{std::move(*uuid)};
  }
  // The series first: it answers NotFound for a key of another workspace.
  auto series = call.db.usage().series(ws, key);
  const auto* found = std::get_if<domain::UsageSeries>(&series);
  if (found == nullptr) return api::record_not_found("API key");
  domain::UsageReport report;
  if (key) {
    auto keyed = call.db.usage().report(*key);
    if (auto* r = std::get_if<domain::UsageReport>(&keyed)) report = std::move(*r);
  } else {
    report = call.db.usage().workspace_report(ws);
  }
  api::respond_data(call.response, api::Success::kOk,
                    [&](api::JsonWriter& w) { write_usage(w, report, *found); });
  return api::kAnswered;
}

}  // namespace leadline::dashboard
