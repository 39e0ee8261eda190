// Import: items in order, visitors matched or created, counts, and all-or-nothing rollback
// naming the failing line.
#include <boost/json/parse.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <string_view>
#include <thread>

#include "record_json/event_shapes.hpp"

#include "store/sqlite/bulk_index_rebuild.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

domain::NewConversation conversation(std::optional<domain::NewContact> visitor,
                                     const char* created_at) {
  domain::NewConversation c;
  c.source = "widget";
  c.created_at = ts(created_at);
  c.visitor = std::move(visitor);
  return c;
}

TEST_P(StoreTest, ImportStoresEverythingInOrderAndCounts) {
  const auto agent = store_->workspaces().add_agent(ws_, person("Alan", "T", "a@x.io"));
  domain::NewLead lead = lead_named("Imported");
  lead.lead_score = 7.5;
  lead.created_at = ts("2025-05-05T05:05:05.005Z");
  domain::NewContact contact = contact_named("Ada", "ada@x.io");
  contact.created_at = ts("2025-01-01T00:00:00.000Z");

  // Matches the contact of the line before, case-insensitively.
  auto by_email = conversation(contact_named("Someone", "ADA@x.io"), "2025-02-01T00:00:00.000Z");
  by_email.agent_id = domain::AgentId{agent.id};
  by_email.messages.push_back({"visitor", "hello", std::nullopt, "delivered",
                               ts("2025-02-03T00:00:00.000Z"), std::string("Ada")});
  by_email.messages.push_back(
      {"bot", "hi", std::nullopt, "delivered", ts("2025-02-02T00:00:00.000Z"), std::nullopt});
  // A new address creates a contact dated like its conversation; no e-mail always creates one.
  auto new_visitor = conversation(contact_named("Bob", "bob@x.io"), "2025-03-01T00:00:00.000Z");
  auto anonymous = conversation(contact_named("Anon"), "2025-03-02T00:00:00.000Z");
  auto anonymous_again = conversation(contact_named("Anon"), "2025-03-03T00:00:00.000Z");
  auto no_visitor = conversation(std::nullopt, "2025-03-04T00:00:00.000Z");

  const auto counts = import_ok({{1, lead},
                                 {2, contact},
                                 {3, by_email},
                                 {4, new_visitor},
                                 {5, anonymous},
                                 {6, anonymous_again},
                                 {7, no_visitor}});
  EXPECT_EQ(counts.leads, 1);
  EXPECT_EQ(counts.contacts, 4);
  EXPECT_EQ(counts.conversations, 5);
  EXPECT_EQ(counts.messages, 2);

  const auto leads = store_->leads().list(ws_, {});
  ASSERT_EQ(leads.items.size(), 1u);
  EXPECT_EQ(leads.items[0].lead_score, 7.5);
  EXPECT_EQ(leads.items[0].created_at, ts("2025-05-05T05:05:05.005Z"));
  EXPECT_EQ(leads.items[0].updated_at, leads.items[0].created_at);

  ContactListQuery by_created;
  by_created.sort = {ContactSortField::kCreatedAt, SortDirection::kAsc};
  const auto contacts = store_->contacts().list(ws_, by_created).items;
  ASSERT_EQ(contacts.size(), 4u);
  EXPECT_EQ(contacts[0].first_name, "Ada");
  EXPECT_EQ(contacts[0].created_at, ts("2025-01-01T00:00:00.000Z"));
  EXPECT_EQ(contacts[0].last_activity, ts("2025-02-03T00:00:00.000Z"));
  EXPECT_EQ(contacts[0].updated_at, contacts[0].created_at);
  EXPECT_EQ(contacts[0].conversation_count, 1);
  EXPECT_EQ(contacts[1].first_name, "Bob");
  EXPECT_EQ(contacts[1].created_at, ts("2025-03-01T00:00:00.000Z"));
  EXPECT_EQ(contacts[1].last_activity, contacts[1].created_at);
  EXPECT_EQ(contacts[2].first_name, "Anon");
  EXPECT_EQ(contacts[3].first_name, "Anon");

  ConversationListQuery convs;
  convs.sort = {ConversationSortField::kCreatedAt, SortDirection::kAsc};
  const auto first = store_->conversations().list(ws_, convs).items.at(0);
  EXPECT_EQ(first.visitor_name, "Ada");
  EXPECT_EQ(first.agent_name, "Alan");
  EXPECT_EQ(first.updated_at, ts("2025-02-03T00:00:00.000Z"));
  EXPECT_EQ(first.last_message, "hello");
}

