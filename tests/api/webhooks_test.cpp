// Webhook endpoints (/webhooks) and their deliveries (/webhook-deliveries), observed from a real
// HTTP receiver: CRUD and validation, Standard Webhooks headers and signatures (checked with
// OpenSSL), retries, 410, redirects, timeouts, secret rotation, redelivery, subscriptions,
// disabled endpoints, blocked addresses and workspace isolation.

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <thread>

#include "support/webhook_fixture.hpp"

namespace leadline_test {
namespace {

class WebhooksTest : public WebhookApiTest {
 protected:
  // Waits a little longer than a whole retry schedule: what has not arrived by then won't.
  static void settle() {
    std::this_thread::sleep_for(kWebhookFirstRetry + kWebhookSecondRetry + 600ms);
  }

  // The requests at `path` that carry this event.
  std::vector<ReceivedRequest> arrivals(const WebhookReceiver& receiver, const std::string& path,
                                        const std::string& event_id, std::size_t n = 1) {
    receiver.wait_until(
        [&](const std::vector<ReceivedRequest>& all) {
          std::size_t c = 0;
          for (const auto& r : all) c += r.path == path && r.header("webhook-id") == event_id;
          return c >= n;
        },
        kDeliveryWait);
    return with_webhook_id(receiver.requests(path), event_id);
  }
};

const std::string kAllEventTypes[] = {
    "lead.created",         "lead.updated",         "lead.deleted",
    "contact.created",      "contact.updated",      "contact.deleted",
    "conversation.created", "conversation.updated", "message.created"};

bool secret_is_well_formed(const json::value& secret, std::size_t bytes = 32) {
  if (!secret.is_string()) return false;
  auto decoded = webhook_secret_bytes(std::string(secret.as_string()));
  return decoded && decoded->size() == bytes;
}

// Whether the delivery has had at least one attempt recorded.
bool attempted(const json::object& delivery) {
  return delivery.at("attempt_count").is_int64() && delivery.at("attempt_count").as_int64() >= 1;
}

bool has_time_out(const json::value& error) {
  static const std::regex kTimeout("time[ds]? ?-?out", std::regex::icase);
  return error.is_string() && std::regex_search(std::string(error.as_string()), kTimeout);
}

// --- Endpoints: create, read, update, delete ---

TEST_F(WebhooksTest, CreateAnswers201WithTheEndpointDefaultsAndAFreshSecret) {
  HttpResponse r = post("/webhooks", json::object{{"url", "https://example.com/hooks"}});
  ASSERT_STATUS(r, 201u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_TRUE(has_json_content_type(r));
  const auto& d = r.data().as_object();
  KeySet expected = webhook_endpoint_keys();
  expected.insert("secret");
  EXPECT_EQ(keys_of(d), expected) << r.describe();
  EXPECT_TRUE(is_uuid_v7(str(d.at("id"))));
  EXPECT_EQ(d.at("url"), "https://example.com/hooks");
  EXPECT_EQ(d.at("events"), (json::array{"*"}));
  EXPECT_EQ(d.at("description"), "");
  EXPECT_EQ(d.at("enabled"), true);
  EXPECT_TRUE(d.at("disabled_reason").is_null());
  EXPECT_TRUE(is_timestamp(str(d.at("created_at"))));
  EXPECT_TRUE(is_timestamp(str(d.at("updated_at"))));
  EXPECT_TRUE(secret_is_well_formed(d.at("secret"))) << d.at("secret");

  // Each endpoint has its own secret.
  json::object other = create_webhook({{"url", "https://example.com/other"}});
  EXPECT_NE(other.at("secret"), d.at("secret"));
}

TEST_F(WebhooksTest, CreateTakesEventsDescriptionEnabledAndAGivenSecret) {
  std::string secret = "whsec_" + base64_encode(std::string(24, '\x01'));
  json::object d =
      create_webhook({{"url", "https://example.com/h"},
                      {"events", json::array{"lead.created", "contact.deleted", "lead.created"}},
                      {"description", "CRM sync"},
                      {"enabled", true},
                      {"secret", secret}});
  std::multiset<std::string> events;
  for (const auto& e : d.at("events").as_array()) events.insert(str(e));
  EXPECT_EQ(events, (std::multiset<std::string>{"lead.created", "contact.deleted"}));
  EXPECT_EQ(d.at("description"), "CRM sync");
  EXPECT_EQ(d.at("secret"), json::value(secret));

  std::string big = "whsec_" + base64_encode(std::string(64, 'k'));
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "https://example.com/b"}, {"secret", big}}),
                201u);

  json::array every;
  for (const auto& t : kAllEventTypes) every.push_back(json::value(t));
  json::object all = create_webhook({{"url", "https://example.com/all"}, {"events", every}});
  EXPECT_EQ(all.at("events").as_array().size(), std::size(kAllEventTypes));

  json::object off = create_webhook({{"url", "https://example.com/off"}, {"enabled", false}});
  EXPECT_EQ(off.at("enabled"), false);
}

