// The dashboard's "Send test event" (DeliveryStore::send_test_event): one webhook.test delivery
// to the endpoint asked for and no other, never in the events feed, claimed with its own event
// body, redelivered with the same bytes, purged at the events' retention. On both backends.
#include <boost/json/parse.hpp>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

namespace json = boost::json;

using TestEventResult = std::variant<domain::Delivery, NotFound, EndpointDisabled>;

domain::WebhookEndpoint make_endpoint(Database& db, const domain::WorkspaceId& ws,
                                      std::vector<std::string> events = {"*"}) {
  domain::NewWebhook w;
  w.url = "https://hooks.example.com/test";
  w.events = std::move(events);
  w.secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  return std::get<domain::WebhookEndpoint>(db.webhooks().create(ws, w));
}

domain::Delivery sent(const TestEventResult& result) {
  if (const auto* d = std::get_if<domain::Delivery>(&result)) return *d;
  ADD_FAILURE() << "send_test_event did not create a delivery";
  return {};
}

std::int64_t deliveries_of(Database& db, const domain::WorkspaceId& ws,
                           std::optional<domain::WebhookId> webhook = std::nullopt) {
  DeliveryListQuery q;
  q.webhook = std::move(webhook);
  return db.deliveries().list(ws, q).total_count;
}

std::vector<ClaimedDelivery> claim_all(Database& db, domain::Timestamp now) {
  return db.deliveries().claim(10, domain::Timestamp{now.unix_ms + 10'000},
                               [](std::string_view) { return true; });
}

AttemptReport succeeded(const ClaimedDelivery& claimed, domain::Timestamp at) {
  return {claimed.workspace,
          claimed.id,
          claimed.webhook,
          {at, 204, 5, std::nullopt, ""},
          domain::DeliveryStatus::kSucceeded,
          std::nullopt,
          std::nullopt};
}

TEST_P(StoreTest, ATestEventIsOnePendingDeliveryToThatEndpointOnly) {
  // Subscribed to another type only: the button sends regardless of `events`.
  const auto target = make_endpoint(*store_, ws_, {"lead.created"});
  const auto sibling = make_endpoint(*store_, ws_);
  make_endpoint(*store_, other_ws_);
  const auto generation = store_->delivery_signal().generation();

  const auto delivery = sent(store_->deliveries().send_test_event(ws_, target.id));

  EXPECT_EQ(delivery.webhook_id, target.id);
  EXPECT_EQ(delivery.event_type, "webhook.test");
  EXPECT_EQ(delivery.status, domain::DeliveryStatus::kPending);
  EXPECT_EQ(delivery.attempt_count, 0);
  EXPECT_EQ(delivery.next_attempt_at, clock_.now());
  EXPECT_EQ(delivery.created_at, clock_.now());
  EXPECT_FALSE(delivery.last_attempt_at);
  // The workers are woken after the commit, as for an event's deliveries.
  EXPECT_NE(store_->delivery_signal().generation(), generation);

  EXPECT_EQ(deliveries_of(*store_, ws_), 1);
  EXPECT_EQ(deliveries_of(*store_, ws_, target.id), 1);
  EXPECT_EQ(deliveries_of(*store_, ws_, sibling.id), 0);
  EXPECT_EQ(deliveries_of(*store_, other_ws_), 0);
  const auto listed = store_->deliveries().get(ws_, delivery.id);
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->event_id, delivery.event_id);
  EXPECT_TRUE(listed->attempts.empty());
  DeliveryListQuery by_event;
  by_event.event = delivery.event_id;
  EXPECT_EQ(store_->deliveries().list(ws_, by_event).total_count, 1);
}

TEST_P(StoreTest, ATestEventIsNotInTheEventsFeed) {
  const auto hook = make_endpoint(*store_, ws_);
  const auto delivery = sent(store_->deliveries().send_test_event(ws_, hook.id));
  // A later change is in the feed; the test event before it is not, nor a position in it.
  store_->leads().create(ws_, lead_named("Ada"));

  EventListQuery q;
  q.page.limit = 100;
  std::vector<std::string> types;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (types.empty() && std::chrono::steady_clock::now() < deadline) {
    // On PostgreSQL the feed may lag a moment behind the commit (see store_events_test.cpp).
    const auto page = std::get<Page<StoredEvent>>(store_->events().list(ws_, q));
    for (const auto& e : page.items) {
      types.emplace_back(json::parse(e.body).at("type").as_string());
    }
  }
  EXPECT_EQ(types, (std::vector<std::string>{"lead.created"}));
  EXPECT_FALSE(store_->events().get(ws_, delivery.event_id));
  EventListQuery after;
  after.after = delivery.event_id;
  EXPECT_TRUE(std::holds_alternative<UnknownAfterEvent>(store_->events().list(ws_, after)));
}

