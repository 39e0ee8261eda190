// Workspace isolation and secrets at rest: a key of workspace B never reads, lists, counts,
// searches, pages into, changes or deletes workspace A's leads, contacts or conversations, nor
// links to A's reps, agents, departments or contacts; contact e-mail de-duplication is per
// workspace; the database files (-wal and -shm included) never hold a plaintext key; and a 500
// carries no internals.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/database_probe.hpp"
#include "support/fixture.hpp"
#include "support/test_backend.hpp"

namespace leadline_test {
namespace {

class IsolationTest : public ApiTest {
 protected:
  // Workspace A (ws_) holds three of each record, all carrying the marker "zqxalpha"; workspace
  // B holds two of each of its own.
  void SetUp() override {
    ApiTest::SetUp();
    b_ = make_workspace("B");
    rep_a_ = add_rep(ws_.id, "Repa", "Zqxalpha", "rep@zqxalpha.io");
    agent_a_ = add_agent(ws_.id, "Agenta", "Zqxalpha", "agent@zqxalpha.io");
    department_a_ = add_department(ws_.id, "Zqxalpha sales");
    std::vector<json::value> a_lines;
    std::vector<json::value> b_lines;
    for (int i = 0; i < 3; ++i) {
      const std::string n = std::to_string(i);
      a_leads_.insert(str(create_lead({{"visitor_name", "Zqxalpha Lead " + n},
                                       {"visitor_email", "lead" + n + "@zqxalpha.io"},
                                       {"visitor_company", "Zqxalpha Corp"},
                                       {"pipeline_stage", "qualified"},
                                       {"tags", json::array{"zqxalpha-tag"}}})
                              .at("id")));
      a_contacts_.insert(str(create_contact({{"first_name", "Zqxalpha"},
                                             {"last_name", "Contact " + n},
                                             {"email", "contact" + n + "@zqxalpha.io"},
                                             {"tags", json::array{"zqxalpha-tag"}}})
                                 .at("id")));
      a_lines.push_back(
          conversation_line({{"first_name", "Zqxalpha"}, {"email", "visitor" + n + "@zqxalpha.io"}},
                            {message_line("secret of A " + n, timestamp_from_now(-1000ms))},
                            timestamp_from_now(-2000ms - std::chrono::milliseconds(i)), "open",
                            json::array{"zqxalpha-tag"}));
      if (i < 2) {
        b_leads_.insert(str(create_lead({{"visitor_name", "Bee Lead " + n},
                                         {"pipeline_stage", "qualified"},
                                         {"tags", json::array{"bee-tag"}}},
                                        b_.rw.key)
                                .at("id")));
        b_contacts_.insert(str(create_contact({{"first_name", "Bee"},
                                               {"email", "bee" + n + "@bee.io"},
                                               {"tags", json::array{"bee-tag"}}},
                                              b_.rw.key)
                                   .at("id")));
        b_lines.push_back(conversation_line(
            {{"first_name", "Bee"}}, {}, timestamp_from_now(-3000ms - std::chrono::milliseconds(i)),
            "open", json::array{"bee-tag"}));
      }
    }
    import_lines(ws_.id, a_lines);
    import_lines(b_.id, b_lines);
    for (const auto& id : conversation_ids()) a_conversations_.insert(id);
    for (const auto& id : conversation_ids(b_.rw.key)) b_conversations_.insert(id);
    ASSERT_EQ(a_conversations_.size(), 3u);
    ASSERT_EQ(b_conversations_.size(), 2u);
  }

  // Everything a key of A can see, conversations with their messages.
  json::array snapshot_of_a() {
    json::array all;
    all.push_back(list_all("leads"));
    all.push_back(list_all("contacts"));
    all.push_back(list_all("conversations"));
    for (const auto& id : a_conversations_) all.push_back(get_one("conversations", id));
    return all;
  }

  const std::set<std::string>& ids_of_a(const std::string& resource) const {
    return resource == "leads" ? a_leads_ : resource == "contacts" ? a_contacts_ : a_conversations_;
  }
  const std::set<std::string>& ids_of_b(const std::string& resource) const {
    return resource == "leads" ? b_leads_ : resource == "contacts" ? b_contacts_ : b_conversations_;
  }

