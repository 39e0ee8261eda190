// Contacts: create/get/update/delete, computed fields, last_activity, workspace scoping and
// the case-insensitive e-mail uniqueness, also under concurrent creates.
#include <atomic>
#include <latch>
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using domain::ContactPatch;
using domain::FieldUpdate;

domain::NewConversation conversation_with_visitor(domain::NewContact visitor,
                                                  domain::Timestamp created_at) {
  domain::NewConversation c;
  c.source = "widget";
  c.created_at = created_at;
  c.visitor = std::move(visitor);
  return c;
}

TEST_P(StoreTest, CreateContactAndGetIt) {
  domain::NewContact n = contact_named("Ada", "Ada@Example.com");
  n.last_name = "Lovelace";
  n.phone = "+44";
  n.company_name = "Engines";
  n.tags = {"math"};
  n.profile_notes = "notes";
  n.metadata_json = R"({"a":1})";
  auto result = store_->contacts().create(ws_, n);
  ASSERT_TRUE(std::holds_alternative<domain::Contact>(result));
  const auto& c = std::get<domain::Contact>(result);
  EXPECT_EQ(c.email, "Ada@Example.com");
  EXPECT_EQ(c.last_activity, c.created_at);
  EXPECT_EQ(c.updated_at, c.created_at);
  EXPECT_FALSE(c.avatar_url.has_value());
  EXPECT_EQ(c.interest_summary, "");
  EXPECT_EQ(c.conversation_count, 0);
  EXPECT_FALSE(c.last_conversation_at.has_value());

  const auto got = store_->contacts().get(ws_, c.id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->first_name, "Ada");
  EXPECT_EQ(got->last_name, "Lovelace");
  EXPECT_EQ(got->email, "Ada@Example.com");
  EXPECT_EQ(got->phone, "+44");
  EXPECT_EQ(got->company_name, "Engines");
  EXPECT_EQ(got->tags, domain::Tags{"math"});
  EXPECT_EQ(got->profile_notes, "notes");
  EXPECT_EQ(got->created_at, c.created_at);
  EXPECT_EQ(got->last_activity, c.created_at);
}

TEST_P(StoreTest, ContactEmailIsUniquePerWorkspaceCaseInsensitively) {
  const auto first =
      std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Ada", "Ada@X.io")));
  auto dup = store_->contacts().create(ws_, contact_named("Other", "ada@x.IO"));
  ASSERT_TRUE(std::holds_alternative<EmailConflict>(dup));
  EXPECT_EQ(std::get<EmailConflict>(dup).existing_id, first.id);
  // Unicode case folding, not just ASCII.
  std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("M", "MÜLLER@x.de")));
  EXPECT_TRUE(std::holds_alternative<EmailConflict>(
      store_->contacts().create(ws_, contact_named("m", "müller@x.de"))));
  // Another workspace has its own addresses; contacts without e-mail never conflict.
  EXPECT_TRUE(std::holds_alternative<domain::Contact>(
      store_->contacts().create(other_ws_, contact_named("Ada", "ada@x.io"))));
  EXPECT_TRUE(std::holds_alternative<domain::Contact>(
      store_->contacts().create(ws_, contact_named("NoMail"))));
  EXPECT_TRUE(std::holds_alternative<domain::Contact>(
      store_->contacts().create(ws_, contact_named("NoMail"))));
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 4);
}

TEST_P(StoreTest, ContactEmailConflictOnUpdate) {
  const auto ada =
      std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Ada", "ada@x.io")));
  const auto bob =
      std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Bob", "bob@x.io")));
  ContactPatch p;
  p.email = FieldUpdate<std::string>::set("ADA@x.io");
  auto result = store_->contacts().update(ws_, bob.id, p);
  ASSERT_TRUE(std::holds_alternative<EmailConflict>(result));
  EXPECT_EQ(std::get<EmailConflict>(result).existing_id, ada.id);
  EXPECT_EQ(store_->contacts().get(ws_, bob.id)->email, "bob@x.io");

  // Changing only the case of one's own address is no conflict, and it is a change.
  p.email = FieldUpdate<std::string>::set("Ada@X.io");
  result = store_->contacts().update(ws_, ada.id, p);
  ASSERT_TRUE(std::holds_alternative<domain::Contact>(result));
  EXPECT_EQ(std::get<domain::Contact>(result).email, "Ada@X.io");

  // A cleared address frees it.
  ContactPatch clear;
  clear.email = FieldUpdate<std::string>::clear();
  ASSERT_TRUE(
      std::holds_alternative<domain::Contact>(store_->contacts().update(ws_, ada.id, clear)));
  p.email = FieldUpdate<std::string>::set("ada@x.io");
  EXPECT_TRUE(std::holds_alternative<domain::Contact>(store_->contacts().update(ws_, bob.id, p)));
}