TEST_F(WebhooksTest, GetOneAndListShowNoSecretAndListIsNewestFirst) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    // Apart by a few ms: within one ms the order falls to the ids, which UUIDv7 leaves random.
    std::this_thread::sleep_for(3ms);
    ids.push_back(
        str(create_webhook({{"url", "https://example.com/" + std::to_string(i)}}).at("id")));
  }
  HttpResponse one = get("/webhooks?id=" + ids[1]);
  ASSERT_STATUS(one, 200u);
  ASSERT_TRUE(is_single_envelope(one));
  EXPECT_EQ(keys_of(one.data()), webhook_endpoint_keys());
  EXPECT_EQ(one.data().as_object().at("url"), "https://example.com/1");

  HttpResponse list = get("/webhooks");
  ASSERT_STATUS(list, 200u);
  ASSERT_TRUE(is_list_envelope(list));
  EXPECT_EQ(total_count(list), 3);
  EXPECT_EQ(ids_of(list.data().as_array()), (std::vector<std::string>{ids[2], ids[1], ids[0]}));
  for (const auto& item : list.data().as_array()) {
    EXPECT_EQ(keys_of(item), webhook_endpoint_keys());
  }
  EXPECT_EQ(list.data().as_array()[1], one.data());

  HttpResponse paged = get("/webhooks?limit=2");
  ASSERT_STATUS(paged, 200u);
  EXPECT_EQ(ids_of(paged.data().as_array()), (std::vector<std::string>{ids[2], ids[1]}));
  EXPECT_EQ(ids_of(list_all("webhooks", "", {}, 1)),
            (std::vector<std::string>{ids[2], ids[1], ids[0]}));
  EXPECT_EQ(ids_of(get("/webhooks?limit=2&page=2").data().as_array()),
            (std::vector<std::string>{ids[0]}));

  EXPECT_TRUE(is_error(get("/webhooks?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(get("/webhooks?id=nope"), 400));
  EXPECT_TRUE(is_error(get("/webhooks?bogus=1"), 400, "bogus"));
}

TEST_F(WebhooksTest, PatchUpdatesTheGivenFieldsOnly) {
  json::object w = create_webhook({{"url", "https://example.com/a"}, {"description", "d"}});
  std::string id = str(w.at("id"));
  std::this_thread::sleep_for(5ms);
  HttpResponse r = patch(
      "/webhooks?id=" + id,
      json::object{{"url", "https://example.com/b"}, {"events", json::array{"lead.deleted"}}});
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), webhook_endpoint_keys());
  EXPECT_EQ(d.at("url"), "https://example.com/b");
  EXPECT_EQ(d.at("events"), (json::array{"lead.deleted"}));
  EXPECT_EQ(d.at("description"), "d");
  EXPECT_EQ(d.at("enabled"), true);
  EXPECT_EQ(d.at("created_at"), w.at("created_at"));
  EXPECT_GT(str(d.at("updated_at")), str(w.at("updated_at")));
  EXPECT_EQ(r.data(), json::value(get_webhook(id)));

  ASSERT_STATUS(patch("/webhooks?id=" + id, json::object{{"description", ""}}), 200u);
  EXPECT_EQ(get_webhook(id).at("description"), "");
  ASSERT_STATUS(patch("/webhooks?id=" + id, json::object{{"events", json::array{"*"}}}), 200u);
  EXPECT_EQ(get_webhook(id).at("events"), (json::array{"*"}));

  // The secret is set on create only and changed by rotation.
  EXPECT_TRUE(
      is_error(patch("/webhooks?id=" + id,
                     json::object{{"secret", "whsec_" + base64_encode(std::string(32, 'x'))}}),
               400, "secret"));
  EXPECT_TRUE(is_error(patch("/webhooks?id=" + id, json::object{{"disabled_reason", nullptr}}), 400,
                       "disabled_reason"));
  EXPECT_TRUE(is_error(patch("/webhooks?id=" + id, json::object{{"url", "ftp://example.com/"}}),
                       400, "url"));
  EXPECT_TRUE(
      is_error(patch("/webhooks?id=" + id, json::object{{"enabled", "yes"}}), 400, "enabled"));
  EXPECT_TRUE(
      is_error(patch("/webhooks?id=" + kAbsentId, json::object{{"description", "x"}}), 404));
  EXPECT_TRUE(is_error(patch("/webhooks", json::object{{"description", "x"}}), 400));
}

TEST_F(WebhooksTest, DeleteRemovesTheEndpointAndDropsItsPendingDeliveries) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  // A Retry-After of an hour keeps the delivery pending after its first attempt.
  receiver.set_default(ReceiverAnswer{503, {{"Retry-After", "3600"}}, "later"}, path);
  json::object w = create_webhook_to(receiver.url(path));
  std::string id = str(w.at("id"));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string delivery = str(delivery_of(id, str(event.at("id"))).at("id"));
  json::object d = wait_delivery(delivery, attempted);
  ASSERT_EQ(d.at("attempt_count"), 1) << json::serialize(d);
  EXPECT_EQ(d.at("status"), "pending");
  ASSERT_TRUE(d.at("next_attempt_at").is_string()) << json::serialize(d);
  EXPECT_GE(timestamp_millis(str(d.at("next_attempt_at"))), now_millis() + 3'500'000)
      << "Retry-After: 3600 on a 503 puts the next attempt at least an hour away";

  HttpResponse r = del("/webhooks?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(r.data(), (json::object{{"deleted", true}, {"id", id}}));
  EXPECT_TRUE(is_error(get("/webhooks?id=" + id), 404));
  EXPECT_TRUE(is_error(del("/webhooks?id=" + id), 404));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?id=" + delivery), 404));
  EXPECT_TRUE(deliveries("event_id=" + str(event.at("id"))).empty());
  EXPECT_EQ(list_all("webhooks"), json::array());
  // Later events go nowhere.
  create_lead({{"visitor_name", "Bob"}});
  wait_events(2);
  EXPECT_TRUE(deliveries().empty());
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(receiver.count(path), 1u) << receiver.describe();
}

TEST_F(WebhooksTest, AWorkspaceHasAtMostSixteenEndpoints) {
  std::string first;
  for (int i = 0; i < 16; ++i) {
    std::string id =
        str(create_webhook({{"url", "https://example.com/" + std::to_string(i)}}).at("id"));
    if (i == 0) first = id;
  }
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", "https://example.com/17"}}), 400));
  EXPECT_EQ(list_all("webhooks").size(), 16u);
  // Another workspace has its own sixteen.
  WorkspaceKeys b = make_workspace("B");
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "https://example.com/b"}}, b.rw.key), 201u);
  ASSERT_STATUS(del("/webhooks?id=" + first), 200u);
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "https://example.com/17"}}), 201u);
}

TEST_F(WebhooksTest, UrlMustBeAnAbsoluteHttpUrlWithoutUserInfoOrFragment) {
  std::string host = "https://example.com/";
  std::string at_limit = host + std::string(2048 - host.size(), 'p');
  ASSERT_EQ(at_limit.size(), 2048u);
  EXPECT_STATUS(post("/webhooks", json::object{{"url", at_limit}}), 201u);
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "https://example.com:8443/a?b=c"}}), 201u);
  // This server runs with --webhook-allow-http.
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "http://example.com/plain"}}), 201u);

  for (const std::string& bad :
       {at_limit + "p", std::string("https://user:pw@example.com/"),
        std::string("https://user@example.com/"), std::string("https://example.com/#frag"),
        std::string("ftp://example.com/"), std::string("example.com/hook"), std::string("/hook"),
        std::string("not a url"), std::string("https://"), std::string("")}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", bad}}), 400, "url"));
  }
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", 5}}), 400, "url"));
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", nullptr}}), 400, "url"));
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"events", json::array{"*"}}}), 400, "url"));
  EXPECT_EQ(list_all("webhooks").size(), 3u);
}

TEST_F(WebhooksTest, EventsMustBeExactTypesOrTheWildcardAlone) {
  for (const json::value& bad :
       {json::value(json::array{}), json::value(json::array{"lead.bogus"}),
        json::value(json::array{"lead.*"}), json::value(json::array{"*", "lead.created"}),
        json::value(json::array{"lead.created", "*"}), json::value(json::array{"Lead.Created"}),
        json::value(json::array{1}), json::value(json::array{nullptr}), json::value("*"),
        json::value("lead.created")}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(
        is_error(post("/webhooks", json::object{{"url", "https://example.com/"}, {"events", bad}}),
                 400, "events"));
  }
  json::object w = create_webhook({{"url", "https://example.com/"}});
  EXPECT_TRUE(is_error(
      patch("/webhooks?id=" + str(w.at("id")), json::object{{"events", json::array{"contact.*"}}}),
      400, "events"));
  EXPECT_EQ(list_all("webhooks").size(), 1u);
}

