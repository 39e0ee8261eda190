// Record rules: UUIDv7 ids, timestamp format, updated_at and last_activity movement, contact
// conversation counters, unlinking on contact delete, and e-mail de-duplication (409).

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <string>
#include <thread>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class RecordsTest : public ApiTest {};

const char* kDuplicate = "A contact with this email already exists";

void expect_recent(const std::string& timestamp, std::int64_t before, std::int64_t after) {
  ASSERT_TRUE(is_timestamp(timestamp)) << timestamp;
  std::int64_t t = timestamp_millis(timestamp);
  EXPECT_GE(t, before - 2000) << timestamp;
  EXPECT_LE(t, after + 2000) << timestamp;
}

TEST_F(RecordsTest, IdsAreLowercaseTimeOrderedUuidV7) {
  std::int64_t before = now_millis();
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms))});
  std::string conv = conversation_ids().at(0);
  std::int64_t after = now_millis();
  for (const auto& id : {lead, contact, conv}) {
    SCOPED_TRACE(id);
    ASSERT_TRUE(is_uuid_v7(id));
    EXPECT_GE(uuid_v7_millis(id), before - 2000);
    EXPECT_LE(uuid_v7_millis(id), after + 2000);
  }
  std::string lead2 = str(create_lead({{"visitor_name", "B"}}).at("id"));
  EXPECT_LT(lead, lead2) << "ids created later sort later";
}

TEST_F(RecordsTest, TimestampsAreUtcWithMilliseconds) {
  std::int64_t before = now_millis();
  json::object lead = create_lead({{"visitor_name", "A"}});
  json::object contact = create_contact({{"first_name", "A"}});
  std::int64_t after = now_millis();
  expect_recent(str(lead.at("created_at")), before, after);
  expect_recent(str(lead.at("updated_at")), before, after);
  expect_recent(str(contact.at("created_at")), before, after);
  json::object item = get_one("contacts", str(contact.at("id")));
  expect_recent(str(item.at("last_activity")), before, after);
  json::object lead_item = get_one("leads", str(lead.at("id")));
  EXPECT_TRUE(is_timestamp(str(lead_item.at("created_at"))));
  EXPECT_TRUE(is_timestamp(str(lead_item.at("updated_at"))));
}

TEST_F(RecordsTest, LeadUpdatedAtMovesForwardOnAChangingPatchOnly) {
  json::object lead = create_lead({{"visitor_name", "A"}, {"tags", json::array{"t"}}});
  std::string id = str(lead.at("id"));
  std::string created = str(lead.at("created_at"));
  std::string updated = str(get_one("leads", id).at("updated_at"));

  std::this_thread::sleep_for(20ms);
  HttpResponse same = patch(
      "/leads?id=" + id,
      json::object{{"visitor_name", "A"}, {"tags", json::array{"t"}}, {"pipeline_stage", "new"}});
  ASSERT_STATUS(same, 200u);
  EXPECT_EQ(str(same.data().as_object().at("updated_at")), updated) << "no-op PATCH";
  HttpResponse empty = patch("/leads?id=" + id, json::object{});
  ASSERT_STATUS(empty, 200u);
  EXPECT_EQ(str(empty.data().as_object().at("updated_at")), updated) << "empty PATCH";

  std::this_thread::sleep_for(20ms);
  HttpResponse changed = patch("/leads?id=" + id, json::object{{"visitor_name", "B"}});
  ASSERT_STATUS(changed, 200u);
  std::string moved = str(changed.data().as_object().at("updated_at"));
  EXPECT_GT(timestamp_millis(moved), timestamp_millis(updated));
  EXPECT_EQ(str(changed.data().as_object().at("created_at")), created);
  EXPECT_EQ(str(get_one("leads", id).at("updated_at")), moved);

  std::this_thread::sleep_for(20ms);
  HttpResponse again = patch("/leads?id=" + id, json::object{{"tags", json::array{"u"}}});
  ASSERT_STATUS(again, 200u);
  EXPECT_GT(timestamp_millis(str(again.data().as_object().at("updated_at"))),
            timestamp_millis(moved));
}

TEST_F(RecordsTest, ConversationUpdatedAtMovesForwardOnAChangingPatchOnly) {
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}},
                                          {message_line("m", timestamp_from_now(-5000ms))},
                                          timestamp_from_now(-6000ms), "open", {"a"})});
  std::string id = conversation_ids().at(0);
  std::string updated =
      str(get_one("conversations", id).at("conversation").as_object().at("updated_at"));
  HttpResponse same = patch("/conversations?id=" + id,
                            json::object{{"status", "open"}, {"tags", json::array{"a"}}});
  ASSERT_STATUS(same, 200u);
  EXPECT_EQ(str(same.data().as_object().at("updated_at")), updated);
  HttpResponse empty = patch("/conversations?id=" + id, json::object{});
  ASSERT_STATUS(empty, 200u);
  EXPECT_EQ(str(empty.data().as_object().at("updated_at")), updated);
  HttpResponse changed = patch("/conversations?id=" + id, json::object{{"status", "active"}});
  ASSERT_STATUS(changed, 200u);
  EXPECT_GT(timestamp_millis(str(changed.data().as_object().at("updated_at"))),
            timestamp_millis(updated));
}

