// Conversations: visitor and agent fields, messages oldest first, last_message and count,
// PATCH semantics, filters (status, tag, search through the linked contact).
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using domain::ConversationPatch;
using domain::ConversationStatus;
using domain::FieldUpdate;

domain::NewMessage message(std::string content, const char* at,
                           std::optional<std::string> sender = "Ada") {
  return {"visitor", std::move(content), std::nullopt, "delivered", ts(at), std::move(sender)};
}

class ConversationTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    agent_ = store_->workspaces().add_agent(ws_, person("Alan", "Turing", "alan@x.io"));
    dept_ = store_->workspaces().add_department(ws_, "Support");
    domain::NewContact visitor = contact_named("Ada", "ada@x.io");
    visitor.last_name = "Lovelace";
    visitor.phone = "+44 20 0000";
    visitor.company_name = "Analytical Engines";
    domain::NewConversation c;
    c.source = "widget";
    c.status = ConversationStatus::kOpen;
    c.tags = {"vip"};
    c.created_at = ts("2026-11-01T10:00:00.000Z");
    c.visitor = visitor;
    c.agent_id = domain::AgentId{agent_.id};
    c.department_id = dept_.id;
    c.messages = {message("second", "2026-11-01T10:00:02.000Z"),
                  message("first", "2026-11-01T10:00:01.000Z"),
                  message("bot says", "2026-11-01T10:00:02.000Z", std::nullopt)};
    c.messages[2].sender_type = "bot";
    c.messages[2].attachments_json = R"([{"url":"x"}])";
    domain::NewConversation bare;
    bare.source = "email";
    bare.status = ConversationStatus::kArchived;
    bare.created_at = ts("2026-11-02T10:00:00.000Z");
    import_ok({{1, c}, {2, bare}});
    const auto page = store_->conversations().list(ws_, {});
    ASSERT_EQ(page.items.size(), 2u);
    bare_id_ = page.items[0].id;
    full_id_ = page.items[1].id;
  }

  domain::Person agent_;
  domain::Department dept_;
  domain::ConversationId full_id_;
  domain::ConversationId bare_id_;
};

INSTANTIATE_TEST_SUITE_P(Backends, ConversationTest, all_backends(), backend_name);

TEST_P(ConversationTest, GetOneCarriesVisitorAgentAndMessagesOldestFirst) {
  const auto got = store_->conversations().get(ws_, full_id_);
  ASSERT_TRUE(got.has_value());
  const auto& c = got->conversation;
  EXPECT_EQ(c.source, "widget");
  EXPECT_EQ(c.status, ConversationStatus::kOpen);
  EXPECT_EQ(c.tags, domain::Tags{"vip"});
  EXPECT_EQ(c.created_at, ts("2026-11-01T10:00:00.000Z"));
  EXPECT_EQ(c.updated_at, ts("2026-11-01T10:00:02.000Z"));
  EXPECT_EQ(c.visitor_name, "Ada");
  EXPECT_EQ(c.visitor_last_name, "Lovelace");
  EXPECT_EQ(c.visitor_email, "ada@x.io");
  EXPECT_EQ(c.visitor_phone, "+44 20 0000");
  EXPECT_EQ(c.visitor_company, "Analytical Engines");
  EXPECT_EQ(c.agent_name, "Alan");
  EXPECT_EQ(c.agent_last_name, "Turing");
  EXPECT_EQ(c.agent_email, "alan@x.io");
  EXPECT_EQ(c.agent_id->value, agent_.id);
  EXPECT_EQ(c.department_id, dept_.id);
  EXPECT_EQ(c.message_count, 3);
  // Same millisecond: the file's order decides, so the bot's reply is the newest.
  EXPECT_EQ(c.last_message, "bot says");
  ASSERT_EQ(got->messages.size(), 3u);
  EXPECT_EQ(got->messages[0].content, "first");
  EXPECT_EQ(got->messages[1].content, "second");
  EXPECT_EQ(got->messages[2].content, "bot says");
  EXPECT_EQ(got->messages[2].sender_type, "bot");
  EXPECT_FALSE(got->messages[2].sender_name.has_value());
  EXPECT_EQ(got->messages[2].attachments_json, R"([{"url":"x"}])");
  EXPECT_FALSE(got->messages[0].attachments_json.has_value());
  EXPECT_EQ(got->messages[0].sender_name, "Ada");
  EXPECT_EQ(got->messages[0].status, "delivered");
  EXPECT_EQ(got->messages[0].created_at, ts("2026-11-01T10:00:01.000Z"));
}