TEST_F(WebhooksTest, DescriptionSecretAndUnknownFieldsAreValidated) {
  const std::string url = "https://example.com/";
  EXPECT_STATUS(post("/webhooks", json::object{{"url", url}, {"description", repeat("é", 200)}}),
                201u);
  EXPECT_TRUE(
      is_error(post("/webhooks", json::object{{"url", url}, {"description", repeat("é", 201)}}),
               400, "description"));
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", url}, {"description", 1}}), 400,
                       "description"));
  EXPECT_TRUE(
      is_error(post("/webhooks", json::object{{"url", url}, {"enabled", "true"}}), 400, "enabled"));
  for (const std::string& bad :
       {"whsec_" + base64_encode(std::string(23, 's')),
        "whsec_" + base64_encode(std::string(65, 's')), base64_encode(std::string(32, 's')),
        std::string("whsec_not*base64"), std::string("whsec_"), std::string("")}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(
        is_error(post("/webhooks", json::object{{"url", url}, {"secret", bad}}), 400, "secret"));
  }
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", url}, {"bogus", 1}}), 400, "bogus"));
  EXPECT_TRUE(
      is_error(post("/webhooks", json::object{{"url", url}, {"id", kAbsentId}}), 400, "id"));
  EXPECT_TRUE(is_error(send("POST", "/webhooks", std::string("[]")), 400));
  EXPECT_TRUE(is_error(send("POST", "/webhooks", std::string("{")), 400));
  EXPECT_EQ(list_all("webhooks").size(), 1u);
}

TEST_F(WebhooksTest, ReadKeysReadAndWriteKeysWrite) {
  json::object w = create_webhook({{"url", "https://example.com/"}});
  std::string id = str(w.at("id"));
  const std::string ro = ws_ro().key;
  EXPECT_STATUS(get("/webhooks", ro), 200u);
  EXPECT_STATUS(get("/webhooks?id=" + id, ro), 200u);
  EXPECT_STATUS(get("/webhook-deliveries", ro), 200u);
  for (const HttpResponse& r :
       {post("/webhooks", json::object{{"url", "https://example.com/x"}}, ro),
        patch("/webhooks?id=" + id, json::object{{"description", "x"}}, ro),
        del("/webhooks?id=" + id, ro),
        send("POST", "/webhooks/rotate-secret?id=" + id, std::nullopt, {}, ro),
        send("POST", "/webhook-deliveries/retry?id=" + kAbsentId, std::nullopt, {}, ro)}) {
    EXPECT_TRUE(is_error(r, 403));
    EXPECT_TRUE(has_rate_limit_headers(r, true));
  }
  const std::string wo = ws_wo().key;
  EXPECT_TRUE(is_error(get("/webhooks", wo), 403));
  EXPECT_TRUE(is_error(get("/webhooks?id=" + id, wo), 403));
  EXPECT_TRUE(is_error(get("/webhook-deliveries", wo), 403));
  EXPECT_STATUS(patch("/webhooks?id=" + id, json::object{{"description", "w"}}, wo), 200u);
  EXPECT_TRUE(is_error(get("/webhooks", ""), 401));
  EXPECT_EQ(get_webhook(id).at("description"), "w");
  EXPECT_TRUE(is_error(send("PUT", "/webhooks", std::string("{}")), 405));
  // Scope before validation, as for records.
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"bogus", 1}}, ro), 403));
  EXPECT_TRUE(is_error(get("/webhooks?bogus=1", wo), 403));
}

TEST_F(WebhooksTest, UsageCountsTheNewEndpointsLikeRecords) {
  std::string id = str(create_webhook({{"url", "https://example.com/"}}).at("id"));
  ASSERT_STATUS(get("/webhooks"), 200u);
  ASSERT_STATUS(get("/webhooks?id=" + id), 200u);
  ASSERT_STATUS(patch("/webhooks?id=" + id, json::object{{"description", "d"}}), 200u);
  ASSERT_STATUS(get("/events"), 200u);
  ASSERT_STATUS(get("/webhook-deliveries"), 200u);
  ASSERT_TRUE(is_error(post("/webhooks", json::object{{"url", "ftp://x"}}), 400));
  ASSERT_STATUS(del("/webhooks?id=" + id), 200u);
  // Visible through `leadline keys usage` within 5 seconds.
  auto deadline = std::chrono::steady_clock::now() + 5500ms;
  json::object u;
  do {
    u = as_obj(cli_json({"keys", "usage", "--id", ws_.rw.id}));
    if (u.at("today").is_int64() && u.at("today").as_int64() >= 8) break;
    std::this_thread::sleep_for(200ms);
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(u.at("today"), 8) << json::serialize(u);
  EXPECT_EQ(u.at("by_endpoint"), (json::object{{"POST /webhooks", 2},
                                               {"GET /webhooks", 2},
                                               {"PATCH /webhooks", 1},
                                               {"DELETE /webhooks", 1},
                                               {"GET /events", 1},
                                               {"GET /webhook-deliveries", 1}}))
      << json::serialize(u);
  EXPECT_NEAR(u.at("error_rate").to_number<double>(), 1.0 / 8.0, 1e-6);
}

// --- Delivery: what arrives ---

TEST_F(WebhooksTest, EveryEventArrivesSignedWithTheEventAsItsBody) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  json::object w = create_webhook_to(receiver.url(path));
  std::string secret = str(w.at("secret"));

  std::string lead = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  ASSERT_STATUS(patch("/leads?id=" + lead, json::object{{"pipeline_stage", "qualified"}}), 200u);
  ASSERT_STATUS(del("/leads?id=" + lead), 200u);
  std::string contact = str(create_contact({{"first_name", "Grace"}}).at("id"));
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"last_name", "Hopper"}}), 200u);
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  import_lines(ws_.id, {conversation_line({{"first_name", "Ada"}},
                                          {message_line("Hi", timestamp_from_now(-2000ms))},
                                          timestamp_from_now(-3000ms))});
  std::string conv = conversation_ids().at(0);
  ASSERT_STATUS(patch("/conversations?id=" + conv, json::object{{"status", "archived"}}), 200u);

  // 6 + contact, conversation and message of the import + conversation.updated.
  json::array all = wait_events(10);
  ASSERT_EQ(all.size(), 10u) << json::serialize(all);
  std::set<std::string> types;
  for (const auto& e : all) types.insert(str(e.as_object().at("type")));
  EXPECT_EQ(types, std::set<std::string>(std::begin(kAllEventTypes), std::end(kAllEventTypes)));

  receiver.wait_for(all.size(), kDeliveryWait, path);
  for (const auto& e : all) {
    std::string id = str(e.as_object().at("id"));
    SCOPED_TRACE(str(e.as_object().at("type")) + " " + id);
    auto got = with_webhook_id(receiver.requests(path), id);
    ASSERT_EQ(got.size(), 1u) << receiver.describe();
    EXPECT_TRUE(is_webhook_of(got[0], e, {secret}));
    EXPECT_EQ(got[0].target, path);
  }
  EXPECT_EQ(receiver.count(path), all.size()) << receiver.describe();

  // The log says so.
  for (const auto& e : all) {
    json::object d =
        wait_delivery(str(delivery_of(str(w.at("id")), str(e.as_object().at("id"))).at("id")),
                      [](const json::object& d) { return d.at("status") == "succeeded"; });
    EXPECT_EQ(d.at("status"), "succeeded") << json::serialize(d);
    EXPECT_EQ(d.at("event_type"), e.as_object().at("type"));
    EXPECT_EQ(d.at("attempt_count"), 1);
    EXPECT_EQ(d.at("last_status_code"), 200);
  }
}

