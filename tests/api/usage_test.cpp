// Usage per key as shown by `leadline keys usage`: totals, requests by endpoint, error rate and
// rate-limit hits, visible within 5 seconds; routing errors are not counted.

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class UsageTest : public ApiTest {
 protected:
  json::object usage(const std::string& key_id) {
    return as_obj(cli_json({"keys", "usage", "--id", key_id}));
  }

  // Polls until `today` reaches `expected` or 5 s (plus the CLI's own start-up) have passed.
  json::object usage_when(const std::string& key_id, std::int64_t expected) {
    auto deadline = std::chrono::steady_clock::now() + 5500ms;
    json::object u;
    do {
      u = usage(key_id);
      if (u.at("today").is_int64() && u.at("today").as_int64() >= expected) return u;
      std::this_thread::sleep_for(200ms);
    } while (std::chrono::steady_clock::now() < deadline);
    return u;
  }
};

const KeySet kUsageKeys = {"today",       "this_week",  "this_month",
                           "by_endpoint", "error_rate", "rate_limited"};

TEST_F(UsageTest, FreshKeyHasZeroUsage) {
  json::object u = usage(ws_.rw.id);
  EXPECT_EQ(keys_of(u), kUsageKeys);
  EXPECT_EQ(u.at("today"), 0);
  EXPECT_EQ(u.at("this_week"), 0);
  EXPECT_EQ(u.at("this_month"), 0);
  EXPECT_EQ(u.at("by_endpoint"), json::object());
  EXPECT_EQ(u.at("error_rate").to_number<double>(), 0.0);
  EXPECT_EQ(u.at("rate_limited"), 0);
}

TEST_F(UsageTest, CountsRequestsByEndpointAndTheErrorRateWithinFiveSeconds) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));           // POST 201
  std::string contact = str(create_contact({{"first_name", "C"}}).at("id"));       // POST 201
  ASSERT_STATUS(get("/leads"), 200u);                                              // GET
  ASSERT_STATUS(get("/leads?id=" + lead), 200u);                                   // GET one
  ASSERT_TRUE(is_error(post("/leads", json::object{{"visitor_name", ""}}), 400));  // POST 400
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"last_name", "L"}}), 200u);
  ASSERT_TRUE(is_error(del("/leads?id=01890a5d-ac96-774b-bcce-b302099a8057"), 404));
  ASSERT_STATUS(get("/contacts"), 200u);
  ASSERT_STATUS(get("/conversations"), 200u);
  // Routing errors are answered before authentication and are not counted.
  ASSERT_TRUE(is_error(get("/nothing-here"), 404));
  ASSERT_TRUE(is_error(send("PUT", "/leads", std::string("{}")), 405));
  // So are the HTTP layer's own refusals.
  ASSERT_TRUE(is_error(send("POST", "/leads", std::string(1100 * 1024, ' ')), 413));
  ASSERT_TRUE(
      is_error(send("GET", "/leads", std::nullopt, {{"X-Big", std::string(40 * 1024, 'b')}}), 431));
  // Another key's requests are not this key's usage.
  ASSERT_STATUS(get("/leads", ws_ro().key), 200u);

  json::object u = usage_when(ws_.rw.id, 9);
  EXPECT_EQ(keys_of(u), kUsageKeys);
  EXPECT_EQ(u.at("today"), 9) << json::serialize(u);
  EXPECT_EQ(u.at("this_week"), 9) << json::serialize(u);
  EXPECT_EQ(u.at("this_month"), 9) << json::serialize(u);
  EXPECT_EQ(u.at("by_endpoint"), (json::object{{"POST /leads", 2},
                                               {"POST /contacts", 1},
                                               {"GET /leads", 2},
                                               {"PATCH /contacts", 1},
                                               {"DELETE /leads", 1},
                                               {"GET /contacts", 1},
                                               {"GET /conversations", 1}}))
      << json::serialize(u);
  EXPECT_NEAR(u.at("error_rate").to_number<double>(), 2.0 / 9.0, 1e-6) << json::serialize(u);
  EXPECT_EQ(u.at("rate_limited"), 0);

  json::object ro = usage_when(ws_ro().id, 1);
  EXPECT_EQ(ro.at("today"), 1);
  EXPECT_EQ(ro.at("by_endpoint"), (json::object{{"GET /leads", 1}}));
}

TEST_F(UsageTest, ScopeRefusalsAreCountedAsErrors) {
  ASSERT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}}, ws_ro().key), 403));
  ASSERT_STATUS(get("/leads", ws_ro().key), 200u);
  json::object u = usage_when(ws_ro().id, 2);
  EXPECT_EQ(u.at("today"), 2);
  EXPECT_EQ(u.at("by_endpoint"), (json::object{{"POST /leads", 1}, {"GET /leads", 1}}));
  EXPECT_NEAR(u.at("error_rate").to_number<double>(), 0.5, 1e-6);
}

TEST_F(UsageTest, ConversationEndpointsAreNamedByMethodAndResource) {
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms))});
  std::string conv = conversation_ids().at(0);  // GET /conversations
  ASSERT_STATUS(get("/conversations?id=" + conv), 200u);
  ASSERT_STATUS(patch("/conversations?id=" + conv, json::object{{"status", "active"}}), 200u);
  json::object u = usage_when(ws_.rw.id, 3);
  EXPECT_EQ(u.at("by_endpoint"),
            (json::object{{"GET /conversations", 2}, {"PATCH /conversations", 1}}))
      << json::serialize(u);
  EXPECT_EQ(u.at("error_rate").to_number<double>(), 0.0);
}

}  // namespace
}  // namespace leadline_test
