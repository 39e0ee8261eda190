// A tag-filtered list's total_count (from the counts the triggers keep, or through the tag's
// rows) and its pages must equal what a scan of the tag arrays finds: through creates, tag
// PATCHes, deletes and imports, per workspace, and on a database migrated with tagged rows.
#include <memory>
#include <set>

#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_migrations.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using domain::ConversationStatus;

domain::NewContact tagged_contact(std::string name, domain::Tags tags) {
  domain::NewContact c = contact_named(std::move(name));
  c.tags = std::move(tags);
  return c;
}

domain::NewConversation tagged_conversation(ConversationStatus status, domain::Tags tags) {
  domain::NewConversation c;
  c.source = "widget";
  c.status = status;
  c.tags = std::move(tags);
  return c;
}

// Every contact of the tag, page by page through the cursor: the ids, which must all carry the
// tag; and the total_count each page reported, which must agree.
struct Walk {
  std::set<std::string> ids;
  std::int64_t total_count = -1;
};

Walk walk_contacts(Database& store, const domain::WorkspaceId& ws, ContactListQuery q) {
  Walk out;
  q.page.limit = 7;
  for (;;) {
    const auto page = store.contacts().list(ws, q);
    if (out.total_count < 0) out.total_count = page.total_count;
    EXPECT_EQ(page.total_count, out.total_count);
    for (const auto& c : page.items) {
      EXPECT_NE(std::find(c.tags.begin(), c.tags.end(), *q.tag), c.tags.end());
      EXPECT_TRUE(out.ids.insert(c.id.value).second) << "seen twice: " << c.id.value;
    }
    if (!page.next_position) break;
    q.page.after = page.next_position;
  }
  return out;
}

std::int64_t contacts_tagged(Database& store, const domain::WorkspaceId& ws, std::string tag) {
  ContactListQuery q;
  q.tag = std::move(tag);
  const Walk walk = walk_contacts(store, ws, q);
  EXPECT_EQ(walk.total_count, static_cast<std::int64_t>(walk.ids.size())) << *q.tag;
  return walk.total_count;
}

std::int64_t conversations_tagged(Database& store, const domain::WorkspaceId& ws, std::string tag,
                                  std::optional<ConversationStatus> status = std::nullopt) {
  ConversationListQuery q;
  q.tag = std::move(tag);
  q.status = status;
  q.page.limit = 100;
  const auto page = store.conversations().list(ws, q);
  EXPECT_FALSE(page.next_position.has_value());
  EXPECT_EQ(page.total_count, static_cast<std::int64_t>(page.items.size())) << *q.tag;
  return page.total_count;
}

TEST_P(StoreTest, ContactTagCountsFollowCreatesPatchesAndDeletes) {
  const auto create = [&](const domain::WorkspaceId& ws, std::string name, domain::Tags tags) {
    return std::get<domain::Contact>(
               store_->contacts().create(ws, tagged_contact(std::move(name), std::move(tags))))
        .id;
  };
  const auto a = create(ws_, "A", {"vip", "key-account"});
  const auto b = create(ws_, "B", {"vip"});
  create(ws_, "C", {"Vip"});
  create(ws_, "D", {});
  create(other_ws_, "E", {"vip", "vip"});
  EXPECT_EQ(contacts_tagged(*store_, ws_, "vip"), 2);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "Vip"), 1);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "key-account"), 1);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "none"), 0);
  EXPECT_EQ(contacts_tagged(*store_, other_ws_, "vip"), 1);

  domain::ContactPatch retag;
  retag.tags = domain::Tags{"key-account", "new"};
  store_->contacts().update(ws_, a, retag);
  // A PATCH that leaves the tags alone must not move the counts.
  domain::ContactPatch rename;
  rename.first_name = "Bee";
  store_->contacts().update(ws_, b, rename);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "vip"), 1);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "new"), 1);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "key-account"), 1);

  ASSERT_TRUE(store_->contacts().remove(ws_, b));
  ASSERT_TRUE(store_->contacts().remove(ws_, a));
  EXPECT_EQ(contacts_tagged(*store_, ws_, "vip"), 0);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "key-account"), 0);
  EXPECT_EQ(contacts_tagged(*store_, other_ws_, "vip"), 1);

  // Combined with a search, the count goes through the tag's rows too.
  ContactListQuery q;
  q.tag = "vip";
  q.search_folded = "e";
  EXPECT_EQ(store_->contacts().list(other_ws_, q).total_count, 1);
  q.search_folded = "zzz";
  EXPECT_EQ(store_->contacts().list(other_ws_, q).total_count, 0);
}