TEST_F(WebhooksTest, TheSecretGivenAtCreationSignsTheDeliveries) {
  WebhookReceiver receiver;
  std::string secret = "whsec_" + base64_encode("0123456789abcdefghijklmnopqrstuv");
  json::object w = create_webhook({{"url", receiver.url(hook_path())}, {"secret", secret}});
  create_contact({{"first_name", "Grace"}});
  json::object event = last_event("contact.created");
  auto got = arrivals(receiver, hook_path(), str(event.at("id")));
  ASSERT_EQ(got.size(), 1u) << receiver.describe();
  EXPECT_TRUE(is_webhook_of(got[0], event, {secret}));
}

TEST_F(WebhooksTest, EachEndpointGetsOnlyTheTypesItSubscribedTo) {
  WebhookReceiver receiver;
  const std::string pa = hook_path("a"), pb = hook_path("b"), pall = hook_path("all");
  std::string a = str(create_webhook_to(receiver.url(pa), {"lead.created"}).at("id"));
  std::string b =
      str(create_webhook_to(receiver.url(pb), {"lead.deleted", "contact.deleted"}).at("id"));
  std::string all = str(create_webhook_to(receiver.url(pall)).at("id"));

  std::string lead = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  ASSERT_STATUS(patch("/leads?id=" + lead, json::object{{"need_summary", "x"}}), 200u);
  ASSERT_STATUS(del("/leads?id=" + lead), 200u);
  std::string contact = str(create_contact({{"first_name", "Grace"}}).at("id"));
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  json::array evs = wait_events(5);
  ASSERT_EQ(evs.size(), 5u);

  // Deliveries are made with their events: the log is complete once the feed is.
  auto types_delivered = [&](const std::string& webhook) {
    std::multiset<std::string> out;
    for (const auto& d : deliveries("webhook_id=" + webhook)) {
      out.insert(str(d.as_object().at("event_type")));
    }
    return out;
  };
  EXPECT_EQ(types_delivered(a), (std::multiset<std::string>{"lead.created"}));
  EXPECT_EQ(types_delivered(b), (std::multiset<std::string>{"lead.deleted", "contact.deleted"}));
  EXPECT_EQ(types_delivered(all).size(), 5u);

  ASSERT_TRUE(receiver.wait_for(5, kDeliveryWait, pall)) << receiver.describe();
  ASSERT_TRUE(receiver.wait_for(2, kDeliveryWait, pb)) << receiver.describe();
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, pa)) << receiver.describe();
  std::this_thread::sleep_for(300ms);
  auto at_a = receiver.requests(pa);
  ASSERT_EQ(at_a.size(), 1u) << receiver.describe();
  EXPECT_EQ(json::parse(at_a[0].body).as_object().at("type"), "lead.created");
  EXPECT_EQ(receiver.count(pb), 2u) << receiver.describe();
  EXPECT_EQ(receiver.count(pall), 5u) << receiver.describe();
  // One event to several endpoints: the same webhook-id everywhere.
  std::string created = str(evs[0].as_object().at("id"));
  EXPECT_EQ(at_a[0].header("webhook-id"), created);
  EXPECT_EQ(with_webhook_id(receiver.requests(pall), created).size(), 1u);
}

TEST_F(WebhooksTest, AnEndpointReceivesOnlyEventsAfterItsCreation) {
  WebhookReceiver receiver;
  create_lead({{"visitor_name", "Before"}});
  wait_events(1);
  std::string w = str(create_webhook_to(receiver.url(hook_path())).at("id"));
  create_lead({{"visitor_name", "After"}});
  json::array evs = wait_events(2);
  ASSERT_EQ(evs.size(), 2u);
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, hook_path())) << receiver.describe();
  json::array log = deliveries("webhook_id=" + w);
  ASSERT_EQ(log.size(), 1u) << json::serialize(log);
  EXPECT_EQ(log[0].as_object().at("event_id"), evs[1].as_object().at("id"));
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(receiver.count(hook_path()), 1u) << receiver.describe();
  EXPECT_EQ(receiver.requests(hook_path())[0].header("webhook-id"),
            str(evs[1].as_object().at("id")));
}

// --- Retries and failures ---

