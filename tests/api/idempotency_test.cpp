// Idempotency-Key on every POST, seen from outside: stored answers replayed byte for byte with
// Idempotent-Replayed, 422 for another request, 409 while in flight, and what is never stored.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/simultaneous.hpp"
#include "support/webhook_fixture.hpp"

namespace leadline_test {
// Named rather than anonymous: the test files are compiled as unity batches, where anonymous
// namespaces of different files merge and same-named helpers would collide.
namespace idempotency {

const std::string kKeyRule =
    "Idempotency-Key must be 1 to 255 printable ASCII characters (0x21 to 0x7E)";
const std::string kReused = "Idempotency-Key was already used with a different request";
const std::string kInProgress = "A request with this Idempotency-Key is still in progress";

// `error` is exactly this sentence, in the plain error envelope.
::testing::AssertionResult is_error_sentence(const HttpResponse& r, unsigned status,
                                             const std::string& sentence) {
  ::testing::AssertionResult shape = is_error(r, status);
  if (!shape) return shape;
  if (r.object().at("error") != json::value(sentence)) {
    return ::testing::AssertionFailure() << "error is not '" << sentence << "'\n" << r.describe();
  }
  return ::testing::AssertionSuccess();
}

// A first run: no Idempotent-Replayed header.
::testing::AssertionResult is_first_run(const HttpResponse& r) {
  if (r.has_header("Idempotent-Replayed")) {
    return ::testing::AssertionFailure() << "a first run carries Idempotent-Replayed\n"
                                         << r.describe();
  }
  return ::testing::AssertionSuccess();
}

// `replay` is `first` again: same status, the same body bytes, marked as replayed.
::testing::AssertionResult is_replay_of(const HttpResponse& replay, const HttpResponse& first) {
  if (::testing::AssertionResult f = is_first_run(first); !f) return f;
  if (replay.status != first.status || replay.body != first.body) {
    return ::testing::AssertionFailure() << "the replay differs from the first answer\nfirst:\n"
                                         << first.describe() << "\nreplay:\n"
                                         << replay.describe();
  }
  if (replay.header_values("Idempotent-Replayed") != std::vector<std::string>{"true"}) {
    return ::testing::AssertionFailure() << "the replay lacks Idempotent-Replayed: true\n"
                                         << replay.describe();
  }
  return ::testing::AssertionSuccess();
}

// The server of WebhookApiTest (deliveries to loopback receivers), for the retry route.
class IdempotencyTest : public WebhookApiTest {
 protected:
  // POST with this Idempotency-Key; `body` is sent as is (nullopt: no body), `api_key` as in
  // send() (nullopt: the read+write key, "": no Authorization).
  HttpResponse post_with_key(const std::string& path, std::optional<std::string> body,
                             const std::string& idempotency_key,
                             std::optional<std::string> api_key = std::nullopt,
                             Headers headers = {}) {
    headers.emplace_back("Idempotency-Key", idempotency_key);
    return send("POST", path, std::move(body), std::move(headers), std::move(api_key));
  }
  HttpResponse post_json_with_key(const std::string& path, const json::value& body,
                                  const std::string& idempotency_key,
                                  std::optional<std::string> api_key = std::nullopt) {
    return post_with_key(path, json::serialize(body), idempotency_key, std::move(api_key));
  }

  // pagination.total_count of the resource's list (read with the read-only key, so that counting
  // never spends the read+write key's rate-limit window).
  std::int64_t count(const std::string& resource) {
    HttpResponse r = get("/" + resource + "?limit=1", ws_ro().key);
    if (r.status != 200) throw std::runtime_error("counting " + resource + "\n" + r.describe());
    return total_count(r);
  }

  // The lead.created events of the feed once the one for `marker_lead_id` is visible: what was
  // committed before the marker is then in the list too.
  json::array lead_created_events_up_to(const std::string& marker_lead_id) {
    auto deadline = std::chrono::steady_clock::now() + 5000ms;
    for (;;) {
      json::array found = events("type=lead.created", ws_ro().key);
      for (const auto& e : found) {
        if (e.as_object().at("data").as_object().at("id") == json::value(marker_lead_id)) {
          return found;
        }
      }
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("no lead.created event of the marker lead " + marker_lead_id);
      }
      std::this_thread::sleep_for(50ms);
    }
  }