// The SQLite file's index names on leads and contacts, and its integrity check.
struct SqliteIndexes {
  std::vector<std::string> names;
  std::string integrity;
};

SqliteIndexes sqlite_indexes(const std::string& url) {
  sqlite::Connection conn(url.substr(std::string_view("sqlite:").size()),
                          sqlite::Connection::Open::kExisting);
  SqliteIndexes out;
  sql::Rows names = conn.query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('leads', 'contacts') "
      "ORDER BY name");
  while (names.next()) out.names.push_back(names.text(0));
  sql::Rows check = conn.query("PRAGMA integrity_check");
  while (check.next()) out.integrity += check.text(0);
  return out;
}

// kRebuildMinRows leads named and scored in an order of their own, then as many contacts.
std::vector<ImportItem> bulk_items(std::int64_t n) {
  std::vector<ImportItem> items;
  char text[32];
  for (std::int64_t i = 0; i < n; ++i) {
    std::snprintf(text, sizeof text, "Lead %05lld", static_cast<long long>(n - 1 - i));
    domain::NewLead lead = lead_named(text);
    lead.lead_score = static_cast<double>((i * 37) % 1000);
    lead.pipeline_stage =
        i % 4 == 0 ? domain::PipelineStage::kQualified : domain::PipelineStage::kNew;
    items.push_back({static_cast<int>(items.size() + 1), lead});
  }
  for (std::int64_t i = 0; i < n; ++i) {
    std::snprintf(text, sizeof text, "c%05lld@x.io", static_cast<long long>(i));
    items.push_back({static_cast<int>(items.size() + 1),
                     contact_named("C" + std::to_string(n - 1 - i), std::string(text))});
  }
  return items;
}

// Large enough that SQLite drops the tables' secondary indexes and builds them after the rows
// (bulk_index_rebuild.hpp): the lists read the same rows through them, and the file keeps
// every index.
TEST_P(StoreTest, BulkImportIntoAnEmptyTableBuildsItsIndexesAgain) {
  if (backend() != Backend::kSqlite) GTEST_SKIP() << "PostgreSQL keeps its indexes in an import";
  const auto before = sqlite_indexes(url());
  const auto n = sqlite::kRebuildMinRows;
  const auto counts = import_ok(bulk_items(n));
  EXPECT_EQ(counts.leads, n);
  EXPECT_EQ(counts.contacts, n);

  LeadListQuery by_name;
  by_name.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
  const auto names = store_->leads().list(ws_, by_name);
  EXPECT_EQ(names.total_count, n);
  EXPECT_EQ(names.items.at(0).visitor_name, "Lead 00000");
  EXPECT_EQ(names.items.at(1).visitor_name, "Lead 00001");
  LeadListQuery by_score;
  by_score.sort = {LeadSortField::kLeadScore, SortDirection::kDesc};
  EXPECT_EQ(store_->leads().list(ws_, by_score).items.at(0).lead_score, 999.0);
  LeadListQuery qualified;
  qualified.stage = domain::PipelineStage::kQualified;
  EXPECT_EQ(store_->leads().list(ws_, qualified).total_count, n / 4);
  ContactListQuery contacts;
  contacts.sort = {ContactSortField::kEmail, SortDirection::kAsc};
  const auto by_email = store_->contacts().list(ws_, contacts);
  EXPECT_EQ(by_email.total_count, n);
  EXPECT_EQ(by_email.items.at(0).email, "c00000@x.io");

  // The next, small import and an API write go through the rebuilt indexes.
  import_ok({{1, lead_named("Aaron")}});
  store_->leads().create(ws_, lead_named("Ab"));
  const auto after = store_->leads().list(ws_, by_name);
  EXPECT_EQ(after.total_count, n + 2);
  EXPECT_EQ(after.items.at(0).visitor_name, "Aaron");
  EXPECT_EQ(after.items.at(1).visitor_name, "Ab");
  const auto indexes = sqlite_indexes(url());
  EXPECT_EQ(indexes.names, before.names);
  EXPECT_EQ(indexes.integrity, "ok");
}