TEST_F(WebhooksTest, FailedAttemptsAreRetriedWithTheSameIdAndBody) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  receiver.enqueue_statuses(path, {500, 500});  // then the default 200
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string id = str(event.at("id"));

  auto got = arrivals(receiver, path, id, 3);
  ASSERT_EQ(got.size(), 3u) << receiver.describe();
  for (const auto& r : got) {
    EXPECT_TRUE(is_webhook_of(r, event, {str(w.at("secret"))}));
    EXPECT_EQ(r.body, got[0].body);  // byte-identical
  }
  // The schedule (250 ms, 500 ms, each ±10 %) separates the attempts.
  EXPECT_GE(got[1].arrived - got[0].arrived, kWebhookFirstRetry * 9 / 10);
  EXPECT_GE(got[2].arrived - got[1].arrived, kWebhookSecondRetry * 9 / 10);

  json::object d =
      wait_delivery(str(delivery_of(str(w.at("id")), id).at("id")),
                    [](const json::object& d) { return d.at("status") == "succeeded"; });
  KeySet expected = webhook_delivery_keys();
  expected.insert("attempts");
  EXPECT_EQ(keys_of(d), expected) << json::serialize(d);
  EXPECT_EQ(d.at("status"), "succeeded");
  EXPECT_EQ(d.at("attempt_count"), 3);
  EXPECT_EQ(d.at("webhook_id"), w.at("id"));
  EXPECT_EQ(d.at("event_id"), json::value(id));
  EXPECT_EQ(d.at("event_type"), "lead.created");
  EXPECT_TRUE(d.at("next_attempt_at").is_null());
  EXPECT_TRUE(is_timestamp(str(d.at("last_attempt_at"))));
  EXPECT_TRUE(is_timestamp(str(d.at("created_at"))));
  EXPECT_EQ(d.at("last_status_code"), 200);
  const auto& attempts = d.at("attempts").as_array();
  ASSERT_EQ(attempts.size(), 3u) << json::serialize(d);
  std::vector<std::int64_t> codes;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& a = attempts[i].as_object();
    EXPECT_EQ(keys_of(a), webhook_attempt_keys());
    codes.push_back(a.at("status_code").as_int64());
    EXPECT_TRUE(is_timestamp(str(a.at("attempted_at"))));
    EXPECT_TRUE(a.at("duration_ms").is_number());
    EXPECT_EQ(a.at("response_excerpt"), "ok");
    if (i > 0) {
      EXPECT_LT(str(attempts[i - 1].as_object().at("attempted_at")), str(a.at("attempted_at")));
    }
  }
  EXPECT_EQ(codes, (std::vector<std::int64_t>{500, 500, 200}));
  EXPECT_TRUE(attempts[2].as_object().at("error").is_null());  // a success has no error
  EXPECT_EQ(d.at("last_attempt_at"), attempts[2].as_object().at("attempted_at"));

  // The list item is the delivery without its attempts.
  json::array log = deliveries("webhook_id=" + str(w.at("id")));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(keys_of(log[0]), webhook_delivery_keys());
  json::object without = d;
  without.erase("attempts");
  EXPECT_EQ(log[0], json::value(without));
}

TEST_F(WebhooksTest, ADeliveryFailsAfterTheLastAttemptOfTheSchedule) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  receiver.set_default(ReceiverAnswer{503, {}, std::string(1500, 'e')}, path);
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string delivery = str(delivery_of(str(w.at("id")), str(event.at("id"))).at("id"));
  json::object d =
      wait_delivery(delivery, [](const json::object& d) { return d.at("status") == "failed"; });
  EXPECT_EQ(d.at("status"), "failed") << json::serialize(d);
  EXPECT_EQ(d.at("attempt_count"), 3);
  EXPECT_TRUE(d.at("next_attempt_at").is_null());
  EXPECT_EQ(d.at("last_status_code"), 503);
  const auto& attempts = d.at("attempts").as_array();
  ASSERT_EQ(attempts.size(), 3u);
  for (const auto& a : attempts) {
    EXPECT_EQ(a.as_object().at("status_code"), 503);
    EXPECT_EQ(a.as_object().at("response_excerpt"), json::value(std::string(1024, 'e')));
  }
  std::this_thread::sleep_for(kWebhookSecondRetry * 2);
  EXPECT_EQ(receiver.count(path), 3u) << receiver.describe();
  // One failing delivery does not disable the endpoint (its creation is recent).
  EXPECT_EQ(get_webhook(str(w.at("id"))).at("enabled"), true);

  EXPECT_EQ(ids_of(deliveries("status=failed")), (std::vector<std::string>{delivery}));
  EXPECT_TRUE(deliveries("status=succeeded").empty());
  EXPECT_TRUE(deliveries("status=pending").empty());
}

TEST_F(WebhooksTest, RetryAfterOnA503PostponesTheNextAttempt) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  receiver.enqueue(path, ReceiverAnswer{503, {{"Retry-After", "2"}}, "busy"});
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  auto got = arrivals(receiver, path, str(event.at("id")), 2);
  ASSERT_EQ(got.size(), 2u) << receiver.describe();
  EXPECT_GE(got[1].arrived - got[0].arrived, 1950ms);
}

TEST_F(WebhooksTest, A410DisablesTheEndpointAsGone) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  receiver.set_default_status(410, path);
  json::object w = create_webhook_to(receiver.url(path));
  std::string id = str(w.at("id"));
  create_lead({{"visitor_name", "Ada"}});
  json::object first = last_event("lead.created");
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, path));
  json::object disabled =
      wait_webhook(id, [](const json::object& w) { return w.at("enabled") == false; });
  EXPECT_EQ(disabled.at("enabled"), false);
  EXPECT_EQ(disabled.at("disabled_reason"), "gone");
  std::string delivery = str(delivery_of(id, str(first.at("id"))).at("id"));
  json::object d = wait_delivery(delivery, attempted);
  EXPECT_EQ(d.at("attempt_count"), 1);
  EXPECT_EQ(d.at("last_status_code"), 410);

  // No more attempts, and later events make no deliveries for a disabled endpoint.
  create_lead({{"visitor_name", "Bob"}});
  json::array evs = wait_events(2);
  ASSERT_EQ(evs.size(), 2u);
  EXPECT_TRUE(deliveries("event_id=" + str(evs[1].as_object().at("id"))).empty());
  settle();
  EXPECT_EQ(receiver.count(path), 1u) << receiver.describe();
  EXPECT_EQ(get_delivery(delivery).at("attempt_count"), 1);
  // Redelivery to a disabled endpoint is refused.
  EXPECT_TRUE(is_error(send("POST", "/webhook-deliveries/retry?id=" + delivery), 400));
  EXPECT_EQ(receiver.count(path), 1u) << receiver.describe();
}

TEST_F(WebhooksTest, RedirectsAreFailuresAndAreNeverFollowed) {
  WebhookReceiver receiver;
  const std::string path = hook_path(), target = hook_path("target");
  receiver.enqueue(path, ReceiverAnswer{301, {{"Location", receiver.url(target)}}, ""});
  receiver.set_default(ReceiverAnswer{302, {{"Location", receiver.url(target)}}, ""}, path);
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  json::object d = wait_delivery(str(delivery_of(str(w.at("id")), str(event.at("id"))).at("id")),
                                 [](const json::object& d) { return d.at("status") == "failed"; });
  EXPECT_EQ(d.at("status"), "failed") << json::serialize(d);
  EXPECT_EQ(d.at("attempt_count"), 3);
  std::vector<std::int64_t> codes;
  for (const auto& a : d.at("attempts").as_array()) {
    codes.push_back(a.as_object().at("status_code").as_int64());
  }
  EXPECT_EQ(codes, (std::vector<std::int64_t>{301, 302, 302}));
  EXPECT_EQ(receiver.count(path), 3u) << receiver.describe();
  EXPECT_EQ(receiver.count(target), 0u) << receiver.describe();
}