  // Sends the same keyed POST `n` times at once, each on a connection of its own (connected
  // beforehand, so that the requests overlap); returns the answers in thread order.
  std::vector<HttpResponse> post_simultaneously(std::size_t n, const std::string& path,
                                                const std::string& body,
                                                const std::string& idempotency_key) {
    const std::string target = std::string(kBase) + path;
    const Headers headers = {{"Authorization", "Bearer " + ws_.rw.key},
                             {"Idempotency-Key", idempotency_key}};
    std::vector<HttpResponse> responses(n);
    const auto failures = send_simultaneously(
        server().host(), server().port(), n, [&](std::size_t i, HttpClient& client) {
          responses[i] = client.request("POST", target, body, headers);
        });
    for (const auto& f : failures) {
      if (!f.empty()) throw std::runtime_error("a simultaneous request failed: " + f);
    }
    return responses;
  }

  // An endpoint to a receiver, the first lead's event delivered to it, and that delivery's id.
  struct Delivered {
    std::string webhook_id;
    std::string secret;
    std::string delivery_id;
    std::string event_id;
  };
  Delivered delivered_lead(WebhookReceiver& receiver, const std::string& path) {
    json::object w = create_webhook_to(receiver.url(path));
    create_lead({{"visitor_name", "Ada"}});
    json::object event = last_event("lead.created");
    Delivered d{str(w.at("id")), str(w.at("secret")), "", str(event.at("id"))};
    d.delivery_id = str(delivery_of(d.webhook_id, d.event_id).at("id"));
    json::object done = wait_delivery(
        d.delivery_id, [](const json::object& x) { return x.at("status") == "succeeded"; });
    if (done.at("status") != "succeeded") {
      throw std::runtime_error("the delivery did not succeed: " + json::serialize(done));
    }
    return d;
  }
};

// --- Replays of every POST route ---

TEST_F(IdempotencyTest, LeadCreateIsReplayedByteForByteWithOneRecordAndOneEvent) {
  const std::string body = R"({"visitor_name":"Ada","tags":["a"]})";
  HttpResponse first = post_with_key("/leads", body, "lead-1");
  ASSERT_STATUS(first, 201u);
  ASSERT_TRUE(is_first_run(first));
  HttpResponse again = post_with_key("/leads", body, "lead-1");
  EXPECT_TRUE(is_replay_of(again, first));
  HttpResponse third = post_with_key("/leads", body, "lead-1");
  EXPECT_TRUE(is_replay_of(third, first));
  EXPECT_TRUE(has_json_content_type(again));

  EXPECT_EQ(count("leads"), 1);
  const std::string id = str(first.data().as_object().at("id"));
  EXPECT_EQ(get_one("leads", id, ws_ro().key).at("visitor_name"), "Ada");

  // One lead.created for the keyed lead, then the marker's: no event from the replays.
  const std::string marker = str(create_lead({{"visitor_name", "Marker"}}).at("id"));
  json::array created = lead_created_events_up_to(marker);
  ASSERT_EQ(created.size(), 2u) << json::serialize(created);
  EXPECT_EQ(created[0].as_object().at("data").as_object().at("id"), json::value(id));
}

TEST_F(IdempotencyTest, ContactCreateIsReplayedWithOneRecord) {
  const std::string body = R"({"first_name":"Ada","email":"ada@example.com"})";
  HttpResponse first = post_with_key("/contacts", body, "contact-1");
  ASSERT_STATUS(first, 201u);
  // Not a 409 for the e-mail the first run took: the stored 201 comes back.
  EXPECT_TRUE(is_replay_of(post_with_key("/contacts", body, "contact-1"), first));
  EXPECT_EQ(count("contacts"), 1);
}

TEST_F(IdempotencyTest, WebhookCreateReplayCarriesTheSameSecret) {
  const std::string body = R"({"url":"https://example.com/hooks","description":"crm"})";
  HttpResponse first = post_with_key("/webhooks", body, "hook-1");
  ASSERT_STATUS(first, 201u);
  ASSERT_TRUE(first.data().as_object().contains("secret")) << first.describe();
  HttpResponse again = post_with_key("/webhooks", body, "hook-1");
  ASSERT_TRUE(is_replay_of(again, first));
  EXPECT_EQ(again.data().as_object().at("secret"), first.data().as_object().at("secret"));
  EXPECT_EQ(count("webhooks"), 1);
}

TEST_F(IdempotencyTest, RotateSecretIsReplayedAndRotatesOnce) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  json::object w = create_webhook_to(receiver.url(path));
  const std::string target = "/webhooks/rotate-secret?id=" + str(w.at("id"));
  HttpResponse first = post_with_key(target, std::nullopt, "rotate-1");
  ASSERT_STATUS(first, 200u);
  HttpResponse again = post_with_key(target, std::nullopt, "rotate-1");
  ASSERT_TRUE(is_replay_of(again, first));