// A bulk import that fails rolls its dropped indexes back with its rows.
TEST_P(StoreTest, FailedBulkImportKeepsTheIndexes) {
  if (backend() != Backend::kSqlite) GTEST_SKIP() << "PostgreSQL keeps its indexes in an import";
  std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Old", "old@x.io")));
  const auto before = sqlite_indexes(url());
  auto items = bulk_items(sqlite::kRebuildMinRows);
  items.push_back({static_cast<int>(items.size() + 1), contact_named("Dup", "OLD@x.io")});
  auto result = store_->imports().apply(ws_, items);
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, static_cast<int>(items.size()));
  EXPECT_EQ(store_->leads().list(ws_, {}).total_count, 0);
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 1);
  const auto indexes = sqlite_indexes(url());
  EXPECT_EQ(indexes.names, before.names);
  EXPECT_EQ(indexes.integrity, "ok");
  import_ok({{1, lead_named("B")}, {2, lead_named("A")}});
  LeadListQuery by_name;
  by_name.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
  EXPECT_EQ(store_->leads().list(ws_, by_name).items.at(0).visitor_name, "A");
}

TEST_P(StoreTest, ImportWithoutCreatedAtUsesNow) {
  const auto before = clock_.now();
  domain::NewConversation c;
  c.source = "widget";
  import_ok({{1, lead_named("x")}, {2, c}});
  EXPECT_GE(store_->leads().list(ws_, {}).items.at(0).created_at, before);
  const auto conv = store_->conversations().list(ws_, {}).items.at(0);
  EXPECT_GE(conv.created_at, before);
  EXPECT_EQ(conv.updated_at, conv.created_at);
}

TEST_P(StoreTest, ImportFailureRollsBackEverythingAndNamesTheLine) {
  std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Old", "old@x.io")));
  const std::vector<ImportItem> items = {
      {1, lead_named("kept?")},
      {2, contact_named("New", "new@x.io")},
      {3, conversation(contact_named("V", "visitor@x.io"), "2025-01-01T00:00:00.000Z")},
      {4, contact_named("Dup", "OLD@x.io")},
      {5, lead_named("after")}};
  auto result = store_->imports().apply(ws_, items);
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, 4);
  EXPECT_EQ(std::get<ImportFailure>(result).message, "a contact with this email already exists");
  EXPECT_EQ(store_->leads().list(ws_, {}).total_count, 0);
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 1);
  EXPECT_EQ(store_->conversations().list(ws_, {}).total_count, 0);
}

TEST_P(StoreTest, ImportRejectsDuplicateWithinTheFile) {
  auto result = store_->imports().apply(
      ws_, {{10, contact_named("A", "a@x.io")}, {11, contact_named("B", "A@X.IO")}});
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, 11);
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 0);
}

// Contacts' e-mails are checked against the stored ones a batch at a time: a stored one still
// fails its own line, ahead of any later line's failure.
TEST_P(StoreTest, ImportNamesTheFirstLineWhoseEmailIsTakenWhateverFailsAfterIt) {
  std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Old", "old@x.io")));
  const auto failed_line = [&](const std::vector<ImportItem>& items) {
    auto result = store_->imports().apply(ws_, items);
    EXPECT_TRUE(std::holds_alternative<ImportFailure>(result));
    if (!std::holds_alternative<ImportFailure>(result)) return 0;
    EXPECT_EQ(std::get<ImportFailure>(result).message, "a contact with this email already exists");
    return std::get<ImportFailure>(result).line;
  };
  EXPECT_EQ(failed_line({{1, contact_named("A", "a@x.io")},
                         {2, contact_named("Dup", "Old@X.io")},
                         {3, contact_named("B", "b@x.io")},
                         {4, contact_named("B again", "B@x.io")}}),
            2);
  EXPECT_EQ(
      failed_line({{1, lead_named("x")},
                   {2, contact_named("Dup", "old@x.io")},
                   {3, conversation(contact_named("V", "old@x.io"), "2025-01-01T00:00:00.000Z")}}),
      2);
  EXPECT_EQ(failed_line({{1, contact_named("A", "a@x.io")}, {2, contact_named("Dup", "old@x.io")}}),
            2);
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 1);
  EXPECT_EQ(store_->leads().list(ws_, {}).total_count, 0);
  import_ok({{1, contact_named("A", "a@x.io")}, {2, contact_named("B", "b@x.io")}});
  EXPECT_EQ(store_->contacts().list(ws_, {}).total_count, 3);
}

