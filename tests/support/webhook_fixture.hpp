// The fixture of the events and webhooks suites (tests/api/events_test, webhooks_test): the API
// fixture with a server that may deliver to loopback receivers over plain HTTP on a short retry
// schedule and timeout, plus helpers for endpoints, the delivery log and the /events feed.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "support/fixture.hpp"
#include "support/webhook_receiver.hpp"
#include "support/webhook_signature.hpp"

namespace leadline_test {

// The retry schedule and timeout of the webhook suites' server: 3 attempts, ~0.75 s in all.
inline constexpr std::chrono::milliseconds kWebhookFirstRetry{250};
inline constexpr std::chrono::milliseconds kWebhookSecondRetry{500};
inline constexpr std::chrono::milliseconds kWebhookTimeout{1000};

// How long a test waits for something the server does on its own (an attempt, a retry).
inline constexpr std::chrono::milliseconds kDeliveryWait{8000};

// The fields of an endpoint, of a delivery (list item), of an attempt and of an event.
const KeySet& webhook_endpoint_keys();
const KeySet& webhook_delivery_keys();
const KeySet& webhook_attempt_keys();

class WebhookApiTest : public ApiTest {
 public:
  // --rate-limit as every suite, plus delivery to 127.0.0.0/8 over http with the short schedule.
  static std::vector<std::string> webhook_serve_args();
  static void SetUpTestSuite();

 protected:
  // start_suite_server, except that a server that does not start fails each test (from SetUp)
  // rather than the suite set-up, which gtest would turn into skipped tests.
  static void start_webhook_suite_server(std::vector<std::string> args);

  // A receiver path unique to the running test ("/<Suite>.<Test>/<name>"), so that attempts a
  // previous test left behind never count in this one's receiver.
  std::string hook_path(const std::string& name = "hook") const;

  // POST /webhooks asserting 201; returns `data` (with `secret`).
  json::object create_webhook(const json::object& body, std::optional<std::string> key = {});
  json::object create_webhook_to(const std::string& url, json::array events = {"*"},
                                 std::optional<std::string> key = {});
  json::object get_webhook(const std::string& id, std::optional<std::string> key = {});

  // GET /webhook-deliveries?id= (with `attempts`), asserting 200.
  json::object get_delivery(const std::string& id, std::optional<std::string> key = {});
  // Every delivery matching the query (e.g. "webhook_id=..."), newest first.
  json::array deliveries(const std::string& query = "", std::optional<std::string> key = {});
  // The delivery of one event to one endpoint, polled for until it exists; throws otherwise.
  json::object delivery_of(const std::string& webhook_id, const std::string& event_id,
                           std::optional<std::string> key = {});
  // Polls GET-one of the delivery until `done` holds or the wait passed; returns the last read.
  json::object wait_delivery(const std::string& delivery_id,
                             const std::function<bool(const json::object&)>& done,
                             std::chrono::milliseconds wait = kDeliveryWait);
  // Polls GET-one of the endpoint until `done` holds or the wait passed; returns the last read.
  json::object wait_webhook(const std::string& webhook_id,
                            const std::function<bool(const json::object&)>& done,
                            std::chrono::milliseconds wait = kDeliveryWait);

  // Every event of the feed matching the query (e.g. "type=lead.*"), oldest first.
  json::array events(const std::string& query = "", std::optional<std::string> key = {});
  // Polls the feed until it holds at least n events matching the query; returns them.
  json::array wait_events(std::size_t n, const std::string& query = "",
                          std::optional<std::string> key = {},
                          std::chrono::milliseconds wait = std::chrono::milliseconds(5000));
  // The newest event of a type, polled for; throws when none appears.
  json::object last_event(const std::string& type, std::optional<std::string> key = {});
};

// Checks one received webhook against the event it should carry and the endpoint's secret(s):
// POST to the path, Content-Type application/json, User-Agent leadline-webhooks/<version>,
// webhook-id = event id, webhook-timestamp within a minute of arrival, every signature entry
// `v1,...` and signature i made with secrets[i], the body parsing to exactly `event`.
::testing::AssertionResult is_webhook_of(const ReceivedRequest& request, const json::value& event,
                                         const std::vector<std::string>& secrets);
// The requests carrying this webhook-id.
std::vector<ReceivedRequest> with_webhook_id(const std::vector<ReceivedRequest>& requests,
                                             const std::string& id);

}  // namespace leadline_test