  // Rotated once: the next webhook is signed with the first rotation's secret and the original
  // one, nothing else (a second rotation would sign with a third secret first).
  const std::string rotated = str(first.data().as_object().at("secret"));
  create_lead({{"visitor_name", "Ada"}});
  json::object event = last_event("lead.created");
  ASSERT_TRUE(receiver.wait_until(
      [&](const std::vector<ReceivedRequest>& all) {
        return !with_webhook_id(all, str(event.at("id"))).empty();
      },
      kDeliveryWait))
      << receiver.describe();
  auto got = with_webhook_id(receiver.requests(path), str(event.at("id")));
  EXPECT_TRUE(is_webhook_of(got[0], event, {rotated, str(w.at("secret"))}));
}

TEST_F(IdempotencyTest, DeliveryRetryIsReplayedAndRedeliversOnce) {
  WebhookReceiver receiver;
  const std::string path = hook_path();
  Delivered d = delivered_lead(receiver, path);
  const std::string target = "/webhook-deliveries/retry?id=" + d.delivery_id;
  HttpResponse first = post_with_key(target, std::nullopt, "retry-1");
  ASSERT_STATUS(first, 200u);
  EXPECT_EQ(first.data().as_object().at("status"), "pending");
  HttpResponse again = post_with_key(target, std::nullopt, "retry-1");
  ASSERT_TRUE(is_replay_of(again, first));

  json::object done = wait_delivery(d.delivery_id, [](const json::object& x) {
    return x.at("status") == "succeeded" && x.at("attempt_count") == 2;
  });
  EXPECT_EQ(done.at("attempt_count"), 2) << json::serialize(done);
  // A replay re-running the retry would queue a third attempt right away; the bounded wait
  // gives it the time a first retry took above.
  EXPECT_FALSE(receiver.wait_for(3, 1000ms, path)) << receiver.describe();
  // Still the stored answer, although the delivery has moved on since.
  EXPECT_TRUE(is_replay_of(post_with_key(target, std::nullopt, "retry-1"), first));
}

// --- What counts as the same request ---

TEST_F(IdempotencyTest, TheSameJsonInAnotherKeyOrderAndWhitespaceIsReplayed) {
  HttpResponse first = post_with_key(
      "/leads", R"({"visitor_name":"Ada","tags":["a","b"],"visitor_email":"ada@example.com"})",
      "order-1");
  ASSERT_STATUS(first, 201u);
  const std::string reordered =
      "{\n  \"visitor_email\" : \"ada@example.com\",\r\n\t\"tags\": [ \"a\" , \"b\" ] ,"
      " \"visitor_name\":\"Ada\"  }\n";
  EXPECT_TRUE(is_replay_of(post_with_key("/leads", reordered, "order-1"), first));
  EXPECT_EQ(count("leads"), 1);
}

TEST_F(IdempotencyTest, AnotherBodyIsRefusedWith422AndTheStoredAnswerStays) {
  HttpResponse first = post_with_key("/leads", R"({"visitor_name":"Ada"})", "body-1");
  ASSERT_STATUS(first, 201u);
  EXPECT_TRUE(is_error_sentence(post_with_key("/leads", R"({"visitor_name":"Bob"})", "body-1"), 422,
                                kReused));
  // Array order is part of the value, unlike key order.
  EXPECT_TRUE(is_error_sentence(
      post_with_key("/leads", R"({"visitor_name":"Ada","tags":["a"]})", "body-1"), 422, kReused));
  EXPECT_TRUE(is_replay_of(post_with_key("/leads", R"({"visitor_name":"Ada"})", "body-1"), first));
  EXPECT_EQ(count("leads"), 1);
}