  WorkspaceKeys b_;
  std::string rep_a_;
  std::string agent_a_;
  std::string department_a_;
  std::set<std::string> a_leads_, a_contacts_, a_conversations_;
  std::set<std::string> b_leads_, b_contacts_, b_conversations_;
};

const std::vector<std::string> kResources = {"leads", "contacts", "conversations"};

std::string upper_case(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

TEST_F(IsolationTest, ListsCountsSearchesAndFiltersOfBNeverIncludeA) {
  struct Query {
    std::string resource;
    std::string query;
    std::int64_t b_total;  // what B must count
  };
  const std::vector<Query> queries = {
      {"leads", "", 2},
      {"leads", "stage=qualified", 2},
      {"leads", "search=zqxalpha", 0},
      {"leads", "search=ZQXALPHA%20CORP", 0},
      {"leads", "search=lead", 2},
      {"leads", "sort=visitor_name:desc", 2},
      {"leads", "page=1", 2},
      {"contacts", "", 4},  // two of its own and two from its conversations' visitors
      {"contacts", "tag=zqxalpha-tag", 0},
      {"contacts", "tag=bee-tag", 2},
      {"contacts", "search=zqxalpha", 0},
      {"contacts", "search=contact0%40zqxalpha.io", 0},
      {"contacts", "search=bee", 4},
      {"contacts", "sort=email:asc", 4},
      {"conversations", "", 2},
      {"conversations", "status=open", 2},
      {"conversations", "status=all", 2},
      {"conversations", "tag=zqxalpha-tag", 0},
      {"conversations", "search=visitor1", 0},
      {"conversations", "search=zqxalpha", 0},
      {"conversations", "sort=updated_at:asc", 2},
  };
  for (const auto& q : queries) {
    SCOPED_TRACE(q.resource + "?" + q.query);
    for (int limit : {1, 100}) {
      std::string target = "/" + q.resource + "?limit=" + std::to_string(limit);
      if (!q.query.empty()) target += "&" + q.query;
      HttpResponse r = get(target, b_.rw.key);
      ASSERT_STATUS(r, 200u);
      EXPECT_EQ(total_count(r), q.b_total);
    }
    if (q.query.find("page=") != std::string::npos) continue;
    for (const auto& id : ids_of(list_all(q.resource, q.query, b_.ro.key, 1))) {
      EXPECT_EQ(ids_of_a(q.resource).count(id), 0u) << "B listed A's record " << id;
    }
  }
  // And the other way round: A sees none of B's.
  for (const auto& resource : kResources) {
    for (const auto& id : ids_of(list_all(resource))) {
      EXPECT_EQ(ids_of_b(resource).count(id), 0u) << "A listed B's record " << id;
    }
  }
}

TEST_F(IsolationTest, CursorsMintedForOneWorkspaceAreRefusedForTheOther) {
  const std::vector<std::pair<std::string, std::string>> queries = {
      {"leads", ""},
      {"leads", "sort=created_at:asc"},
      {"leads", "stage=qualified"},
      {"contacts", ""},
      {"contacts", "sort=name"},
      {"conversations", ""},
      {"conversations", "status=open"},
  };
  for (const auto& [resource, query] : queries) {
    SCOPED_TRACE(resource + "?" + query);
    std::string target = "/" + resource + "?limit=1" + (query.empty() ? "" : "&" + query);
    HttpResponse a_page = get(target);
    ASSERT_STATUS(a_page, 200u);
    std::string a_cursor = str(a_page.object().at("pagination").at("next_cursor"));
    HttpResponse b_page = get(target, b_.rw.key);
    ASSERT_STATUS(b_page, 200u);
    std::string b_cursor = str(b_page.object().at("pagination").at("next_cursor"));

    for (const std::string& key : {b_.rw.key, b_.ro.key}) {
      HttpResponse stolen = get(target + "&cursor=" + url_encode(a_cursor), key);
      EXPECT_TRUE(is_error(stolen, 400, "cursor"));
    }
    EXPECT_TRUE(is_error(get(target + "&cursor=" + url_encode(b_cursor)), 400, "cursor"));
    // Each still works for its own workspace.
    EXPECT_STATUS(get(target + "&cursor=" + url_encode(a_cursor)), 200u);
    EXPECT_STATUS(get(target + "&cursor=" + url_encode(b_cursor), b_.rw.key), 200u);
  }
}

TEST_F(IsolationTest, BCanNeitherReadNorChangeNorDeleteNorReferenceAnythingOfA) {
  const json::array before = snapshot_of_a();
  const std::string b_lead = *b_leads_.begin();
  const std::string b_contact = *b_contacts_.begin();
  const std::string b_conversation = *b_conversations_.begin();
  const std::map<std::string, std::string> patch_bodies = {
      {"leads", R"({"visitor_name":"Taken by B","tags":[]})"},
      {"contacts", R"({"first_name":"Taken by B","email":"b@b.io"})"},
      {"conversations", R"({"status":"archived","tags":["b"]})"},
  };
  for (const auto& resource : kResources) {
    for (const auto& id : ids_of_a(resource)) {
      for (const std::string& spelling : {id, upper_case(id)}) {
        SCOPED_TRACE(resource + " " + spelling);
        const std::string target = "/" + resource + "?id=" + spelling;
        EXPECT_TRUE(is_error(get(target, b_.rw.key), 404));
        EXPECT_TRUE(is_error(get(target, b_.ro.key), 404));
        EXPECT_TRUE(is_error(send("PATCH", target, patch_bodies.at(resource), {}, b_.rw.key), 404));
        EXPECT_TRUE(is_error(send("PATCH", target, patch_bodies.at(resource), {}, b_.wo.key), 404));
        if (resource != "conversations") {
          EXPECT_TRUE(is_error(del(target, b_.rw.key), 404));
          EXPECT_TRUE(is_error(del(target, b_.wo.key), 404));
        }
      }
    }
  }
  // A's rep, agent and department cannot be attached to B's records.
  EXPECT_TRUE(
      is_error(patch("/leads?id=" + b_lead, json::object{{"assigned_rep_id", rep_a_}}, b_.rw.key),
               400, "assigned_rep_id"));
  EXPECT_TRUE(is_error(
      patch("/conversations?id=" + b_conversation, json::object{{"agent_id", agent_a_}}, b_.rw.key),
      400, "agent_id"));
  EXPECT_TRUE(is_error(patch("/conversations?id=" + b_conversation,
                             json::object{{"department_id", department_a_}}, b_.rw.key),
                       400, "department_id"));
  // B's records may take A's values as plain data without touching A.
  EXPECT_STATUS(
      patch("/contacts?id=" + b_contact,
            json::object{{"email", "contact0@zqxalpha.io"}, {"last_name", "Zqxalpha"}}, b_.rw.key),
      200u);
  EXPECT_STATUS(patch("/leads?id=" + b_lead,
                      json::object{{"visitor_email", "lead0@zqxalpha.io"},
                                   {"tags", json::array{"zqxalpha-tag"}}},
                      b_.rw.key),
                200u);
  EXPECT_EQ(snapshot_of_a(), before);
  EXPECT_EQ(total_count(get("/leads?search=zqxalpha", b_.rw.key)), 1);
}

TEST_F(IsolationTest, ContactEmailDeduplicationAndConversationLinksArePerWorkspace) {
  const json::array before = snapshot_of_a();
  // A's contact address and A's conversation visitor's address, in another case.
  HttpResponse twin =
      post("/contacts", json::object{{"first_name", "Twin"}, {"email", "CONTACT0@zqxalpha.io"}},
           b_.rw.key);
  ASSERT_STATUS(twin, 201u);
  const std::string twin_id = str(twin.data().at("id"));
  HttpResponse visitor_twin =
      post("/contacts", json::object{{"first_name", "Visitor"}, {"email", "visitor0@zqxalpha.io"}},
           b_.rw.key);
  ASSERT_STATUS(visitor_twin, 201u);
  // A's conversations stay A's: B's contact with the same address is linked to none.
  json::object seen_by_b = get_one("contacts", str(visitor_twin.data().at("id")), b_.rw.key);
  EXPECT_EQ(seen_by_b.at("conversation_count"), json::value(0));
  EXPECT_TRUE(seen_by_b.at("last_conversation_at").is_null());

  // Each workspace's 409 names its own contact.
  HttpResponse dup_in_b = post(
      "/contacts", json::object{{"first_name", "X"}, {"email", "contact0@ZQXALPHA.io"}}, b_.rw.key);
  ASSERT_STATUS(dup_in_b, 409u);
  EXPECT_EQ(str(dup_in_b.object().at("data").at("id")), twin_id);
  HttpResponse dup_in_a =
      post("/contacts", json::object{{"first_name", "X"}, {"email", "contact0@zqxalpha.io"}});
  ASSERT_STATUS(dup_in_a, 409u);
  const std::string a_id = str(dup_in_a.object().at("data").at("id"));
  EXPECT_TRUE(a_contacts_.count(a_id)) << a_id;

  // An import into B with A's visitor address creates B's own contact.
  import_lines(b_.id,
               {conversation_line({{"first_name", "Imported"}, {"email", "visitor1@zqxalpha.io"}},
                                  {message_line("hello B", timestamp_from_now(-500ms))},
                                  timestamp_from_now(-600ms))});
  EXPECT_EQ(total_count(get("/conversations?search=visitor1", b_.rw.key)), 1);
  EXPECT_EQ(snapshot_of_a(), before);
  EXPECT_EQ(total_count(get("/contacts?search=visitor1")), 1);
}

// --- Secrets at rest ---------------------------------------------------------------------------

class KeyStorageTest : public ApiTest {};

TEST_F(KeyStorageTest, NoDatabaseFileHoldsAPlaintextKeyAfterServingRequests) {
  std::vector<std::string> keys = {ws_.rw.key, ws_ro().key, ws_wo().key};
  json::object revoked = create_key(ws_.id, "read", {}, "to revoke");
  keys.push_back(str(revoked.at("key")));
  // Use every key through the server (successes, refusals, writes, a revoked key).
  for (int round = 0; round < 3; ++round) {
    for (const auto& key : keys) {
      get("/leads", key);
      post("/leads", json::object{{"visitor_name", "K"}}, key);
      get("/contacts?search=" + url_encode(key), key);
    }
  }
  revoke_key(str(revoked.at("id")));
  EXPECT_TRUE(is_error(get("/leads", keys.back()), 401));
  // Usage counters reach the database within about a second.
  std::this_thread::sleep_for(1500ms);

  const std::vector<StoredBytes> stored = stored_bytes(server().db_url());
  for (const auto& [origin, bytes] : stored) {
    for (const auto& key : keys) {
      EXPECT_EQ(bytes.find(key.substr(8)), std::string::npos)
          << origin << " holds the secret part of a key";
      EXPECT_EQ(bytes.find(key.substr(12)), std::string::npos)
          << origin << " holds the undisplayed part of a key";
    }
  }
  if (test_backend() == Backend::kSqlite) {
    // The database and its write-ahead log at least: the WAL holds the newest pages.
    EXPECT_GE(stored.size(), 2u);
  } else {
    // The dump really holds the stored rows: the key hashes are in it.
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_NE(stored[0].bytes.find("fc_live_"), std::string::npos) << "no key prefix in the dump";
  }
  // The search above sent a key as a query value; the server's log does not keep it either.
  const std::string log = server().output();
  for (const auto& key : keys) EXPECT_EQ(log.find(key.substr(8)), std::string::npos);
}

// --- 500s -------------------------------------------------------------------------------------

class InternalErrorTest : public ApiTest {
 public:
  // A server of its own: this suite damages its schema.
  static void SetUpTestSuite() { start_suite_server({"--rate-limit", "1000000/60s"}); }
};

TEST_F(InternalErrorTest, A500CarriesOnlyTheRequestIdNeverInternals) {
  create_lead({{"visitor_name", "Before"}});
  // Another process renames the table the server reads leads from: every lead query now fails
  // inside the store, which is what a 500 is for.
  ASSERT_TRUE(exec_sql(server().db_url(), "ALTER TABLE leads RENAME TO leads_moved_away"));

  HttpResponse generated = get("/leads");
  HttpResponse traced =
      send("GET", "/leads?limit=5", std::nullopt, {{"X-Request-Id", "trace-500"}});
  HttpResponse created = post("/leads", json::object{{"visitor_name", "During"}});
  ASSERT_TRUE(exec_sql(server().db_url(), "ALTER TABLE leads_moved_away RENAME TO leads"));

  for (const HttpResponse* r : {&generated, &traced, &created}) {
    ASSERT_TRUE(is_error(*r, 500));
    EXPECT_TRUE(has_json_content_type(*r));
    const std::string id = r->header("X-Request-Id");
    ASSERT_FALSE(id.empty()) << r->describe();
    EXPECT_EQ(str(r->object().at("error")), "internal error (request id " + id + ")");
    // Nothing of the cause anywhere else (the request id itself aside).
    std::string rest = r->body;
    rest.replace(rest.find(id), id.size(), "<id>");
    for (const auto& [name, value] : r->headers) {
      if (name != "X-Request-Id") rest += "\n" + name + ": " + value;
    }
    for (const char* internal :
         {"leads_moved_away", "sqlite", "SQL", "no such", "table", "relation", "does not exist",
          "postgres", "store", ".cpp", "what"}) {
      EXPECT_EQ(rest.find(internal), std::string::npos) << internal << "\n" << r->describe();
    }
  }
  EXPECT_EQ(traced.header("X-Request-Id"), "trace-500");
  // The cause is logged with the request id, for the operator.
  const std::string log = server().output();
  EXPECT_NE(log.find("trace-500"), std::string::npos) << log;
  // The server survived, other resources were served throughout, and leads are back.
  EXPECT_STATUS(get("/contacts"), 200u);
  HttpResponse after = get("/leads");
  ASSERT_STATUS(after, 200u);
  EXPECT_EQ(total_count(after), 1);
}

}  // namespace
}  // namespace leadline_test