TEST_P(StoreTest, UpdateContactMovesUpdatedAtAndLastActivityOnlyOnChange) {
  const auto c =
      std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Ada", "ada@x.io")));
  clock_.advance(std::chrono::milliseconds(3));
  ContactPatch same;
  same.first_name = "Ada";
  same.email = FieldUpdate<std::string>::set("ada@x.io");
  same.last_name = FieldUpdate<std::string>::clear();
  same.profile_notes = FieldUpdate<std::string>::clear();
  auto unchanged = std::get<domain::Contact>(store_->contacts().update(ws_, c.id, same));
  EXPECT_EQ(unchanged.updated_at, c.updated_at);
  EXPECT_EQ(unchanged.last_activity, c.last_activity);

  ContactPatch change;
  change.last_name = FieldUpdate<std::string>::set("Lovelace");
  change.tags = domain::Tags{"t"};
  change.phone = FieldUpdate<std::string>::set("1");
  change.company_name = FieldUpdate<std::string>::set("Co");
  change.profile_notes = FieldUpdate<std::string>::set("n");
  const auto changed = std::get<domain::Contact>(store_->contacts().update(ws_, c.id, change));
  EXPECT_GT(changed.updated_at, c.updated_at);
  EXPECT_EQ(changed.last_activity, changed.updated_at);
  EXPECT_EQ(changed.last_name, "Lovelace");
  EXPECT_EQ(changed.tags, domain::Tags{"t"});
  const auto got = *store_->contacts().get(ws_, c.id);
  EXPECT_EQ(got.updated_at, changed.updated_at);
  EXPECT_EQ(got.last_activity, changed.last_activity);
  EXPECT_EQ(got.company_name, "Co");
  EXPECT_EQ(got.profile_notes, "n");
}

TEST_P(StoreTest, ContactIsInvisibleFromAnotherWorkspace) {
  const auto c =
      std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Ada", "ada@x.io")));
  EXPECT_FALSE(store_->contacts().get(other_ws_, c.id).has_value());
  ContactPatch p;
  p.first_name = "Eve";
  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->contacts().update(other_ws_, c.id, p)));
  EXPECT_FALSE(store_->contacts().remove(other_ws_, c.id));
  EXPECT_EQ(store_->contacts().get(ws_, c.id)->first_name, "Ada");
}

TEST_P(StoreTest, ContactConversationFiguresAndDeleteUnlinks) {
  domain::NewContact visitor = contact_named("Ada", "ada@x.io");
  visitor.company_name = "Engines";
  auto conv1 = conversation_with_visitor(visitor, ts("2026-01-01T10:00:00.000Z"));
  conv1.messages.push_back({"visitor", "hi", std::nullopt, "delivered",
                            ts("2026-01-05T10:00:00.000Z"), std::string("Ada")});
  auto conv2 = conversation_with_visitor(visitor, ts("2026-01-03T10:00:00.000Z"));
  const auto counts = import_ok({{1, conv1}, {2, conv2}});
  EXPECT_EQ(counts.contacts, 1);

  auto page = store_->contacts().list(ws_, {});
  ASSERT_EQ(page.items.size(), 1u);
  const auto contact = page.items[0];
  EXPECT_EQ(contact.conversation_count, 2);
  EXPECT_EQ(contact.last_conversation_at, ts("2026-01-03T10:00:00.000Z"));
  EXPECT_EQ(contact.created_at, ts("2026-01-01T10:00:00.000Z"));
  EXPECT_EQ(contact.last_activity, ts("2026-01-05T10:00:00.000Z"));

  EXPECT_TRUE(store_->contacts().remove(ws_, contact.id));
  EXPECT_FALSE(store_->contacts().get(ws_, contact.id).has_value());
  EXPECT_FALSE(store_->contacts().remove(ws_, contact.id));
  const auto convs = store_->conversations().list(ws_, {});
  ASSERT_EQ(convs.items.size(), 2u);
  for (const auto& c : convs.items) {
    EXPECT_FALSE(c.visitor_name.has_value());
    EXPECT_FALSE(c.visitor_email.has_value());
    EXPECT_FALSE(c.visitor_company.has_value());
  }
  const auto with_messages = store_->conversations().get(ws_, convs.items[1].id);
  ASSERT_TRUE(with_messages.has_value());
  EXPECT_EQ(with_messages->messages.size(), 1u);
}

TEST_P(StoreTest, ConcurrentCreatesWithOneEmailCreateExactlyOne) {
  constexpr int kThreads = 50;
  std::latch start(kThreads);
  std::atomic<int> created{0};
  std::atomic<int> conflicts{0};
  std::vector<std::string> conflict_ids(kThreads);
  std::string created_id;
  std::mutex mutex;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const std::string email = (i % 2 ? "Same@Example.com" : "same@example.COM");
      start.arrive_and_wait();
      auto result = store_->contacts().create(ws_, contact_named("T" + std::to_string(i), email));
      if (auto* c = std::get_if<domain::Contact>(&result)) {
        ++created;
        std::lock_guard lock(mutex);
        created_id = c->id.value;
      } else {
        ++conflicts;
        conflict_ids[i] = std::get<EmailConflict>(result).existing_id.value;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(conflicts.load(), kThreads - 1);
  for (const auto& id : conflict_ids) {
    if (!id.empty()) {
      EXPECT_EQ(id, created_id);
    }
  }
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 1);
}

TEST_P(StoreTest, ConcurrentCreatesThroughTwoStoresCreateExactlyOne) {
  auto second = open_database(url());
  constexpr int kThreads = 20;
  std::latch start(kThreads);
  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      Database& s = i % 2 ? *store_ : *second;
      start.arrive_and_wait();
      auto result = s.contacts().create(ws_, contact_named("T", "two@stores.io"));
      if (std::holds_alternative<domain::Contact>(result)) ++created;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created.load(), 1);
}

}  // namespace
}  // namespace leadline::store::testing