TEST_P(StoreTest, ImportRejectsAgentsAndDepartmentsOfOtherWorkspaces) {
  const auto foreign_agent = store_->workspaces().add_agent(other_ws_, person("F", "A", "f@x.io"));
  const auto foreign_dept = store_->workspaces().add_department(other_ws_, "Elsewhere");
  auto with_agent = conversation(std::nullopt, "2025-01-01T00:00:00.000Z");
  with_agent.agent_id = domain::AgentId{foreign_agent.id};
  auto result = store_->imports().apply(ws_, {{1, lead_named("x")}, {2, with_agent}});
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, 2);
  EXPECT_EQ(std::get<ImportFailure>(result).message,
            "agent_id does not name an agent of this workspace");

  auto with_dept = conversation(std::nullopt, "2025-01-01T00:00:00.000Z");
  with_dept.department_id = foreign_dept.id;
  result = store_->imports().apply(ws_, {{3, with_dept}});
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, 3);
  EXPECT_EQ(std::get<ImportFailure>(result).message,
            "department_id does not name a department of this workspace");
  EXPECT_EQ(store_->leads().list(ws_, {}).total_count, 0);
}

TEST_P(StoreTest, ImportRaisesLastActivityOfAnExistingContactOnlyForward) {
  domain::NewContact n = contact_named("Ada", "ada@x.io");
  n.created_at = ts("2025-06-01T00:00:00.000Z");
  import_ok({{1, n}});
  auto old_message = conversation(contact_named("Ada", "ada@x.io"), "2025-01-01T00:00:00.000Z");
  old_message.messages.push_back(
      {"visitor", "old", std::nullopt, "delivered", ts("2025-01-02T00:00:00.000Z"), std::nullopt});
  import_ok({{1, old_message}});
  EXPECT_EQ(store_->contacts().list(ws_, {}).items.at(0).last_activity,
            ts("2025-06-01T00:00:00.000Z"));
  auto new_message = conversation(contact_named("Ada", "ada@x.io"), "2025-07-01T00:00:00.000Z");
  new_message.messages.push_back(
      {"visitor", "new", std::nullopt, "delivered", ts("2025-07-02T00:00:00.000Z"), std::nullopt});
  import_ok({{1, new_message}});
  const auto contact = store_->contacts().list(ws_, {}).items.at(0);
  EXPECT_EQ(contact.last_activity, ts("2025-07-02T00:00:00.000Z"));
  EXPECT_EQ(contact.updated_at, ts("2025-06-01T00:00:00.000Z"));
  EXPECT_EQ(contact.conversation_count, 2);
  EXPECT_EQ(contact.last_conversation_at, ts("2025-07-01T00:00:00.000Z"));
}

// The import's events of `type`, by the id of their record, once the feed shows `expected`
// events (PostgreSQL's feed may lag a moment behind a commit).
std::map<std::string, boost::json::value> events_by_record(Database& db,
                                                           const domain::WorkspaceId& ws,
                                                           std::string_view type,
                                                           std::size_t expected) {
  std::map<std::string, boost::json::value> out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::size_t seen = 0;
  do {
    out.clear();
    seen = 0;
    EventListQuery q;
    q.page.limit = 100;
    const auto page = std::get<Page<StoredEvent>>(db.events().list(ws, q));
    for (const auto& e : page.items) {
      ++seen;
      auto body = boost::json::parse(e.body).as_object();
      if (body.at("type").as_string() != type) continue;
      const std::string id(body.at("data").at("id").as_string());
      out[id] = body.at("data");
    }
    if (seen >= expected) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < deadline);
  return out;
}

domain::NewMessage message(const char* content, const char* at) {
  return {"visitor", content, std::nullopt, "delivered", ts(at), std::nullopt};
}

