// Conversations: list items, get-one with messages, PATCH (status, agent, department, tags) and
// its {id,status,tags,updated_at} answer; conversations are created only by `leadline import`.

#include <gtest/gtest.h>

#include <string>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class ConversationsTest : public ApiTest {
 protected:
  // Imports one conversation of Ada (with two messages) and returns its id.
  std::string import_ada(const std::string& status = "open", json::array tags = {"vip"}) {
    t0_ = timestamp_from_now(-3'600'000ms);
    t1_ = timestamp_from_now(-3'599'000ms);
    t2_ = timestamp_from_now(-3'598'000ms);
    json::object counts =
        import_lines(ws_.id, {conversation_line(ada_,
                                                {message_line("Hi", t1_, "visitor", "Ada"),
                                                 message_line("Hello Ada", t2_, "bot")},
                                                t0_, status, tags)});
    EXPECT_EQ(counts.at("conversations"), 1);
    auto ids = conversation_ids();
    return ids.empty() ? std::string() : ids[0];
  }

  json::object ada_{{"first_name", "Ada"},
                    {"last_name", "Lovelace"},
                    {"email", "ada@example.com"},
                    {"phone", "+44 20 0000"},
                    {"company_name", "Analytical Engines"}};
  std::string t0_, t1_, t2_;
};

const KeySet kConversationListItem = {"id",           "source",        "status",          "tags",
                          "created_at",   "updated_at",    "agent_id",        "department_id",
                          "visitor_name", "visitor_email", "visitor_company", "agent_name",
                          "last_message", "message_count"};

const KeySet kConversation = {"id",
                              "source",
                              "status",
                              "tags",
                              "created_at",
                              "updated_at",
                              "visitor_name",
                              "visitor_last_name",
                              "visitor_email",
                              "visitor_phone",
                              "visitor_company",
                              "agent_name",
                              "agent_last_name",
                              "agent_email"};

const KeySet kMessage = {"id",     "sender_type", "content",    "attachments",
                         "status", "created_at",  "sender_name"};

TEST_F(ConversationsTest, ListItemHasExactlyTheDocumentedFieldsAndValues) {
  std::string id = import_ada();
  HttpResponse r = get("/conversations");
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_list_envelope(r));
  ASSERT_EQ(r.data().as_array().size(), 1u);
  const auto& item = r.data().as_array()[0].as_object();
  EXPECT_EQ(keys_of(item), kConversationListItem) << r.describe();
  EXPECT_EQ(item.at("id"), json::value(id));
  EXPECT_EQ(item.at("source"), "widget");
  EXPECT_EQ(item.at("status"), "open");
  EXPECT_EQ(item.at("tags"), (json::array{"vip"}));
  EXPECT_EQ(item.at("created_at"), json::value(t0_));
  EXPECT_EQ(item.at("updated_at"), json::value(t2_));
  EXPECT_TRUE(item.at("agent_id").is_null());
  EXPECT_TRUE(item.at("department_id").is_null());
  EXPECT_EQ(item.at("visitor_name"), "Ada");
  EXPECT_EQ(item.at("visitor_email"), "ada@example.com");
  EXPECT_EQ(item.at("visitor_company"), "Analytical Engines");
  EXPECT_TRUE(item.at("agent_name").is_null());
  EXPECT_EQ(item.at("last_message"), "Hello Ada");
  EXPECT_EQ(item.at("message_count"), 2);
}