TEST_F(IdempotencyTest, AnotherPathIsRefusedWith422) {
  // Two action routes with the same query string and no body: only the path differs.
  json::object w = create_webhook({{"url", "https://example.com/h"}});
  const std::string query = "?id=" + str(w.at("id"));
  HttpResponse first = post_with_key("/webhooks/rotate-secret" + query, std::nullopt, "path-1");
  ASSERT_STATUS(first, 200u);
  EXPECT_TRUE(is_error_sentence(
      post_with_key("/webhook-deliveries/retry" + query, std::nullopt, "path-1"), 422, kReused));
  // And a create route with a body of its own.
  EXPECT_TRUE(is_error_sentence(
      post_json_with_key("/contacts", json::object{{"first_name", "Ada"}}, "path-1"), 422,
      kReused));
  EXPECT_EQ(count("contacts"), 0);
}

TEST_F(IdempotencyTest, AnotherQueryStringIsRefusedWith422AndChangesNothing) {
  json::object a = create_webhook({{"url", "https://example.com/a"}});
  json::object b = create_webhook({{"url", "https://example.com/b"}});
  HttpResponse first =
      post_with_key("/webhooks/rotate-secret?id=" + str(a.at("id")), std::nullopt, "query-1");
  ASSERT_STATUS(first, 200u);
  EXPECT_TRUE(is_error_sentence(
      post_with_key("/webhooks/rotate-secret?id=" + str(b.at("id")), std::nullopt, "query-1"), 422,
      kReused));
  // b was not rotated: rotating it now (new key) answers a secret, and a's replay still answers
  // the first rotation.
  EXPECT_TRUE(is_replay_of(
      post_with_key("/webhooks/rotate-secret?id=" + str(a.at("id")), std::nullopt, "query-1"),
      first));
}

TEST_F(IdempotencyTest, TheSameKeyOfAnotherApiKeyRunsIndependently) {
  json::object other = create_key(ws_.id, "read,write", {}, "second");
  const std::string other_key = str(other.at("key"));
  const std::string body = R"({"visitor_name":"Ada"})";
  HttpResponse mine = post_with_key("/leads", body, "shared-1");
  HttpResponse theirs = post_with_key("/leads", body, "shared-1", other_key);
  ASSERT_STATUS(mine, 201u);
  ASSERT_STATUS(theirs, 201u);
  EXPECT_TRUE(is_first_run(theirs));
  EXPECT_NE(mine.data().as_object().at("id"), theirs.data().as_object().at("id"));
  EXPECT_EQ(count("leads"), 2);
  // Each replays its own answer; another body under the other API key is its own conflict.
  EXPECT_TRUE(is_replay_of(post_with_key("/leads", body, "shared-1"), mine));
  EXPECT_TRUE(is_replay_of(post_with_key("/leads", body, "shared-1", other_key), theirs));
  EXPECT_TRUE(is_error_sentence(
      post_with_key("/leads", R"({"visitor_name":"Bob"})", "shared-1", other_key), 422, kReused));
}

// --- Concurrency ---

TEST_F(IdempotencyTest, TwentySimultaneousRequestsWithOneKeyMakeOneRecord) {
  const std::string body = R"({"visitor_name":"Ada","need_summary":"once"})";
  std::vector<HttpResponse> responses = post_simultaneously(20, "/leads", body, "burst-1");
  std::vector<const HttpResponse*> created;
  int in_progress = 0;
  for (const HttpResponse& r : responses) {
    if (r.status == 201) {
      created.push_back(&r);
    } else {
      EXPECT_TRUE(is_error_sentence(r, 409, kInProgress));
      EXPECT_EQ(r.header("Retry-After"), "1") << r.describe();
      EXPECT_TRUE(is_first_run(r));
      ++in_progress;
    }
  }
  // How many met the first run in flight (timing-dependent; shown in the XML report).
  RecordProperty("in_progress_answers", in_progress);
  ASSERT_FALSE(created.empty());
  // One run made the record; every other 201 is that answer replayed.
  std::size_t first_runs = 0;
  for (const HttpResponse* r : created) {
    EXPECT_EQ(r->body, created[0]->body) << r->describe();
    first_runs += !r->has_header("Idempotent-Replayed");
  }
  EXPECT_EQ(first_runs, 1u);
  EXPECT_EQ(count("leads"), 1);
  // Whatever was in progress then is finished now: the key replays the one 201.
  HttpResponse after = post_with_key("/leads", body, "burst-1");
  EXPECT_STATUS(after, 201u);
  EXPECT_EQ(after.body, created[0]->body);
  EXPECT_EQ(after.header("Idempotent-Replayed"), "true") << after.describe();
}