// A conversation's event is built from what the import collected, not read back: it must show
// the conversation as reads do afterwards, whatever the visitor matched (a contact line of the
// batch, a stored contact, an earlier visitor), and each contact's last_activity must be its
// newest message's.
TEST_P(StoreTest, ImportedConversationEventsShowTheConversationsAsReadsDo) {
  const auto agent = store_->workspaces().add_agent(ws_, person("Alan", "T", "a@x.io"));
  domain::NewContact stored_contact = contact_named("Stored", "stored@x.io");
  stored_contact.created_at = ts("2025-01-01T00:00:00.000Z");
  stored_contact.phone = "+1 555 0100";
  import_ok({{1, stored_contact}});

  domain::NewContact line = contact_named("Line", "line@x.io");
  line.created_at = ts("2025-01-02T00:00:00.000Z");
  line.company_name = "Line Ltd";
  auto of_line = conversation(contact_named("Other name", "LINE@x.io"), "2025-02-01T00:00:00.000Z");
  of_line.agent_id = domain::AgentId{agent.id};
  of_line.messages = {message("late", "2025-02-03T00:00:00.000Z"),
                      message("early", "2025-02-02T00:00:00.000Z"),
                      message("same time, later in the file", "2025-02-03T00:00:00.000Z")};
  auto of_stored = conversation(contact_named("S", "Stored@x.io"), "2025-03-01T00:00:00.000Z");
  of_stored.messages = {message("to stored", "2025-03-02T00:00:00.000Z")};
  auto first_visit = conversation(contact_named("New", "new@x.io"), "2025-04-01T00:00:00.000Z");
  first_visit.messages = {message("first", "2025-04-02T00:00:00.000Z")};
  auto second_visit =
      conversation(contact_named("Renamed", "NEW@x.io"), "2025-05-01T00:00:00.000Z");
  second_visit.messages = {message("second", "2025-05-02T00:00:00.000Z")};
  auto silent_visit = conversation(contact_named("New", "new@x.io"), "2025-06-01T00:00:00.000Z");
  const auto counts = import_ok({{1, line},
                                 {2, of_line},
                                 {3, of_stored},
                                 {4, first_visit},
                                 {5, second_visit},
                                 {6, silent_visit}});
  EXPECT_EQ(counts.contacts, 2);  // the line and the new visitor
  EXPECT_EQ(counts.conversations, 5);

  // stored_contact's event, then the line, the new visitor, 5 conversations and 6 messages.
  const auto events = events_by_record(*store_, ws_, "conversation.created", 1 + 2 + 5 + 6);
  const auto conversations = store_->conversations().list(ws_, {}).items;
  ASSERT_EQ(conversations.size(), 5u);
  ASSERT_EQ(events.size(), 5u);
  for (const auto& listed : conversations) {
    const auto read = store_->conversations().get(ws_, listed.id);
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(events.at(listed.id.value),
              boost::json::parse(record_json::conversation_data(read->conversation)))
        << listed.id.value;
  }
  ConversationListQuery oldest_first;
  oldest_first.sort = {ConversationSortField::kCreatedAt, SortDirection::kAsc};
  const auto ordered = store_->conversations().list(ws_, oldest_first).items;
  EXPECT_EQ(ordered.at(0).last_message, "same time, later in the file");
  EXPECT_EQ(ordered.at(0).visitor_company, "Line Ltd");
  EXPECT_EQ(ordered.at(1).visitor_phone, "+1 555 0100");
  EXPECT_EQ(ordered.at(3).visitor_name, "New");  // the contact's name, not the visitor line's

  ContactListQuery by_created;
  by_created.sort = {ContactSortField::kCreatedAt, SortDirection::kAsc};
  const auto contacts = store_->contacts().list(ws_, by_created).items;
  ASSERT_EQ(contacts.size(), 3u);
  EXPECT_EQ(contacts[0].last_activity, ts("2025-03-02T00:00:00.000Z"));  // stored
  EXPECT_EQ(contacts[1].last_activity, ts("2025-02-03T00:00:00.000Z"));  // the line
  EXPECT_EQ(contacts[2].last_activity, ts("2025-05-02T00:00:00.000Z"));  // the new visitor
  EXPECT_EQ(contacts[2].conversation_count, 3);
}