TEST_F(WebhooksTest, AnAnswerAfterTheTimeoutFailsTheAttempt) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  ReceiverAnswer slow;
  slow.delay = kWebhookTimeout * 3;
  receiver.set_default(slow, path);
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string delivery = str(delivery_of(str(w.at("id")), str(event.at("id"))).at("id"));
  json::object d = wait_delivery(delivery, attempted);
  ASSERT_GE(d.at("attempt_count").as_int64(), 1) << json::serialize(d);
  const auto& a = d.at("attempts").as_array().at(0).as_object();
  EXPECT_TRUE(a.at("status_code").is_null()) << json::serialize(d);
  EXPECT_TRUE(has_time_out(a.at("error"))) << json::serialize(d);
  EXPECT_LT(a.at("duration_ms").to_number<double>(), (kWebhookTimeout * 2).count());
  EXPECT_GE(a.at("duration_ms").to_number<double>(), kWebhookTimeout.count() * 0.9);
  EXPECT_TRUE(has_time_out(d.at("last_error"))) << json::serialize(d);
  EXPECT_TRUE(d.at("last_status_code").is_null());
}

TEST_F(WebhooksTest, ASlowEndpointDoesNotDelayAnother) {
  WebhookReceiver receiver;
  const std::string slow_path = hook_path("slow"), fast_path = hook_path("fast");
  ReceiverAnswer slow;
  slow.delay = kWebhookTimeout * 3;
  receiver.set_default(slow, slow_path);
  create_webhook_to(receiver.url(slow_path));
  std::vector<std::string> names = {"A", "B", "C", "D"};
  for (const auto& n : names) create_lead({{"visitor_name", n}});
  wait_events(4);
  create_webhook_to(receiver.url(fast_path));
  auto started = std::chrono::steady_clock::now();
  create_lead({{"visitor_name", "Fast"}});
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, fast_path)) << receiver.describe();
  EXPECT_LT(std::chrono::steady_clock::now() - started, kWebhookTimeout * 2);
}

// --- Secret rotation and redelivery ---

TEST_F(WebhooksTest, AfterRotationDeliveriesCarryTheNewAndTheOldSignature) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  json::object w = create_webhook_to(receiver.url(path));
  std::string id = str(w.at("id"));
  std::string old_secret = str(w.at("secret"));

  HttpResponse r = send("POST", "/webhooks/rotate-secret?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), (KeySet{"id", "secret"}));
  EXPECT_EQ(r.data().as_object().at("id"), json::value(id));
  EXPECT_TRUE(secret_is_well_formed(r.data().as_object().at("secret")));
  std::string new_secret = str(r.data().as_object().at("secret"));
  EXPECT_NE(new_secret, old_secret);
  EXPECT_EQ(keys_of(get_webhook(id)), webhook_endpoint_keys());  // still no secret shown

  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  auto got = arrivals(receiver, path, str(event.at("id")));
  ASSERT_EQ(got.size(), 1u) << receiver.describe();
  std::string header = got[0].header("webhook-signature");
  ASSERT_EQ(signature_entries(header).size(), 2u) << header;
  EXPECT_EQ(header.find("  "), std::string::npos) << header;
  EXPECT_TRUE(is_webhook_of(got[0], event, {new_secret, old_secret}));

  // `{}` is accepted as the body too; any field is not.
  HttpResponse again = send("POST", "/webhooks/rotate-secret?id=" + id, std::string("{}"));
  ASSERT_STATUS(again, 200u);
  std::string third = str(again.data().as_object().at("secret"));
  EXPECT_NE(third, new_secret);
  EXPECT_TRUE(is_error(
      send("POST", "/webhooks/rotate-secret?id=" + id, std::string(R"({"secret":"whsec_AAAA"})")),
      400));
  EXPECT_TRUE(is_error(send("POST", "/webhooks/rotate-secret?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(send("POST", "/webhooks/rotate-secret?id=bad"), 400));
  EXPECT_TRUE(is_error(send("POST", "/webhooks/rotate-secret"), 400));
}

TEST_F(WebhooksTest, RedeliverySendsTheSameEventAgain) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string event_id = str(event.at("id"));
  std::string delivery = str(delivery_of(str(w.at("id")), event_id).at("id"));
  json::object done =
      wait_delivery(delivery, [](const json::object& d) { return d.at("status") == "succeeded"; });
  ASSERT_EQ(done.at("status"), "succeeded");

  HttpResponse r = send("POST", "/webhook-deliveries/retry?id=" + delivery);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), webhook_delivery_keys());
  EXPECT_EQ(r.data().as_object().at("id"), json::value(delivery));
  EXPECT_EQ(r.data().as_object().at("status"), "pending");
  EXPECT_FALSE(r.data().as_object().at("next_attempt_at").is_null());

  auto got = arrivals(receiver, path, event_id, 2);
  ASSERT_EQ(got.size(), 2u) << receiver.describe();
  EXPECT_EQ(got[1].body, got[0].body);
  EXPECT_TRUE(is_webhook_of(got[1], event, {str(w.at("secret"))}));
  json::object again = wait_delivery(delivery, [](const json::object& d) {
    return d.at("status") == "succeeded" && d.at("attempt_count") == 2;
  });
  EXPECT_EQ(again.at("status"), "succeeded");
  EXPECT_EQ(again.at("attempt_count"), 2);
  EXPECT_EQ(again.at("attempts").as_array().size(), 2u);

  EXPECT_TRUE(is_error(send("POST", "/webhook-deliveries/retry?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(send("POST", "/webhook-deliveries/retry?id=nope"), 400));
  EXPECT_TRUE(is_error(send("POST", "/webhook-deliveries/retry"), 400));

  // Disabled endpoint: refused.
  ASSERT_STATUS(patch("/webhooks?id=" + str(w.at("id")), json::object{{"enabled", false}}), 200u);
  EXPECT_TRUE(is_error(send("POST", "/webhook-deliveries/retry?id=" + delivery), 400));
}

TEST_F(WebhooksTest, RedeliveryRevivesAFailedDelivery) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  receiver.enqueue_statuses(path, {500, 500, 500});
  json::object w = create_webhook_to(receiver.url(path));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string delivery = str(delivery_of(str(w.at("id")), str(event.at("id"))).at("id"));
  ASSERT_EQ(
      wait_delivery(delivery, [](const json::object& d) { return d.at("status") == "failed"; })
          .at("status"),
      "failed");
  HttpResponse r = send("POST", "/webhook-deliveries/retry?id=" + delivery);
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("status"), "pending");
  json::object d =
      wait_delivery(delivery, [](const json::object& d) { return d.at("status") == "succeeded"; });
  EXPECT_EQ(d.at("status"), "succeeded") << json::serialize(d);
  EXPECT_EQ(d.at("attempt_count"), 4);
  EXPECT_EQ(d.at("last_status_code"), 200);
  auto got = with_webhook_id(receiver.requests(path), str(event.at("id")));
  ASSERT_EQ(got.size(), 4u) << receiver.describe();
  EXPECT_TRUE(is_webhook_of(got[3], event, {str(w.at("secret"))}));
}

// --- Disabled endpoints ---

TEST_F(WebhooksTest, ADisabledEndpointGetsNothingUntilReenabled) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  // The first attempt fails slowly, leaving time to disable the endpoint before the retry.
  receiver.enqueue(path, ReceiverAnswer{500, {}, "not now", 600ms});
  json::object w = create_webhook_to(receiver.url(path));
  std::string id = str(w.at("id"));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, path)) << receiver.describe();
  HttpResponse off = patch("/webhooks?id=" + id, json::object{{"enabled", false}});
  ASSERT_STATUS(off, 200u);
  EXPECT_EQ(off.data().as_object().at("enabled"), false);
  EXPECT_EQ(off.data().as_object().at("disabled_reason"), "requested");
  EXPECT_EQ(get_webhook(id).at("disabled_reason"), "requested");

  std::string delivery = str(delivery_of(id, str(event.at("id"))).at("id"));
  // An event while disabled makes no delivery for this endpoint.
  create_lead({{"visitor_name", "Bob"}});
  json::array evs = wait_events(2);
  ASSERT_EQ(evs.size(), 2u);
  settle();
  EXPECT_EQ(receiver.count(path), 1u) << receiver.describe();
  json::object pending = get_delivery(delivery);
  EXPECT_EQ(pending.at("status"), "pending") << json::serialize(pending);
  EXPECT_EQ(pending.at("attempt_count"), 1);
  EXPECT_EQ(pending.at("last_status_code"), 500);
  EXPECT_EQ(ids_of(deliveries("webhook_id=" + id)), (std::vector<std::string>{delivery}));
  EXPECT_EQ(ids_of(deliveries("status=pending")), (std::vector<std::string>{delivery}));

  // Re-enabled: the pending delivery is attempted again, and succeeds.
  HttpResponse on = patch("/webhooks?id=" + id, json::object{{"enabled", true}});
  ASSERT_STATUS(on, 200u);
  EXPECT_EQ(on.data().as_object().at("enabled"), true);
  EXPECT_TRUE(on.data().as_object().at("disabled_reason").is_null());
  auto got = arrivals(receiver, path, str(event.at("id")), 2);
  ASSERT_EQ(got.size(), 2u) << receiver.describe();
  EXPECT_TRUE(is_webhook_of(got[1], event, {str(w.at("secret"))}));
  EXPECT_EQ(got[1].body, got[0].body);
  json::object done =
      wait_delivery(delivery, [](const json::object& d) { return d.at("status") == "succeeded"; });
  EXPECT_EQ(done.at("status"), "succeeded") << json::serialize(done);
  EXPECT_EQ(done.at("attempt_count"), 2);
  EXPECT_TRUE(with_webhook_id(receiver.requests(path), str(evs[1].as_object().at("id"))).empty());
}

