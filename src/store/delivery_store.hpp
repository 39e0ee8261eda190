// Webhook deliveries: the delivery log a workspace reads (list, one with its attempts,
// redeliver) and the work the delivery workers claim and report, shared by every instance.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "domain/webhook_records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"

namespace leadline::store {

struct DeliveryListQuery {
  std::optional<domain::WebhookId> webhook;
  std::optional<domain::EventId> event;
  std::optional<domain::DeliveryStatus> status;
  PageRequest page;
};

// Redelivery or a test event asked for while the endpoint is disabled.
struct EndpointDisabled {};

// A delivery claimed for one attempt, with everything the attempt needs.
struct ClaimedDelivery {
  domain::WorkspaceId workspace;
  domain::DeliveryId id;
  domain::WebhookId webhook;
  std::string url;
  std::string body;
  std::string event_id;
  std::vector<std::string> secrets;  // "whsec_..." texts, newest first
  int attempts_before = 0;
  // The endpoint's last successful attempt, or its creation when none succeeded.
  domain::Timestamp healthy_since;
};

// What one attempt did and what follows it.
struct AttemptReport {
  domain::WorkspaceId workspace;
  domain::DeliveryId id;
  domain::WebhookId webhook;
  domain::DeliveryAttempt attempt;
  domain::DeliveryStatus status = domain::DeliveryStatus::kPending;
  std::optional<domain::Timestamp> next_attempt_at;  // when still pending
  std::optional<std::string> disable_endpoint;       // "gone" or "failing"
};

class DeliveryStore {
 public:
  explicit DeliveryStore(OperationRunner& runner) : runner_(runner) {}

  // Newest first.
  Page<domain::Delivery> list(const domain::WorkspaceId& ws, const DeliveryListQuery& query);
  // With its attempts, oldest first.
  std::optional<domain::Delivery> get(const domain::WorkspaceId& ws, const domain::DeliveryId& id);
  // Pending again with an attempt due now, whatever its status.
  std::variant<domain::Delivery, NotFound, EndpointDisabled> retry(const domain::WorkspaceId& ws,
                                                                   const domain::DeliveryId& id);
  // The dashboard's "Send test event": one webhook.test event (data {}) for this endpoint only,
  // whatever its `events`, as a pending delivery due now. The event is not in the feed; the
  // delivery is listed, attempted, redelivered and purged like any other. NotFound for an
  // endpoint not of `ws`; EndpointDisabled, as for a redelivery, since a disabled endpoint's
  // delivery would wait unsent until it is enabled again.
  std::variant<domain::Delivery, NotFound, EndpointDisabled> send_test_event(
      const domain::WorkspaceId& ws, const domain::WebhookId& webhook);

  // Whether claim() would find something now: a read, so an idle poll never takes the writer.
  bool any_due();
  // Claims up to `limit` due deliveries of enabled endpoints, oldest due first, until
  // `lease_until`; other instances skip them meanwhile, and a crashed instance's claims run
  // out. `admit(webhook id)` may turn one down (its endpoint has enough attempts in flight).
  std::vector<ClaimedDelivery> claim(int limit, domain::Timestamp lease_until,
                                     const std::function<bool(std::string_view)>& admit);
  // Gives claims back unattempted (a stopping instance), so they are due again at once.
  void release(const std::vector<ClaimedDelivery>& claims);
  // Records each attempt, moves its delivery on and releases its claim, in one transaction.
  void report(const std::vector<AttemptReport>& reports);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