TEST_F(IdempotencyTest, SimultaneousRepeatsOfAFinishedRequestAreAllReplays) {
  const std::string body = R"({"visitor_name":"Ada"})";
  HttpResponse first = post_with_key("/leads", body, "finished-1");
  ASSERT_STATUS(first, 201u);
  // The first run has answered, so nothing with the key is in progress any more: 409 is not an
  // answer the contract allows here, only the stored 201.
  std::vector<HttpResponse> repeats = post_simultaneously(20, "/leads", body, "finished-1");
  std::size_t busy = 0;
  for (const HttpResponse& r : repeats) {
    busy += r.status == 409;
    EXPECT_TRUE(is_replay_of(r, first));
  }
  EXPECT_EQ(busy, 0u) << "of 20 simultaneous repeats after the first run had finished";
  EXPECT_EQ(count("leads"), 1);
}

// --- What is stored and what is not ---

TEST_F(IdempotencyTest, ARefusedBodyStoresNothingAndTheCorrectedRetryRuns) {
  HttpResponse missing = post_with_key("/leads", R"({"tags":["a"]})", "fix-1");
  ASSERT_TRUE(is_error(missing, 400, "visitor_name"));
  EXPECT_TRUE(is_first_run(missing));
  // The same refused request runs again (no replay) ...
  HttpResponse missing_again = post_with_key("/leads", R"({"tags":["a"]})", "fix-1");
  EXPECT_TRUE(is_error(missing_again, 400, "visitor_name"));
  EXPECT_TRUE(is_first_run(missing_again));
  // ... and so does the corrected one, which is not "another request" for a key that stored none.
  HttpResponse fixed = post_with_key("/leads", R"({"visitor_name":"Ada","tags":["a"]})", "fix-1");
  ASSERT_STATUS(fixed, 201u);
  EXPECT_TRUE(is_first_run(fixed));
  EXPECT_TRUE(is_replay_of(
      post_with_key("/leads", R"({"visitor_name":"Ada","tags":["a"]})", "fix-1"), fixed));
  EXPECT_EQ(count("leads"), 1);
}

TEST_F(IdempotencyTest, AnEmailConflictIsStoredAndReplayedAfterTheOtherContactIsGone) {
  const std::string ada =
      str(create_contact({{"first_name", "Ada"}, {"email", "ada@x.io"}}).at("id"));
  const std::string body = R"({"first_name":"Other","email":"ada@x.io"})";
  HttpResponse conflict = post_with_key("/contacts", body, "dup-1");
  ASSERT_STATUS(conflict, 409u);
  EXPECT_EQ(keys_of(conflict.object()), key_set({"success", "error", "data"}));
  EXPECT_EQ(conflict.object().at("data").as_object().at("id"), json::value(ada));
  EXPECT_TRUE(is_replay_of(post_with_key("/contacts", body, "dup-1"), conflict));

  ASSERT_STATUS(del("/contacts?id=" + ada), 200u);
  // The address is free now, yet the key answers what it stored.
  EXPECT_TRUE(is_replay_of(post_with_key("/contacts", body, "dup-1"), conflict));
  EXPECT_EQ(count("contacts"), 0);
  EXPECT_STATUS(post_with_key("/contacts", body, "dup-2"), 201u);
}

TEST_F(IdempotencyTest, UnknownIdsOnTheActionRoutesAre404StoredAndReplayed) {
  for (const std::string route : {"/webhook-deliveries/retry", "/webhooks/rotate-secret"}) {
    SCOPED_TRACE(route);
    const std::string key = "absent" + route;  // '/' is printable ASCII
    HttpResponse first = post_with_key(route + "?id=" + kAbsentId, std::nullopt, key);
    ASSERT_TRUE(is_error(first, 404));
    EXPECT_TRUE(is_replay_of(post_with_key(route + "?id=" + kAbsentId, std::nullopt, key), first));
  }
}