// get-one's streamed read: the conversation as get() reads it, then its messages oldest
// first, each in the one record refilled per row, then the end; what the writer appended is
// the answer, and again the next time; nothing for another workspace's id.
TEST_P(ConversationTest, RenderGivesWhatGetReadsWithoutCopies) {
  const auto got = *store_->conversations().get(ws_, full_id_);
  std::vector<domain::Conversation> heads;
  std::vector<domain::Message> messages;
  std::string out = "before|";
  std::string* into = &out;  // what render appends to
  const ConversationWriter writer{.head =
                                      [&](const domain::Conversation& c) {
                                        heads.push_back(c);
                                        *into += c.id.value;
                                      },
                                  .message =
                                      [&](const domain::Message& m) {
                                        messages.push_back(m);
                                        into->append("|").append(m.content);
                                      },
                                  .end = [&] { *into += "|end"; }};
  ASSERT_TRUE(store_->conversations().render(ws_, full_id_, out, writer));
  EXPECT_EQ(out, "before|" + full_id_.value + "|first|second|bot says|end");
  ASSERT_EQ(heads.size(), 1u);
  const auto& c = heads[0];
  EXPECT_EQ(c.id, got.conversation.id);
  EXPECT_EQ(c.source, got.conversation.source);
  EXPECT_EQ(c.status, got.conversation.status);
  EXPECT_EQ(c.tags, got.conversation.tags);
  EXPECT_EQ(c.created_at, got.conversation.created_at);
  EXPECT_EQ(c.updated_at, got.conversation.updated_at);
  EXPECT_EQ(c.visitor_name, got.conversation.visitor_name);
  EXPECT_EQ(c.visitor_last_name, got.conversation.visitor_last_name);
  EXPECT_EQ(c.visitor_email, got.conversation.visitor_email);
  EXPECT_EQ(c.visitor_phone, got.conversation.visitor_phone);
  EXPECT_EQ(c.visitor_company, got.conversation.visitor_company);
  EXPECT_EQ(c.agent_name, got.conversation.agent_name);
  EXPECT_EQ(c.agent_last_name, got.conversation.agent_last_name);
  EXPECT_EQ(c.agent_email, got.conversation.agent_email);
  ASSERT_EQ(messages.size(), got.messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(messages[i].id, got.messages[i].id);
    EXPECT_EQ(messages[i].content, got.messages[i].content);
    EXPECT_EQ(messages[i].attachments_json, got.messages[i].attachments_json);
    EXPECT_EQ(messages[i].sender_name, got.messages[i].sender_name);
    EXPECT_EQ(messages[i].created_at, got.messages[i].created_at);
  }

  // SQLite keeps the rendering: the same bytes, without reading the rows again.
  std::string again = "before|";
  into = &again;
  ASSERT_TRUE(store_->conversations().render(ws_, full_id_, again, writer));
  EXPECT_EQ(again, out);
  EXPECT_EQ(heads.size(), store_->engine().remote() ? 2u : 1u);

  bool called = false;
  std::string none = "before";
  EXPECT_FALSE(
      store_->conversations().render(other_ws_, full_id_, none,
                                     {.head = [&](const domain::Conversation&) { called = true; },
                                      .message = [&](const domain::Message&) { called = true; },
                                      .end = [&] { called = true; }}));
  EXPECT_FALSE(called);
  EXPECT_EQ(none, "before");
}

TEST_P(ConversationTest, BareConversationHasNullVisitorAndAgent) {
  const auto got = *store_->conversations().get(ws_, bare_id_);
  EXPECT_FALSE(got.conversation.visitor_name.has_value());
  EXPECT_FALSE(got.conversation.agent_name.has_value());
  EXPECT_FALSE(got.conversation.last_message.has_value());
  EXPECT_EQ(got.conversation.message_count, 0);
  EXPECT_EQ(got.conversation.updated_at, got.conversation.created_at);
  EXPECT_TRUE(got.messages.empty());
}

TEST_P(ConversationTest, ListItemsCarryTheSameFields) {
  const auto page = store_->conversations().list(ws_, {});
  const auto& c = page.items[1];
  EXPECT_EQ(c.visitor_name, "Ada");
  EXPECT_EQ(c.visitor_company, "Analytical Engines");
  EXPECT_EQ(c.agent_name, "Alan");
  EXPECT_EQ(c.last_message, "bot says");
  EXPECT_EQ(c.message_count, 3);
  EXPECT_EQ(page.total_count, 2);
  EXPECT_FALSE(page.has_more);
  EXPECT_FALSE(page.next_position.has_value());
}

