// The outbox: every write records its event in its own transaction (and nothing when it changes
// nothing or is undone), deliveries go to subscribed, enabled endpoints only, the feed pages in
// commit order, claims and reports move a delivery along, and the purge takes expired events
// with their deliveries. On both backends.
#include <boost/json/parse.hpp>
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

namespace json = boost::json;

// The feed once it shows `expected` events. On PostgreSQL the feed holds events back while a
// transaction that could still precede them runs, and the tests' server is shared with other
// suites, so a read right after a write may lag by a moment (never skip).
std::vector<json::object> feed(Database& db, const domain::WorkspaceId& ws, std::size_t expected,
                               EventListQuery q = {}) {
  q.page.limit = 100;
  std::vector<json::object> out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  do {
    out.clear();
    auto page = std::get<Page<StoredEvent>>(db.events().list(ws, q));
    for (const auto& e : page.items) out.push_back(json::parse(e.body).as_object());
    if (out.size() >= expected) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < deadline);
  return out;
}

std::vector<std::string> types_of(const std::vector<json::object>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.emplace_back(e.at("type").as_string());
  return out;
}

domain::NewWebhook endpoint(std::vector<std::string> events = {"*"}) {
  domain::NewWebhook w;
  w.url = "https://hooks.example.com/x";
  w.events = std::move(events);
  w.secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  return w;
}

TEST_P(StoreTest, EveryLeadWriteRecordsItsEventAndANoOpPatchRecordsNone) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  domain::LeadPatch patch;
  patch.pipeline_stage = domain::PipelineStage::kQualified;
  patch.tags = domain::Tags{"vip"};
  store_->leads().update(ws_, lead.id, patch);
  store_->leads().update(ws_, lead.id, patch);  // changes nothing
  ASSERT_TRUE(store_->leads().remove(ws_, lead.id));

  const auto events = feed(*store_, ws_, 3);
  ASSERT_EQ(types_of(events),
            (std::vector<std::string>{"lead.created", "lead.updated", "lead.deleted"}));
  EXPECT_EQ(events[1].at("previous_attributes"),
            json::parse(R"({"pipeline_stage":"new","tags":[]})"));
  EXPECT_FALSE(events[0].contains("previous_attributes"));
  EXPECT_EQ(events[1].at("data").at("pipeline_stage"), "qualified");
  // The before-image of a delete is the record as it was.
  EXPECT_EQ(events[2].at("data").at("tags"), json::parse(R"(["vip"])"));
  EXPECT_TRUE(feed(*store_, other_ws_, 0).empty());
}

TEST_P(StoreTest, ARefusedWriteRecordsNoEvent) {
  store_->contacts().create(ws_, contact_named("Grace", "grace@example.com"));
  auto again = store_->contacts().create(ws_, contact_named("Other", "GRACE@example.com"));
  ASSERT_TRUE(std::holds_alternative<EmailConflict>(again));
  // An import rolled back by its second line records nothing of its first.
  std::vector<ImportItem> items{{1, lead_named("Kept?")},
                                {2, contact_named("Dup", "grace@example.com")}};
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(store_->imports().apply(ws_, items)));
  EXPECT_EQ(types_of(feed(*store_, ws_, 1)), (std::vector<std::string>{"contact.created"}));
}

TEST_P(StoreTest, DeliveriesGoToSubscribedEnabledEndpointsOfTheWorkspace) {
  const auto all = std::get<domain::WebhookEndpoint>(store_->webhooks().create(ws_, endpoint()));
  const auto leads_only =
      std::get<domain::WebhookEndpoint>(store_->webhooks().create(ws_, endpoint({"lead.created"})));
  auto off = endpoint();
  off.enabled = false;
  store_->webhooks().create(ws_, off);
  store_->webhooks().create(other_ws_, endpoint());

  store_->leads().create(ws_, lead_named("Ada"));
  store_->contacts().create(ws_, contact_named("Grace", "g@example.com"));

  DeliveryListQuery q;
  q.page.limit = 100;
  EXPECT_EQ(store_->deliveries().list(ws_, q).total_count, 3);
  q.webhook = leads_only.id;
  const auto page = store_->deliveries().list(ws_, q);
  ASSERT_EQ(page.items.size(), 1u);
  EXPECT_EQ(page.items[0].event_type, "lead.created");
  q.webhook = all.id;
  EXPECT_EQ(store_->deliveries().list(ws_, q).total_count, 2);
  EXPECT_EQ(store_->deliveries().list(other_ws_, DeliveryListQuery{}).total_count, 0);
}