// --- The header's value ---

TEST_F(IdempotencyTest, InvalidKeysAre400WithTheRuleAndCreateNothing) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"empty", ""},
      {"256 characters", std::string(256, 'k')},
      {"a space inside", "two words"},
      {"non-ASCII UTF-8", "caf\xc3\xa9"},
      {"a tab inside", "tab\there"},
  };
  for (const auto& [what, value] : bad) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(is_error_sentence(post_with_key("/leads", R"({"visitor_name":"Ada"})", value), 400,
                                  kKeyRule));
    // Before the body is read: an invalid body still gets the key's sentence.
    EXPECT_TRUE(is_error_sentence(post_with_key("/leads", R"({"tags":7})", value), 400, kKeyRule));
    EXPECT_TRUE(is_error_sentence(
        post_with_key("/webhook-deliveries/retry?id=" + kAbsentId, std::nullopt, value), 400,
        kKeyRule));
  }
  EXPECT_EQ(count("leads"), 0);
}

TEST_F(IdempotencyTest, A255CharacterKeyOfEveryPrintableCharacterIsAccepted) {
  std::string key;
  for (char c = 0x21; key.size() < 255; c = c == 0x7E ? 0x21 : static_cast<char>(c + 1)) {
    key.push_back(c);
  }
  HttpResponse first = post_with_key("/leads", R"({"visitor_name":"Ada"})", key);
  ASSERT_STATUS(first, 201u);
  EXPECT_TRUE(is_replay_of(post_with_key("/leads", R"({"visitor_name":"Ada"})", key), first));
  // One character is a key too, and case matters: "A" is not "a".
  HttpResponse upper = post_with_key("/leads", R"({"visitor_name":"Bob"})", "A");
  HttpResponse lower = post_with_key("/leads", R"({"visitor_name":"Cy"})", "a");
  EXPECT_STATUS(upper, 201u);
  EXPECT_STATUS(lower, 201u);
  EXPECT_TRUE(is_first_run(lower));
  EXPECT_EQ(count("leads"), 3);
}

TEST_F(IdempotencyTest, AuthenticationIpRuleAndScopeComeBeforeTheKeyCheck) {
  const std::string body = R"({"visitor_name":"Ada"})";
  EXPECT_TRUE(is_error(post_with_key("/leads", body, "two words", ""), 401));
  EXPECT_TRUE(
      is_error(post_with_key("/leads", body, "two words", "fc_live_" + repeat("a", 40)), 401));
  EXPECT_TRUE(is_error(post_with_key("/leads", body, "two words", ws_ro().key), 403));
  json::object fenced = create_key(ws_.id, "read,write", {"10.0.0.0/8"}, "fenced");
  EXPECT_TRUE(is_error(post_with_key("/leads", body, "two words", str(fenced.at("key"))), 403));
  // A refused request stores nothing under a valid key either.
  EXPECT_TRUE(is_error(post_with_key("/leads", body, "scoped-1", ws_ro().key), 403));
  EXPECT_TRUE(is_error(post_with_key("/leads", body, "scoped-1", ws_ro().key), 403));
  EXPECT_EQ(count("leads"), 0);
}