TEST_F(RecordsTest, ContactLastActivityFollowsChangingPatchesOnly) {
  json::object contact = create_contact({{"first_name", "Ada"}, {"last_name", "L"}});
  std::string id = str(contact.at("id"));
  std::string created = str(contact.at("created_at"));
  EXPECT_EQ(str(get_one("contacts", id).at("last_activity")), created);

  std::this_thread::sleep_for(20ms);
  HttpResponse noop = patch("/contacts?id=" + id, json::object{{"first_name", "Ada"}});
  ASSERT_STATUS(noop, 200u);
  EXPECT_EQ(str(noop.data().as_object().at("last_activity")), created);

  std::this_thread::sleep_for(20ms);
  std::int64_t before = now_millis();
  HttpResponse changed = patch("/contacts?id=" + id, json::object{{"last_name", "Lovelace"}});
  ASSERT_STATUS(changed, 200u);
  std::string activity = str(changed.data().as_object().at("last_activity"));
  EXPECT_GT(timestamp_millis(activity), timestamp_millis(created));
  EXPECT_GE(timestamp_millis(activity), before - 5);
  EXPECT_EQ(str(changed.data().as_object().at("created_at")), created);
}

TEST_F(RecordsTest, ContactLastActivityIncludesNewestMessageOfLinkedConversations) {
  json::object contact = create_contact({{"first_name", "Ada"}, {"email", "Ada@Example.com"}});
  std::string id = str(contact.at("id"));
  std::string created = str(contact.at("created_at"));

  // Older messages do not move last_activity backwards.
  import_lines(ws_.id, {conversation_line({{"first_name", "Ada"}, {"email", "ada@example.com"}},
                                          {message_line("old", timestamp_from_now(-86'400'000ms))},
                                          timestamp_from_now(-90'000'000ms))});
  EXPECT_EQ(str(get_one("contacts", id).at("last_activity")), created);

  // A newer (here: future) message does.
  std::string future = timestamp_from_now(3'600'000ms);
  import_lines(ws_.id,
               {conversation_line({{"first_name", "Ada"}, {"email", "ADA@example.COM"}},
                                  {message_line("new", future)}, timestamp_from_now(-1000ms))});
  EXPECT_EQ(str(get_one("contacts", id).at("last_activity")), future);
}

TEST_F(RecordsTest, ConversationCountAndLastConversationAt) {
  std::string id =
      str(create_contact({{"first_name", "Ada"}, {"email", "ada@example.com"}}).at("id"));
  std::string early = timestamp_from_now(-7'200'000ms);
  std::string late = timestamp_from_now(-3'600'000ms);
  json::object counts = import_lines(
      ws_.id, {conversation_line({{"first_name", "Ada"}, {"email", "ADA@example.com"}}, {}, late),
               conversation_line({{"first_name", "Ada"}, {"email", "ada@EXAMPLE.com"}}, {}, early),
               conversation_line({{"first_name", "Other"}, {"email", "o@example.com"}}, {}, late)});
  EXPECT_EQ(counts.at("conversations"), 3);
  EXPECT_EQ(counts.at("contacts"), 1);
  json::object c = get_one("contacts", id);
  EXPECT_EQ(c.at("conversation_count"), 2);
  EXPECT_EQ(c.at("last_conversation_at"), json::value(late));
}

TEST_F(RecordsTest, DeletingAContactUnlinksItsConversationsAndDeletesNothingElse) {
  import_lines(ws_.id, {conversation_line({{"first_name", "Ada"},
                                           {"last_name", "L"},
                                           {"email", "ada@example.com"},
                                           {"phone", "1"},
                                           {"company_name", "AE"}},
                                          {message_line("hi", timestamp_from_now(-1000ms))},
                                          timestamp_from_now(-2000ms))});
  std::string conv = conversation_ids().at(0);
  json::array contacts = list_all("contacts");
  ASSERT_EQ(contacts.size(), 1u);
  std::string contact = str(contacts[0].as_object().at("id"));
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);

  json::array items = list_all("conversations");
  ASSERT_EQ(items.size(), 1u);
  const auto& item = items[0].as_object();
  EXPECT_TRUE(item.at("visitor_name").is_null());
  EXPECT_TRUE(item.at("visitor_email").is_null());
  EXPECT_TRUE(item.at("visitor_company").is_null());
  EXPECT_EQ(item.at("message_count"), 1);
  EXPECT_EQ(item.at("last_message"), "hi");
  json::object one = get_one("conversations", conv);
  const auto& c = one.at("conversation").as_object();
  for (const char* f :
       {"visitor_name", "visitor_last_name", "visitor_email", "visitor_phone", "visitor_company"}) {
    EXPECT_TRUE(c.at(f).is_null()) << f;
  }
  EXPECT_EQ(one.at("messages").as_array().size(), 1u);
  EXPECT_EQ(list_all("contacts").size(), 0u);
}