TEST_P(ConversationTest, InvisibleFromAnotherWorkspace) {
  EXPECT_FALSE(store_->conversations().get(other_ws_, full_id_).has_value());
  ConversationPatch p;
  p.status = ConversationStatus::kActive;
  EXPECT_TRUE(
      std::holds_alternative<NotFound>(store_->conversations().update(other_ws_, full_id_, p)));
  EXPECT_EQ(store_->conversations().list(other_ws_, {}).total_count, 0);
}

TEST_P(ConversationTest, PatchChangesFieldsAndMovesUpdatedAt) {
  ConversationPatch p;
  p.status = ConversationStatus::kActive;
  p.tags = domain::Tags{"a", "b"};
  p.agent_id = FieldUpdate<domain::AgentId>::clear();
  p.department_id = FieldUpdate<domain::DepartmentId>::clear();
  auto result = store_->conversations().update(ws_, full_id_, p);
  ASSERT_TRUE(std::holds_alternative<domain::ConversationPatchResult>(result));
  const auto& r = std::get<domain::ConversationPatchResult>(result);
  EXPECT_EQ(r.id, full_id_);
  EXPECT_EQ(r.status, ConversationStatus::kActive);
  EXPECT_EQ(r.tags, (domain::Tags{"a", "b"}));
  EXPECT_GT(r.updated_at, ts("2026-11-01T10:00:02.000Z"));
  const auto got = store_->conversations().get(ws_, full_id_)->conversation;
  EXPECT_EQ(got.updated_at, r.updated_at);
  EXPECT_FALSE(got.agent_id.has_value());
  EXPECT_FALSE(got.agent_name.has_value());
  EXPECT_FALSE(got.department_id.has_value());

  // Sending the values it already has changes nothing.
  const auto again =
      std::get<domain::ConversationPatchResult>(store_->conversations().update(ws_, full_id_, p));
  EXPECT_EQ(again.updated_at, r.updated_at);
}

TEST_P(ConversationTest, PatchRejectsAgentsAndDepartmentsOfOtherWorkspaces) {
  const auto foreign_agent = store_->workspaces().add_agent(other_ws_, person("F", "A", "f@x.io"));
  const auto foreign_dept = store_->workspaces().add_department(other_ws_, "Elsewhere");
  ConversationPatch p;
  p.agent_id = FieldUpdate<domain::AgentId>::set({foreign_agent.id});
  auto result = store_->conversations().update(ws_, full_id_, p);
  ASSERT_TRUE(std::holds_alternative<InvalidReference>(result));
  EXPECT_EQ(std::get<InvalidReference>(result).field, "agent_id");
  ConversationPatch d;
  d.department_id = FieldUpdate<domain::DepartmentId>::set(foreign_dept.id);
  result = store_->conversations().update(ws_, full_id_, d);
  ASSERT_TRUE(std::holds_alternative<InvalidReference>(result));
  EXPECT_EQ(std::get<InvalidReference>(result).field, "department_id");
  EXPECT_TRUE(std::holds_alternative<NotFound>(
      store_->conversations().update(ws_, {"01890000-0000-7000-8000-000000000000"}, d)));
}

TEST_P(ConversationTest, FiltersByStatusTagAndVisitorSearch) {
  ConversationListQuery q;
  q.status = ConversationStatus::kArchived;
  auto page = store_->conversations().list(ws_, q);
  ASSERT_EQ(page.items.size(), 1u);
  EXPECT_EQ(page.items[0].id, bare_id_);
  EXPECT_EQ(page.total_count, 1);

  q = {};
  q.tag = "vip";
  EXPECT_EQ(store_->conversations().list(ws_, q).total_count, 1);
  q.tag = "VIP";
  EXPECT_EQ(store_->conversations().list(ws_, q).total_count, 0);

  q = {};
  for (const char* needle : {"ada", "lovelace", "ada@x", "analytical"}) {
    q.search_folded = needle;
    page = store_->conversations().list(ws_, q);
    ASSERT_EQ(page.total_count, 1) << needle;
    EXPECT_EQ(page.items[0].id, full_id_);
  }
  // The phone is not part of conversation search.
  q.search_folded = "+44";
  EXPECT_EQ(store_->conversations().list(ws_, q).total_count, 0);
  // A needle across fields matches where the visitor's text has them side by side (on SQLite,
  // the contact's search index has the phone between e-mail and company).
  q.search_folded = "x.io\nanalytical";
  EXPECT_EQ(store_->conversations().list(ws_, q).total_count, 1);
}

}  // namespace
}  // namespace leadline::store::testing