TEST_F(IdempotencyTest, TheHeaderIsIgnoredOnGetPatchAndDelete) {
  const std::string id = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  const Headers invalid = {{"Idempotency-Key", "two words"}};
  HttpResponse list = send("GET", "/leads", std::nullopt, invalid);
  EXPECT_STATUS(list, 200u);
  EXPECT_TRUE(is_first_run(list));
  EXPECT_STATUS(send("GET", "/leads?id=" + id, std::nullopt, invalid), 200u);

  // Two PATCHes with one valid key and different bodies both apply: nothing is stored for them.
  const Headers valid = {{"Idempotency-Key", "patch-1"}};
  HttpResponse p1 = send("PATCH", "/leads?id=" + id, R"({"need_summary":"one"})", valid);
  HttpResponse p2 = send("PATCH", "/leads?id=" + id, R"({"need_summary":"two"})", valid);
  ASSERT_STATUS(p1, 200u);
  ASSERT_STATUS(p2, 200u);
  EXPECT_TRUE(is_first_run(p2));
  HttpResponse p3 = send("PATCH", "/leads?id=" + id, R"({"need_summary":"three"})", invalid);
  ASSERT_STATUS(p3, 200u);
  EXPECT_EQ(get_one("leads", id).at("need_summary"), "three");

  HttpResponse gone = send("DELETE", "/leads?id=" + id, std::nullopt, invalid);
  ASSERT_STATUS(gone, 200u);
  EXPECT_TRUE(is_error(get("/leads?id=" + id), 404));
  // The same DELETE again runs again (404), not a replay of the 200.
  HttpResponse again = send("DELETE", "/leads?id=" + id, std::nullopt, invalid);
  EXPECT_TRUE(is_error(again, 404));
  EXPECT_TRUE(is_first_run(again));

  // A key a PATCH used stays free for a POST.
  EXPECT_STATUS(post_with_key("/leads", R"({"visitor_name":"Bob"})", "patch-1"), 201u);
}

// --- The replay's own headers ---

TEST_F(IdempotencyTest, AReplayHasItsOwnRequestIdAndRateLimitHeaders) {
  const std::string body = R"({"visitor_name":"Ada"})";
  HttpResponse first = post_with_key("/leads", body, "own-1");
  HttpResponse again = post_with_key("/leads", body, "own-1");
  ASSERT_TRUE(is_replay_of(again, first));
  ASSERT_FALSE(first.header("X-Request-Id").empty()) << first.describe();
  ASSERT_FALSE(again.header("X-Request-Id").empty()) << again.describe();
  EXPECT_NE(again.header("X-Request-Id"), first.header("X-Request-Id"));
  HttpResponse named =
      post_with_key("/leads", body, "own-1", std::nullopt, {{"X-Request-Id", "client-chosen-7"}});
  EXPECT_TRUE(is_replay_of(named, first));
  EXPECT_EQ(named.header("X-Request-Id"), "client-chosen-7");

  ASSERT_TRUE(has_rate_limit_headers(first));
  ASSERT_TRUE(has_rate_limit_headers(again));
  ASSERT_TRUE(has_rate_limit_headers(named));
  const auto remaining = [](const HttpResponse& r) {
    return std::stoll(r.header("X-RateLimit-Remaining"));
  };
  // The key's window counted each of the three requests.
  EXPECT_EQ(remaining(again), remaining(first) - 1);
  EXPECT_EQ(remaining(named), remaining(first) - 2);
}

// A server allowing 3 requests per minute and key: replays spend the window like first runs.
class IdempotencyRateLimitTest : public IdempotencyTest {
 public:
  static void SetUpTestSuite() {
    std::vector<std::string> args = webhook_serve_args();
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--rate-limit") args[i + 1] = "3/60s";
    }
    start_webhook_suite_server(std::move(args));
  }
};

TEST_F(IdempotencyRateLimitTest, ReplaysCountTowardTheRateLimit) {
  const std::string body = R"({"visitor_name":"Ada"})";
  HttpResponse first = post_with_key("/leads", body, "limited-1");
  ASSERT_STATUS(first, 201u);
  EXPECT_EQ(first.header("X-RateLimit-Remaining"), "2");
  HttpResponse second = post_with_key("/leads", body, "limited-1");
  EXPECT_TRUE(is_replay_of(second, first));
  EXPECT_EQ(second.header("X-RateLimit-Remaining"), "1");
  HttpResponse third = post_with_key("/leads", body, "limited-1");
  EXPECT_TRUE(is_replay_of(third, first));
  EXPECT_EQ(third.header("X-RateLimit-Remaining"), "0");
  // The fourth is over the limit: refused before the key is looked at, not a replay.
  HttpResponse limited = post_with_key("/leads", body, "limited-1");
  EXPECT_TRUE(is_error(limited, 429));
  EXPECT_TRUE(is_first_run(limited));
  EXPECT_EQ(count("leads"), 1);  // read with the read-only key, whose window is its own
}

}  // namespace idempotency
}  // namespace leadline_test
