// Getting a conversation stays exact while SQLite answers it from the rendering its thread kept
// (ConversationStore::render): every write that changes what it shows, through the API or by
// another program on the same database, changes the next answer. PostgreSQL keeps no
// renderings; the same steps hold there.

#include <gtest/gtest.h>

#include <string>

#include "support/database_probe.hpp"
#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class RenderedConversationsTest : public ApiTest {
 protected:
  // What get-one shows, asked often enough that each of the server's threads keeps it; every
  // answer must be the same.
  json::object shown(const std::string& id) {
    std::string first;
    for (int i = 0; i < 6; ++i) {
      HttpResponse r = get("/conversations?id=" + id);
      EXPECT_STATUS(r, 200u);
      if (i == 0) first = r.body;
      EXPECT_EQ(r.body, first);
    }
    return json::parse(first).as_object().at("data").as_object();
  }
  static const json::object& conversation(const json::object& shown) {
    return shown.at("conversation").as_object();
  }
  static const json::value& message(const json::object& shown, std::size_t i, const char* field) {
    return shown.at("messages").as_array().at(i).as_object().at(field);
  }
  void sql(const std::string& statement) {
    ASSERT_TRUE(exec_sql(server().db_url(), statement)) << statement;
  }
};

TEST_F(RenderedConversationsTest, EveryWriteToWhatItShowsChangesTheNextAnswer) {
  const std::string t0 = timestamp_from_now(-3'600'000ms);
  const std::string t1 = timestamp_from_now(-3'599'000ms);
  const std::string t2 = timestamp_from_now(-3'598'000ms);
  const json::object ada{
      {"first_name", "Ada"}, {"last_name", "Lovelace"}, {"email", "ada@example.com"}};
  import_lines(ws_.id, {conversation_line(ada,
                                          {message_line("Hi", t1, "visitor", "Ada"),
                                           message_line("Hello Ada", t2, "bot")},
                                          t0, "open", {"vip"})});
  const std::string id = conversation_ids().at(0);
  const std::string contact = str(list_all("contacts").at(0).as_object().at("id"));
  const std::string agent = add_agent(ws_.id, "Alan", "Turing", "alan@example.com");
  EXPECT_EQ(conversation(shown(id)).at("visitor_name"), "Ada");

  // Through the API: the conversation itself, then the linked contact.
  ASSERT_STATUS(patch("/conversations?id=" + id, json::object{{"status", "pending"}}), 200u);
  EXPECT_EQ(conversation(shown(id)).at("status"), "pending");
  ASSERT_STATUS(patch("/conversations?id=" + id, json::object{{"agent_id", agent}}), 200u);
  EXPECT_EQ(conversation(shown(id)).at("agent_name"), "Alan");
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"first_name", "Augusta"}}), 200u);
  EXPECT_EQ(conversation(shown(id)).at("visitor_name"), "Augusta");
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"phone", "+44 20 1111"}}), 200u);
  EXPECT_EQ(conversation(shown(id)).at("visitor_phone"), "+44 20 1111");

  // Another program: a message changed, added and removed, and the agent renamed.
  sql("UPDATE messages SET content = 'Hi there' WHERE content = 'Hi'");
  EXPECT_EQ(message(shown(id), 0, "content"), "Hi there");
  sql("INSERT INTO messages (id, workspace_id, conversation_id, sender_type, content, "
      "attachments, status, sender_name, created_at) SELECT 'late-message', workspace_id, "
      "conversation_id, sender_type, 'Late', attachments, status, sender_name, created_at + 1 "
      "FROM messages WHERE content = 'Hello Ada'");
  json::object now = shown(id);
  EXPECT_EQ(now.at("message_count"), 3);
  EXPECT_EQ(message(now, 2, "content"), "Late");
  sql("DELETE FROM messages WHERE id = 'late-message'");
  EXPECT_EQ(shown(id).at("message_count"), 2);
  sql("UPDATE agents SET first_name = 'Grace' WHERE id = '" + agent + "'");
  EXPECT_EQ(conversation(shown(id)).at("agent_name"), "Grace");
  sql("UPDATE conversations SET tags = '[\"gold\"]' WHERE id = '" + id + "'");
  EXPECT_EQ(conversation(shown(id)).at("tags"), (json::array{"gold"}));

  // The contact deleted: the conversation no longer names a visitor.
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  EXPECT_TRUE(conversation(shown(id)).at("visitor_name").is_null());
  sql("DELETE FROM conversations WHERE id = '" + id + "'");
  EXPECT_STATUS(get("/conversations?id=" + id), 404u);
}

}  // namespace
}  // namespace leadline_test