TEST_F(RecordsTest, DuplicateEmailOnCreateIs409WithTheExistingIdAndCreatesNothing) {
  std::string id = str(create_contact({{"first_name", "Ada"}, {"email", "Ada@X.io"}}).at("id"));
  for (const char* email : {"Ada@X.io", "ada@x.io", "ADA@X.IO", "  ada@x.io  "}) {
    SCOPED_TRACE(email);
    HttpResponse r = post("/contacts", json::object{{"first_name", "Other"}, {"email", email}});
    ASSERT_STATUS(r, 409u);
    const auto& o = r.object();
    EXPECT_EQ(keys_of(o), key_set({"success", "error", "data"}));
    EXPECT_EQ(o.at("success"), false);
    EXPECT_EQ(o.at("error"), kDuplicate);
    EXPECT_EQ(keys_of(o.at("data")), key_set({"id"}));
    EXPECT_EQ(o.at("data").as_object().at("id"), json::value(id));
    EXPECT_TRUE(has_json_content_type(r));
  }
  EXPECT_EQ(total_count(get("/contacts")), 1);
}

TEST_F(RecordsTest, DuplicateEmailOnPatchIs409WithTheExistingId) {
  std::string ada = str(create_contact({{"first_name", "Ada"}, {"email", "Ada@X.io"}}).at("id"));
  std::string bob = str(create_contact({{"first_name", "Bob"}, {"email", "bob@x.io"}}).at("id"));
  HttpResponse r = patch("/contacts?id=" + bob, json::object{{"email", " aDa@x.IO "}});
  ASSERT_STATUS(r, 409u);
  EXPECT_EQ(r.object().at("error"), kDuplicate);
  EXPECT_EQ(r.object().at("data").as_object().at("id"), json::value(ada));
  EXPECT_EQ(get_one("contacts", bob).at("email"), "bob@x.io");
}

TEST_F(RecordsTest, DuplicateEmailIsPerWorkspace) {
  create_contact({{"first_name", "Ada"}, {"email", "ada@x.io"}});
  WorkspaceKeys other = make_workspace("Other");
  EXPECT_STATUS(
      post("/contacts", json::object{{"first_name", "Ada"}, {"email", "ada@x.io"}}, other.rw.key),
      201u);
}

TEST_F(RecordsTest, EmailIsFreeAgainAfterTheContactIsDeleted) {
  std::string id = str(create_contact({{"first_name", "Ada"}, {"email", "ada@x.io"}}).at("id"));
  ASSERT_STATUS(del("/contacts?id=" + id), 200u);
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "Ada"}, {"email", "ADA@x.io"}}),
                201u);
}

TEST_F(RecordsTest, ConcurrentCreatesOfOneEmailYieldExactlyOneContact) {
  constexpr int kN = 50;
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < kN; ++i) {
    clients.push_back(std::make_unique<HttpClient>(server().host(), server().port()));
    clients.back()->connect();
  }
  std::vector<HttpResponse> results(kN);
  std::vector<std::string> failures(kN);
  std::latch start(kN);
  std::vector<std::thread> threads;
  for (int i = 0; i < kN; ++i) {
    threads.emplace_back([&, i] {
      json::object body{{"first_name", "N" + std::to_string(i)},
                        {"email", i % 2 ? "Same@Example.com" : "same@example.com"}};
      start.arrive_and_wait();
      try {
        results[i] =
            clients[i]->request("POST", std::string(kBase) + "/contacts", json::serialize(body),
                                {{"Authorization", "Bearer " + ws_.rw.key}});
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  int created = 0;
  int conflicts = 0;
  std::string created_id;
  for (int i = 0; i < kN; ++i) {
    ASSERT_TRUE(failures[i].empty()) << failures[i];
    if (results[i].status == 201) {
      ++created;
      created_id = str(results[i].data().as_object().at("id"));
    } else if (results[i].status == 409) {
      ++conflicts;
    } else {
      ADD_FAILURE() << results[i].describe();
    }
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(conflicts, kN - 1);
  for (const auto& r : results) {
    if (r.status == 409) {
      EXPECT_EQ(r.object().at("error"), kDuplicate);
      EXPECT_EQ(r.object().at("data").as_object().at("id"), json::value(created_id));
    }
  }
  EXPECT_EQ(total_count(get("/contacts")), 1);
}

}  // namespace
}  // namespace leadline_test