TEST_P(StoreTest, AClaimedDeliveryIsNotClaimedAgainUntilReportedOrItsLeaseRunsOut) {
  store_->webhooks().create(ws_, endpoint());
  store_->leads().create(ws_, lead_named("Ada"));
  const auto admit_all = [](std::string_view) { return true; };
  const domain::Timestamp lease{clock_.now().unix_ms + 10'000};

  auto claimed = store_->deliveries().claim(10, lease, admit_all);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].attempts_before, 0);
  EXPECT_EQ(json::parse(claimed[0].body).at("type"), "lead.created");
  EXPECT_TRUE(store_->deliveries().claim(10, lease, admit_all).empty());

  // A failed attempt with a retry due later: not claimable now, claimable then.
  AttemptReport report{ws_,
                       claimed[0].id,
                       claimed[0].webhook,
                       {clock_.now(), 500, 12, std::string("HTTP 500"), "oops"},
                       domain::DeliveryStatus::kPending,
                       domain::Timestamp{clock_.now().unix_ms + 5'000},
                       std::nullopt};
  store_->deliveries().report({report});
  EXPECT_TRUE(store_->deliveries().claim(10, lease, admit_all).empty());
  clock_.advance(std::chrono::seconds(6));
  claimed = store_->deliveries().claim(10, lease, admit_all);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].attempts_before, 1);

  // The lease runs out (the instance died): claimable again.
  clock_.advance(std::chrono::seconds(20));
  ASSERT_EQ(store_->deliveries()
                .claim(10, domain::Timestamp{clock_.now().unix_ms + 10'000}, admit_all)
                .size(),
            1u);

  const auto delivery = store_->deliveries().get(ws_, claimed[0].id);
  ASSERT_TRUE(delivery);
  EXPECT_EQ(delivery->attempt_count, 1);
  ASSERT_EQ(delivery->attempts.size(), 1u);
  EXPECT_EQ(delivery->attempts[0].status_code, 500);
  EXPECT_EQ(delivery->attempts[0].response_excerpt, "oops");
}

TEST_P(StoreTest, AGoneEndpointIsDisabledAndItsDeliveriesWait) {
  const auto hook = std::get<domain::WebhookEndpoint>(store_->webhooks().create(ws_, endpoint()));
  store_->leads().create(ws_, lead_named("Ada"));
  store_->leads().create(ws_, lead_named("Bob"));
  const auto admit_one = [n = 0](std::string_view) mutable { return n++ == 0; };
  auto claimed =
      store_->deliveries().claim(10, domain::Timestamp{clock_.now().unix_ms + 10'000}, admit_one);
  ASSERT_EQ(claimed.size(), 1u);
  const AttemptReport gone{ws_,
                           claimed[0].id,
                           hook.id,
                           {clock_.now(), 410, 3, "HTTP 410", ""},
                           domain::DeliveryStatus::kPending,
                           clock_.now(),
                           "gone"};
  store_->deliveries().report({gone});
  const auto after = store_->webhooks().get(ws_, hook.id);
  ASSERT_TRUE(after);
  EXPECT_FALSE(after->enabled);
  EXPECT_EQ(after->disabled_reason, "gone");
  EXPECT_TRUE(store_->deliveries()
                  .claim(10, domain::Timestamp{clock_.now().unix_ms + 10'000},
                         [](std::string_view) { return true; })
                  .empty());
  EXPECT_TRUE(
      std::holds_alternative<EndpointDisabled>(store_->deliveries().retry(ws_, claimed[0].id)));
}

TEST_P(StoreTest, TheFeedPagesAfterAnEventAndFiltersByTypeAndFamily) {
  for (int i = 0; i < 5; ++i) store_->leads().create(ws_, lead_named("L" + std::to_string(i)));
  store_->contacts().create(ws_, contact_named("C", "c@example.com"));
  const auto all = feed(*store_, ws_, 6);
  ASSERT_EQ(all.size(), 6u);

  EventListQuery after;
  after.after = domain::EventId{std::string(all[2].at("id").as_string())};
  const auto rest = feed(*store_, ws_, 3, after);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].at("id"), all[3].at("id"));

  EventListQuery family;
  family.type_prefix = "contact.";
  EXPECT_EQ(types_of(feed(*store_, ws_, 1, family)), (std::vector<std::string>{"contact.created"}));
  EventListQuery exact;
  exact.type = "lead.created";
  EXPECT_EQ(feed(*store_, ws_, 5, exact).size(), 5u);

  // An event of another workspace is no position in this one.
  EventListQuery foreign;
  foreign.after = after.after;
  EXPECT_TRUE(std::holds_alternative<UnknownAfterEvent>(store_->events().list(other_ws_, foreign)));
}

TEST_P(StoreTest, ThePurgeTakesExpiredEventsWithTheirDeliveries) {
  store_->webhooks().create(ws_, endpoint());
  store_->leads().create(ws_, lead_named("Old"));
  clock_.advance(std::chrono::hours(24));
  store_->leads().create(ws_, lead_named("New"));
  const domain::Timestamp cutoff{clock_.now().unix_ms - 1000};
  EXPECT_EQ(store_->events().purge_older_than(cutoff, 500), 1);
  EXPECT_EQ(store_->events().purge_older_than(cutoff, 500), 0);
  const auto left = feed(*store_, ws_, 1);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].at("data").at("visitor_name"), "New");
  EXPECT_EQ(store_->deliveries().list(ws_, DeliveryListQuery{}).total_count, 1);
}

}  // namespace
}  // namespace leadline::store::testing