// --- The delivery log ---

TEST_F(WebhooksTest, TheDeliveryLogListsNewestFirstAndFilters) {
  WebhookReceiver receiver;
  std::string a = str(create_webhook_to(receiver.url(hook_path("a"))).at("id"));
  std::string b = str(create_webhook_to(receiver.url(hook_path("b")), {"lead.created"}).at("id"));
  create_lead({{"visitor_name", "One"}});
  create_contact({{"first_name", "Two"}});
  json::array evs = wait_events(2);
  ASSERT_EQ(evs.size(), 2u);
  ASSERT_TRUE(receiver.wait_for(3, kDeliveryWait));
  std::string lead_event = str(evs[0].as_object().at("id"));
  std::string contact_event = str(evs[1].as_object().at("id"));

  json::array all = deliveries();
  ASSERT_EQ(all.size(), 3u) << json::serialize(all);
  for (std::size_t i = 1; i < all.size(); ++i) {
    const auto& prev = all[i - 1].as_object();
    const auto& cur = all[i].as_object();
    EXPECT_TRUE(
        str(prev.at("created_at")) > str(cur.at("created_at")) ||
        (prev.at("created_at") == cur.at("created_at") && str(prev.at("id")) > str(cur.at("id"))))
        << json::serialize(all);
  }
  EXPECT_EQ(all[0].as_object().at("event_id"), json::value(contact_event));
  EXPECT_EQ(deliveries("webhook_id=" + b).size(), 1u);
  EXPECT_EQ(deliveries("webhook_id=" + a).size(), 2u);
  EXPECT_EQ(deliveries("event_id=" + lead_event).size(), 2u);
  EXPECT_EQ(deliveries("event_id=" + contact_event + "&webhook_id=" + a).size(), 1u);
  EXPECT_EQ(deliveries("event_id=" + contact_event + "&webhook_id=" + b).size(), 0u);
  HttpResponse paged = get("/webhook-deliveries?limit=2");
  ASSERT_STATUS(paged, 200u);
  ASSERT_TRUE(is_list_envelope(paged));
  EXPECT_EQ(total_count(paged), 3);
  EXPECT_EQ(paged.data().as_array().size(), 2u);

  EXPECT_TRUE(is_error(get("/webhook-deliveries?status=bogus"), 400, "status"));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?webhook_id=nope"), 400, "webhook_id"));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?event_id=nope"), 400, "event_id"));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?bogus=1"), 400, "bogus"));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?id=" + kAbsentId), 404));
}

// --- Workspaces ---

TEST_F(WebhooksTest, AnotherWorkspaceCanNeitherSeeNorTouchTheEndpointsDeliveriesOrEvents) {
  WebhookReceiver receiver;
  const std::string pa = hook_path("a"), pb = hook_path("b");
  json::object w = create_webhook_to(receiver.url(pa));
  std::string id = str(w.at("id"));
  WorkspaceKeys b = make_workspace("B");
  std::string theirs = str(create_webhook_to(receiver.url(pb), {"*"}, b.rw.key).at("id"));

  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string event_id = str(event.at("id"));
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, pa)) << receiver.describe();
  std::string delivery = str(delivery_of(id, event_id).at("id"));

  const std::string k = b.rw.key;
  EXPECT_TRUE(is_error(get("/webhooks?id=" + id, k), 404));
  EXPECT_TRUE(is_error(patch("/webhooks?id=" + id, json::object{{"enabled", false}}, k), 404));
  EXPECT_TRUE(is_error(send("POST", "/webhooks/rotate-secret?id=" + id, std::nullopt, {}, k), 404));
  EXPECT_TRUE(is_error(del("/webhooks?id=" + id, k), 404));
  EXPECT_EQ(ids_of(list_all("webhooks", "", k)), (std::vector<std::string>{theirs}));
  EXPECT_TRUE(is_error(get("/webhook-deliveries?id=" + delivery, k), 404));
  EXPECT_TRUE(
      is_error(send("POST", "/webhook-deliveries/retry?id=" + delivery, std::nullopt, {}, k), 404));
  EXPECT_TRUE(list_all("webhook-deliveries", "", k).empty());
  // Filtering by A's endpoint shows nothing (an empty list, or a refusal of the filter).
  HttpResponse filtered = get("/webhook-deliveries?webhook_id=" + id, k);
  if (filtered.status == 200) {
    EXPECT_EQ(filtered.data(), json::array());
  } else {
    EXPECT_TRUE(is_error(filtered, 400) || is_error(filtered, 404)) << filtered.describe();
  }
  EXPECT_TRUE(list_all("events", "", k).empty());
  EXPECT_TRUE(is_error(get("/events?id=" + event_id, k), 404));

  // A's endpoint is untouched, and A's event never went to B's endpoint.
  json::object still = get_webhook(id);
  EXPECT_EQ(still.at("enabled"), true);
  EXPECT_EQ(still.at("url"), w.at("url"));
  EXPECT_EQ(wait_delivery(delivery, attempted).at("attempt_count"),
            1);  // recorded after the answer
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(receiver.count(pb), 0u) << receiver.describe();
  EXPECT_EQ(receiver.count(pa), 1u) << receiver.describe();
}