TEST_P(StoreTest, AClaimedTestEventCarriesItsOwnEventEnvelope) {
  const auto hook = make_endpoint(*store_, ws_);
  const auto delivery = sent(store_->deliveries().send_test_event(ws_, hook.id));

  const auto claimed = claim_all(*store_, clock_.now());
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].id, delivery.id);
  EXPECT_EQ(claimed[0].webhook, hook.id);
  EXPECT_EQ(claimed[0].url, "https://hooks.example.com/test");
  EXPECT_EQ(claimed[0].event_id, delivery.event_id.value);
  EXPECT_EQ(claimed[0].secrets,
            (std::vector<std::string>{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}));
  // The envelope of every event: id (= the webhook-id header), type, timestamp, data.
  const auto body = json::parse(claimed[0].body).as_object();
  EXPECT_EQ(body, json::parse(R"({"id":")" + delivery.event_id.value +
                              R"(","type":"webhook.test","timestamp":")" +
                              domain::format_iso8601(clock_.now()) + R"(","data":{}})"));
  // Keys in the order of every other event's body.
  EXPECT_EQ(claimed[0].body.rfind(R"({"id":")", 0), 0u);
  EXPECT_TRUE(claim_all(*store_, clock_.now()).empty());
}

TEST_P(StoreTest, ARedeliveredTestEventSendsTheSameBytes) {
  const auto hook = make_endpoint(*store_, ws_);
  const auto delivery = sent(store_->deliveries().send_test_event(ws_, hook.id));
  const auto first = claim_all(*store_, clock_.now());
  ASSERT_EQ(first.size(), 1u);
  store_->deliveries().report({succeeded(first[0], clock_.now())});

  clock_.advance(std::chrono::minutes(5));
  const auto retried = store_->deliveries().retry(ws_, delivery.id);
  ASSERT_TRUE(std::holds_alternative<domain::Delivery>(retried));
  EXPECT_EQ(std::get<domain::Delivery>(retried).status, domain::DeliveryStatus::kPending);
  const auto again = claim_all(*store_, clock_.now());
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].body, first[0].body);
  EXPECT_EQ(json::parse(again[0].body).at("id").as_string(), delivery.event_id.value);
  EXPECT_EQ(again[0].attempts_before, 1);

  const auto logged = store_->deliveries().get(ws_, delivery.id);
  ASSERT_TRUE(logged);
  ASSERT_EQ(logged->attempts.size(), 1u);
  EXPECT_EQ(logged->attempts[0].status_code, 204);
}

TEST_P(StoreTest, ATestEventToAnEndpointOfNoOtherWorkspaceIsNotFound) {
  const auto mine = make_endpoint(*store_, ws_);
  const auto theirs = make_endpoint(*store_, other_ws_);
  const domain::WebhookId unknown{"01a2168f-5b20-7c3d-8e4f-90a1b2c3d4e5"};

  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->deliveries().send_test_event(ws_, unknown)));
  EXPECT_TRUE(
      std::holds_alternative<NotFound>(store_->deliveries().send_test_event(ws_, theirs.id)));
  EXPECT_TRUE(
      std::holds_alternative<NotFound>(store_->deliveries().send_test_event(other_ws_, mine.id)));
  ASSERT_TRUE(store_->webhooks().remove(ws_, mine.id));
  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->deliveries().send_test_event(ws_, mine.id)));
  EXPECT_EQ(deliveries_of(*store_, ws_), 0);
  EXPECT_EQ(deliveries_of(*store_, other_ws_), 0);
}

TEST_P(StoreTest, ATestEventToADisabledEndpointIsRefusedAsARedeliveryIs) {
  const auto hook = make_endpoint(*store_, ws_);
  domain::WebhookPatch off;
  off.enabled = false;
  store_->webhooks().update(ws_, hook.id, off);

  EXPECT_TRUE(
      std::holds_alternative<EndpointDisabled>(store_->deliveries().send_test_event(ws_, hook.id)));
  EXPECT_EQ(deliveries_of(*store_, ws_), 0);
}

TEST_P(StoreTest, ThePurgeTakesExpiredTestEventsAtTheEventsRetention) {
  const auto hook = make_endpoint(*store_, ws_);
  const auto old_test = sent(store_->deliveries().send_test_event(ws_, hook.id));
  const auto claimed = claim_all(*store_, clock_.now());
  ASSERT_EQ(claimed.size(), 1u);
  store_->deliveries().report({succeeded(claimed[0], clock_.now())});
  store_->leads().create(ws_, lead_named("Old"));

  clock_.advance(std::chrono::hours(24));
  const auto new_test = sent(store_->deliveries().send_test_event(ws_, hook.id));
  const domain::Timestamp cutoff{clock_.now().unix_ms - 1000};
  // One batch of one at a time: the old event, then the old test event, then nothing.
  EXPECT_EQ(store_->events().purge_older_than(cutoff, 1), 1);
  EXPECT_EQ(deliveries_of(*store_, ws_), 2);
  EXPECT_EQ(store_->events().purge_older_than(cutoff, 1), 1);
  EXPECT_EQ(store_->events().purge_older_than(cutoff, 1), 0);

  EXPECT_FALSE(store_->deliveries().get(ws_, old_test.id));
  EXPECT_TRUE(store_->deliveries().get(ws_, new_test.id));
  EXPECT_EQ(deliveries_of(*store_, ws_), 1);
  // A batch with room left after the events takes test events too.
  EXPECT_EQ(store_->events().purge_older_than(domain::Timestamp{clock_.now().unix_ms + 1}, 500), 1);
  EXPECT_EQ(deliveries_of(*store_, ws_), 0);
}

}  // namespace
}  // namespace leadline::store::testing