// A batch is written in parts of many rows: a visitor's contact written with an earlier part
// still has its last_activity moved, and its conversations counted and dated, by conversations
// of a later one (the latest by created_at, whatever their order in the file; one without
// messages moves no activity).
TEST_P(StoreTest, AVisitorsContactWrittenWithAnEarlierPartOfTheBatchStillGainsActivity) {
  domain::NewContact line = contact_named("Early", "early@x.io");
  line.created_at = ts("2025-01-01T00:00:00.000Z");
  std::vector<ImportItem> items{{1, line}};
  for (int i = 0; i < 17000; ++i) {
    items.push_back({static_cast<int>(items.size() + 1), lead_named("L" + std::to_string(i))});
  }
  auto late = conversation(contact_named("Early", "early@x.io"), "2025-02-01T00:00:00.000Z");
  late.messages = {message("late", "2025-02-02T00:00:00.000Z")};
  items.push_back({static_cast<int>(items.size() + 1), late});
  const auto silent =
      conversation(contact_named("Early", "early@x.io"), "2025-01-15T00:00:00.000Z");
  items.push_back({static_cast<int>(items.size() + 1), silent});
  const auto counts = import_ok(items);
  EXPECT_EQ(counts.contacts, 1);
  const auto contact = store_->contacts().list(ws_, {}).items.at(0);
  EXPECT_EQ(contact.last_activity, ts("2025-02-02T00:00:00.000Z"));
  EXPECT_EQ(contact.conversation_count, 2);
  EXPECT_EQ(contact.last_conversation_at, ts("2025-02-01T00:00:00.000Z"));
  const auto read_alone = store_->contacts().get(ws_, contact.id);
  ASSERT_TRUE(read_alone.has_value());
  EXPECT_EQ(read_alone->conversation_count, 2);
  EXPECT_EQ(read_alone->last_conversation_at, ts("2025-02-01T00:00:00.000Z"));
}

// The stored contacts a batch names are read a thousand addresses per statement: a visitor or a
// contact line of an address past the first thousand is matched as well as one before it.
TEST_P(StoreTest, StoredContactsAreMatchedByEmailPastTheFirstThousandAddresses) {
  std::vector<ImportItem> stored;
  for (int i = 0; i < 1200; ++i) {
    stored.push_back({i + 1, contact_named("S", "s" + std::to_string(i) + "@x.io")});
  }
  import_ok(stored);

  std::vector<ImportItem> visitors;
  for (int i = 0; i < 1200; ++i) {
    auto c = conversation(contact_named("V", "S" + std::to_string(i) + "@X.IO"),
                          "2025-02-01T00:00:00.000Z");
    visitors.push_back({i + 1, c});
  }
  visitors.push_back(
      {1201, conversation(contact_named("New", "new@x.io"), "2025-02-01T00:00:00.000Z")});
  const auto counts = import_ok(visitors);
  EXPECT_EQ(counts.conversations, 1201);
  EXPECT_EQ(counts.contacts, 1);  // the new address only
  for (const char* email : {"s0@x.io", "s999@x.io"}) {
    ContactListQuery by_email;
    by_email.search_folded = email;
    const auto found = store_->contacts().list(ws_, by_email).items;
    ASSERT_EQ(found.size(), 1u) << email;
    EXPECT_EQ(found[0].conversation_count, 1) << email;
    EXPECT_EQ(found[0].first_name, "S") << email;
  }

  // Sorted, the thousand new addresses come before "s999@x.io", which a second statement reads.
  std::vector<ImportItem> lines;
  for (int i = 0; i < 1000; ++i) {
    lines.push_back({i + 1, contact_named("N", "n" + std::to_string(i) + "@x.io")});
  }
  lines.push_back({1001, contact_named("Again", "S999@x.io")});
  const auto result = store_->imports().apply(ws_, lines);
  ASSERT_TRUE(std::holds_alternative<ImportFailure>(result));
  EXPECT_EQ(std::get<ImportFailure>(result).line, 1001);
  EXPECT_EQ(std::get<ImportFailure>(result).message, "a contact with this email already exists");
}

}  // namespace
}  // namespace leadline::store::testing