TEST_F(ConversationsTest, GetOneHasConversationMessagesAndMessageCount) {
  std::string id = import_ada();
  HttpResponse r = get("/conversations?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), key_set({"conversation", "messages", "message_count"}));
  const auto& c = d.at("conversation").as_object();
  EXPECT_EQ(keys_of(c), kConversation) << r.describe();
  EXPECT_EQ(c.at("id"), json::value(id));
  EXPECT_EQ(c.at("source"), "widget");
  EXPECT_EQ(c.at("status"), "open");
  EXPECT_EQ(c.at("tags"), (json::array{"vip"}));
  EXPECT_EQ(c.at("created_at"), json::value(t0_));
  EXPECT_EQ(c.at("updated_at"), json::value(t2_));
  EXPECT_EQ(c.at("visitor_name"), "Ada");
  EXPECT_EQ(c.at("visitor_last_name"), "Lovelace");
  EXPECT_EQ(c.at("visitor_email"), "ada@example.com");
  EXPECT_EQ(c.at("visitor_phone"), "+44 20 0000");
  EXPECT_EQ(c.at("visitor_company"), "Analytical Engines");
  EXPECT_TRUE(c.at("agent_name").is_null());
  EXPECT_TRUE(c.at("agent_last_name").is_null());
  EXPECT_TRUE(c.at("agent_email").is_null());

  const auto& messages = d.at("messages").as_array();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(d.at("message_count"), 2);
  for (const auto& m : messages) EXPECT_EQ(keys_of(m), kMessage) << json::serialize(m);
  const auto& first = messages[0].as_object();
  EXPECT_TRUE(first.at("id").is_string());
  EXPECT_EQ(first.at("sender_type"), "visitor");
  EXPECT_EQ(first.at("content"), "Hi");
  EXPECT_TRUE(first.at("attachments").is_null());
  EXPECT_EQ(first.at("status"), "delivered");
  EXPECT_EQ(first.at("created_at"), json::value(t1_));
  EXPECT_EQ(first.at("sender_name"), "Ada");
  const auto& second = messages[1].as_object();
  EXPECT_EQ(second.at("sender_type"), "bot");
  EXPECT_EQ(second.at("content"), "Hello Ada");
  EXPECT_TRUE(second.at("sender_name").is_null());
  EXPECT_NE(first.at("id"), second.at("id"));
}

TEST_F(ConversationsTest, MessagesAreReturnedOldestFirstAndLastMessageIsTheNewest) {
  std::string a = timestamp_from_now(-50'000ms);
  std::string b = timestamp_from_now(-40'000ms);
  std::string c = timestamp_from_now(-30'000ms);
  std::string d = timestamp_from_now(-20'000ms);
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}},
                                          {message_line("third", c), message_line("first", a),
                                           message_line("fourth", d), message_line("second", b)},
                                          timestamp_from_now(-60'000ms))});
  std::string id = conversation_ids().at(0);
  json::object one = get_one("conversations", id);
  std::vector<std::string> contents;
  for (const auto& m : one.at("messages").as_array()) contents.push_back(str(m.at("content")));
  EXPECT_EQ(contents, (std::vector<std::string>{"first", "second", "third", "fourth"}));
  EXPECT_EQ(one.at("message_count"), 4);
  json::array items = list_all("conversations");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].as_object().at("last_message"), "fourth");
  EXPECT_EQ(items[0].as_object().at("message_count"), 4);
  // updated_at defaults to the newest message's created_at.
  EXPECT_EQ(items[0].as_object().at("updated_at"), json::value(d));
}

TEST_F(ConversationsTest, AttachmentsAreAnArrayWhenPresentAndMessageTiesAreOrderedById) {
  std::string same = timestamp_from_now(-30'000ms);
  json::object with_file = message_line("file", timestamp_from_now(-40'000ms));
  with_file["attachments"] = json::array{json::object{{"name", "a.png"}, {"size", 10}}};
  import_lines(ws_.id,
               {conversation_line({{"first_name", "V"}},
                                  {message_line("tie-1", same), with_file,
                                   message_line("tie-2", same), message_line("tie-3", same)},
                                  timestamp_from_now(-60'000ms))});
  json::object one = get_one("conversations", conversation_ids().at(0));
  const auto& messages = one.at("messages").as_array();
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[0].at("content"), "file");
  ASSERT_TRUE(messages[0].at("attachments").is_array());
  EXPECT_EQ(messages[0].at("attachments").as_array().size(), 1u);
  for (std::size_t i = 1; i < messages.size(); ++i) {
    EXPECT_TRUE(messages[i].at("attachments").is_null());
    EXPECT_EQ(messages[i].at("created_at"), json::value(same));
  }
  for (std::size_t i = 2; i < messages.size(); ++i) {
    std::string prev = str(messages[i - 1].at("id"));
    std::string cur = str(messages[i].at("id"));
    if (is_uuid(prev) && is_uuid(cur)) {
      EXPECT_LT(prev, cur) << "ties are ordered by id";
    }
  }
}

TEST_F(ConversationsTest, ConversationWithoutMessages) {
  import_lines(ws_.id,
               {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-10'000ms))});
  json::array items = list_all("conversations");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].as_object().at("last_message").is_null());
  EXPECT_EQ(items[0].as_object().at("message_count"), 0);
  json::object one = get_one("conversations", str(items[0].as_object().at("id")));
  EXPECT_EQ(one.at("messages"), json::array());
  EXPECT_EQ(one.at("message_count"), 0);
}

TEST_F(ConversationsTest, PatchAnswersExactlyIdStatusTagsUpdatedAt) {
  std::string id = import_ada();
  HttpResponse r = patch("/conversations?id=" + id,
                         json::object{{"status", "pending"}, {"tags", json::array{"x", "y"}}});
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), key_set({"id", "status", "tags", "updated_at"})) << r.describe();
  EXPECT_EQ(d.at("id"), json::value(id));
  EXPECT_EQ(d.at("status"), "pending");
  EXPECT_EQ(d.at("tags"), (json::array{"x", "y"}));
  EXPECT_TRUE(is_timestamp(str(d.at("updated_at"))));
  json::object one = get_one("conversations", id);
  EXPECT_EQ(one.at("conversation").as_object().at("status"), "pending");
  EXPECT_EQ(one.at("conversation").as_object().at("tags"), (json::array{"x", "y"}));
  EXPECT_EQ(one.at("conversation").as_object().at("updated_at"), d.at("updated_at"));
}

TEST_F(ConversationsTest, PatchTakesEveryStatusButNotAllOrOtherValues) {
  std::string id = import_ada();
  for (const char* status : {"pending", "active", "archived", "open"}) {
    SCOPED_TRACE(status);
    HttpResponse r = patch("/conversations?id=" + id, json::object{{"status", status}});
    ASSERT_STATUS(r, 200u);
    EXPECT_EQ(r.data().as_object().at("status"), json::value(status));
  }
  for (const json::value& bad : {json::value("all"), json::value("Open"), json::value("closed"),
                                 json::value(""), json::value(nullptr), json::value(1)}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(
        is_error(patch("/conversations?id=" + id, json::object{{"status", bad}}), 400, "status"));
  }
  EXPECT_EQ(get_one("conversations", id).at("conversation").as_object().at("status"), "open");
}

TEST_F(ConversationsTest, PatchTagsReplacesTheArray) {
  std::string id = import_ada("open", {"a", "b"});
  HttpResponse r = patch("/conversations?id=" + id, json::object{{"tags", json::array{"c"}}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("tags"), (json::array{"c"}));
  EXPECT_EQ(list_all("conversations")[0].as_object().at("tags"), (json::array{"c"}));
}

TEST_F(ConversationsTest, AssigningAnAgentAndADepartment) {
  std::string id = import_ada();
  std::string agent = add_agent(ws_.id, "Alan", "Turing", "alan@example.com");
  std::string dept = add_department(ws_.id, "Sales");
  HttpResponse r =
      patch("/conversations?id=" + id, json::object{{"agent_id", agent}, {"department_id", dept}});
  ASSERT_STATUS(r, 200u);
  json::array items = list_all("conversations");
  ASSERT_EQ(items.size(), 1u);
  const auto& item = items[0].as_object();
  EXPECT_EQ(item.at("agent_id"), json::value(agent));
  EXPECT_EQ(item.at("department_id"), json::value(dept));
  EXPECT_EQ(item.at("agent_name"), "Alan");
  json::object c = get_one("conversations", id).at("conversation").as_object();
  EXPECT_EQ(c.at("agent_name"), "Alan");
  EXPECT_EQ(c.at("agent_last_name"), "Turing");
  EXPECT_EQ(c.at("agent_email"), "alan@example.com");

  r = patch("/conversations?id=" + id,
            json::object{{"agent_id", nullptr}, {"department_id", nullptr}});
  ASSERT_STATUS(r, 200u);
  json::object after = list_all("conversations")[0].as_object();
  EXPECT_TRUE(after.at("agent_id").is_null());
  EXPECT_TRUE(after.at("department_id").is_null());
  EXPECT_TRUE(after.at("agent_name").is_null());
}

TEST_F(ConversationsTest, AgentAndDepartmentMustBelongToTheWorkspace) {
  std::string id = import_ada();
  WorkspaceKeys other = make_workspace("Other");
  std::string foreign_agent = add_agent(other.id, "F", "A", "fa@example.com");
  std::string foreign_dept = add_department(other.id, "Foreign");
  std::string rep = add_rep(ws_.id, "Rita", "Rep", "rita@example.com");
  std::string dept = add_department(ws_.id, "Mine");
  std::string agent = add_agent(ws_.id, "Al", "A", "al@example.com");
  const std::string absent = "01890a5d-ac96-774b-bcce-b302099a8057";
  for (const json::value& bad : {json::value(foreign_agent), json::value(rep), json::value(dept),
                                 json::value(absent), json::value("nope"), json::value(7)}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(is_error(patch("/conversations?id=" + id, json::object{{"agent_id", bad}}), 400,
                         "agent_id"));
  }
  for (const json::value& bad : {json::value(foreign_dept), json::value(agent), json::value(absent),
                                 json::value("nope"), json::value(false)}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(is_error(patch("/conversations?id=" + id, json::object{{"department_id", bad}}),
                         400, "department_id"));
  }
}

TEST_F(ConversationsTest, PatchRejectsFieldsItDoesNotTake) {
  std::string id = import_ada();
  for (const char* field : {"source", "visitor_name", "messages", "created_at", "updated_at", "id",
                            "message_count", "last_message", "contact_id"}) {
    SCOPED_TRACE(field);
    EXPECT_TRUE(is_error(patch("/conversations?id=" + id, json::object{{field, "x"}}), 400, field));
  }
}

TEST_F(ConversationsTest, VisitorFieldsFollowTheLinkedContact) {
  std::string id = import_ada();
  json::array contacts = list_all("contacts");
  ASSERT_EQ(contacts.size(), 1u);
  std::string contact = str(contacts[0].as_object().at("id"));
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"first_name", "Augusta"},
                                                              {"last_name", "King"},
                                                              {"company_name", "Babbage & Co"},
                                                              {"phone", "+44 1"}}),
                200u);
  json::object c = get_one("conversations", id).at("conversation").as_object();
  EXPECT_EQ(c.at("visitor_name"), "Augusta");
  EXPECT_EQ(c.at("visitor_last_name"), "King");
  EXPECT_EQ(c.at("visitor_company"), "Babbage & Co");
  EXPECT_EQ(c.at("visitor_phone"), "+44 1");
  EXPECT_EQ(list_all("conversations")[0].as_object().at("visitor_name"), "Augusta");
}

TEST_F(ConversationsTest, ConversationsHaveNoCreateOrDelete) {
  std::string id = import_ada();
  EXPECT_TRUE(is_error(post("/conversations", json::object{{"source", "api"}}), 405));
  EXPECT_TRUE(is_error(del("/conversations?id=" + id), 405));
  EXPECT_EQ(conversation_ids().size(), 1u);
}

TEST_F(ConversationsTest, ConversationsAreScopedToTheKeysWorkspace) {
  import_ada();
  WorkspaceKeys other = make_workspace("Other");
  HttpResponse r = get("/conversations", other.rw.key);
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_array().size(), 0u);
  EXPECT_EQ(total_count(r), 0);
}

}  // namespace
}  // namespace leadline_test