// --- Address policy: servers without --webhook-allow-private / --webhook-allow-http ---

class WebhooksBlockedTest : public WebhookApiTest {
 public:
  static void SetUpTestSuite() {
    start_webhook_suite_server({"--rate-limit", "1000000/60s", "--webhook-allow-http",
                                "--webhook-retry-schedule", "200ms", "--webhook-timeout",
                                "1000ms"});
  }
};

TEST_F(WebhooksBlockedTest, AnIpLiteralInABlockedRangeIsRefusedAtRegistration) {
  WebhookReceiver receiver;
  struct Case {
    std::string url;
    std::string range;
  };
  for (const Case& c :
       std::vector<Case>{{receiver.url("/hook"), "127.0.0.0/8"},
                         {"http://10.1.2.3/hook", "10.0.0.0/8"},
                         {"https://192.168.1.1/", "192.168.0.0/16"},
                         {"https://169.254.169.254/latest/meta-data", "169.254.0.0/16"},
                         {"https://0.0.0.0/", "0.0.0.0/8"},
                         {"https://[::1]/", "::1/128"},
                         {"https://[fd00::1]/", "fc00::/7"}}) {
    SCOPED_TRACE(c.url);
    EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", c.url}}), 400, c.range));
  }
  // The IPv4-mapped form of a blocked IPv4 address is blocked too (which range the error names,
  // the IPv4 one or its mapped form, is left open).
  EXPECT_TRUE(
      is_error(post("/webhooks", json::object{{"url", "https://[::ffff:127.0.0.1]/"}}), 400));
  json::object w = create_webhook({{"url", "https://8.8.8.8/hook"}, {"enabled", false}});
  EXPECT_TRUE(is_error(
      patch("/webhooks?id=" + str(w.at("id")), json::object{{"url", receiver.url("/hook")}}), 400,
      "127.0.0.0/8"));
  EXPECT_EQ(list_all("webhooks").size(), 1u);
}

TEST_F(WebhooksBlockedTest, AHostNameResolvingToABlockedAddressFailsTheAttempt) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  std::string url = "http://localhost:" + std::to_string(receiver.port()) + path;
  json::object w = create_webhook({{"url", url}});  // names are not resolved at registration
  EXPECT_EQ(w.at("url"), json::value(url));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  std::string delivery = str(delivery_of(str(w.at("id")), str(event.at("id"))).at("id"));
  json::object d = wait_delivery(delivery, attempted);
  ASSERT_GE(d.at("attempt_count").as_int64(), 1) << json::serialize(d);
  ASSERT_TRUE(d.at("last_error").is_string()) << json::serialize(d);
  std::string error(d.at("last_error").as_string());
  EXPECT_TRUE(error.find("127.0.0.0/8") != std::string::npos ||
              error.find("::1/128") != std::string::npos)
      << error;
  EXPECT_TRUE(d.at("last_status_code").is_null());
  EXPECT_TRUE(d.at("attempts").as_array().at(0).as_object().at("status_code").is_null());
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(receiver.count(), 0u) << receiver.describe();
}

class WebhooksHttpsOnlyTest : public WebhookApiTest {
 public:
  static void SetUpTestSuite() { start_webhook_suite_server({"--rate-limit", "1000000/60s"}); }
};

TEST_F(WebhooksHttpsOnlyTest, PlainHttpIsRefusedWithoutAllowHttp) {
  EXPECT_TRUE(
      is_error(post("/webhooks", json::object{{"url", "http://example.com/hook"}}), 400, "url"));
  EXPECT_STATUS(post("/webhooks", json::object{{"url", "https://example.com/hook"}}), 201u);
  EXPECT_TRUE(is_error(post("/webhooks", json::object{{"url", "https://127.0.0.1/hook"}}), 400,
                       "127.0.0.0/8"));
  EXPECT_EQ(list_all("webhooks").size(), 1u);
}

}  // namespace
}  // namespace leadline_test

namespace leadline_test {
namespace {

// --webhook-disable-after: an endpoint whose attempts keep failing longer than this after its
// creation (no attempt ever succeeded) is disabled as failing; one that succeeded recently is
// not.
class WebhooksDisableAfterTest : public WebhookApiTest {
 public:
  static void SetUpTestSuite() {
    auto args = webhook_serve_args();
    args.insert(args.end(), {"--webhook-disable-after", "300ms"});
    start_webhook_suite_server(args);
  }
};

TEST_F(WebhooksDisableAfterTest, AnEndpointFailingLongerThanTheLimitIsDisabledAsFailing) {
  WebhookReceiver receiver;
  const std::string failing = hook_path("failing"), healthy = hook_path("healthy");
  receiver.set_default_status(500, failing);
  const std::string failing_id = str(create_webhook_to(receiver.url(failing)).at("id"));
  const std::string healthy_id = str(create_webhook_to(receiver.url(healthy)).at("id"));
  create_lead({{"visitor_name", "Ada"}});

  // Attempts at about 0, 250 and 750 ms: the last fails more than 300 ms after creation.
  const json::object disabled =
      wait_webhook(failing_id, [](const json::object& w) { return w.at("enabled") == false; });
  EXPECT_EQ(disabled.at("disabled_reason"), "failing") << json::serialize(disabled);
  EXPECT_EQ(get_webhook(healthy_id).at("enabled"), true);
  // Re-enabling clears the reason.
  const HttpResponse enabled = patch("/webhooks?id=" + failing_id, json::object{{"enabled", true}});
  ASSERT_EQ(enabled.status, 200u) << enabled.describe();
  EXPECT_EQ(enabled.data().at("disabled_reason"), nullptr);
}

}  // namespace
}  // namespace leadline_test