// More tagged contacts than the page reads from the tag's rows (kMatchDrivenLimit): the page
// walks the sort order and looks each contact up among the tag's rows.
TEST_P(StoreTest, ManyTaggedContactsPageThroughTheSortOrder) {
  std::vector<ImportItem> items;
  for (int i = 0; i < 1200; ++i) {
    items.push_back({i + 1, tagged_contact("P" + std::to_string(i),
                                           i % 2 == 0 ? domain::Tags{"even"} : domain::Tags{})});
  }
  import_ok(items);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "even"), 600);
  ContactListQuery q;
  q.tag = "even";
  q.sort = {ContactSortField::kName, SortDirection::kAsc};
  EXPECT_EQ(walk_contacts(*store_, ws_, q).ids.size(), 600u);
  q.updated.since = domain::Timestamp{0};
  EXPECT_EQ(walk_contacts(*store_, ws_, q).total_count, 600);
}

TEST_P(StoreTest, ConversationTagCountsFollowImportsAndPatches) {
  import_ok({{1, tagged_conversation(ConversationStatus::kOpen, {"key-account", "urgent"})},
             {2, tagged_conversation(ConversationStatus::kPending, {"key-account"})},
             {3, tagged_conversation(ConversationStatus::kOpen, {"urgent"})},
             {4, tagged_contact("Imported", {"key-account"})}});
  EXPECT_EQ(conversations_tagged(*store_, ws_, "key-account"), 2);
  EXPECT_EQ(conversations_tagged(*store_, ws_, "key-account", ConversationStatus::kOpen), 1);
  EXPECT_EQ(conversations_tagged(*store_, ws_, "urgent"), 2);
  EXPECT_EQ(conversations_tagged(*store_, other_ws_, "key-account"), 0);
  EXPECT_EQ(contacts_tagged(*store_, ws_, "key-account"), 1);

  ConversationListQuery urgent;
  urgent.tag = "urgent";
  for (const auto& cv : store_->conversations().list(ws_, urgent).items) {
    domain::ConversationPatch p;
    p.tags = domain::Tags{"done"};
    store_->conversations().update(ws_, cv.id, p);
  }
  EXPECT_EQ(conversations_tagged(*store_, ws_, "urgent"), 0);
  EXPECT_EQ(conversations_tagged(*store_, ws_, "done"), 2);
  EXPECT_EQ(conversations_tagged(*store_, ws_, "key-account"), 1);
}

// A database migrated with tagged records already in it: the new migration indexes and
// counts them.
TEST_P(StoreTest, UpgradeIndexesAndCountsExistingTags) {
  const std::string url = other_database_url();
  const bool sqlite = backend() == Backend::kSqlite;
  {
    const auto old = migrated_before(url, 10, 8);
    old->execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'One', 1), ('w2', 'Two', 2);"
        "INSERT INTO contacts (id, workspace_id, first_name, tags, last_activity, created_at, "
        "updated_at, first_name_folded, search_folded, visitor_search_folded) VALUES "
        "('c1', 'w1', 'A', '[\"vip\",\"x\"]', 1, 1, 1, 'a', 'a', 'a'),"
        "('c2', 'w1', 'B', '[\"vip\"]', 2, 2, 2, 'b', 'b', 'b'),"
        "('c3', 'w2', 'C', '[\"vip\",\"vip\"]', 3, 3, 3, 'c', 'c', 'c');"
        "INSERT INTO conversations (id, workspace_id, source, status, tags, created_at, "
        "updated_at) VALUES ('v1', 'w1', 'api', 'open', '[\"vip\"]', 1, 1);");
  }
  const auto store = open_database(url);
  {
    // The counts the tag lists read were filled from the existing rows.
    std::unique_ptr<sql::Connection> raw;
    if (sqlite) {
      raw =
          std::make_unique<sqlite::Connection>(url.substr(7), sqlite::Connection::Open::kExisting);
    } else {
      raw = std::make_unique<postgres::Connection>(url);
    }
    auto rows = raw->query(
        "SELECT CAST(SUM(n) AS BIGINT) FROM record_counts WHERE workspace_id = 'w1' AND "
        "record_type = 'contact_tag' AND bucket = 'vip'");
    ASSERT_TRUE(rows.next());
    ASSERT_FALSE(rows.is_null(0));
    EXPECT_EQ(rows.int64(0), 2);
  }
  const domain::WorkspaceId w1{"w1"};
  const domain::WorkspaceId w2{"w2"};
  EXPECT_EQ(contacts_tagged(*store, w1, "vip"), 2);
  EXPECT_EQ(contacts_tagged(*store, w1, "x"), 1);
  EXPECT_EQ(contacts_tagged(*store, w2, "vip"), 1);
  EXPECT_EQ(conversations_tagged(*store, w1, "vip"), 1);
  store->contacts().create(w2, tagged_contact("D", {"vip"}));
  EXPECT_EQ(contacts_tagged(*store, w2, "vip"), 2);
}

}  // namespace
}  // namespace leadline::store::testing
