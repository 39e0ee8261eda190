// Keyset paging through every sort of every list, both directions, with ties and NULLs;
// pages stay correct while rows are inserted and deleted; offset paging and total_count.
#include <algorithm>
#include <functional>

#include "domain/unicode_text.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

// A row as the expected order sees it: its sort key values and its id.
struct Row {
  std::vector<SortValue> keys;
  std::string id;
};

// a before b: key by key with NULL last in both directions, then id, all in `dir`.
bool before(const Row& a, const Row& b, SortDirection dir) {
  const bool asc = dir == SortDirection::kAsc;
  for (std::size_t k = 0; k < a.keys.size(); ++k) {
    const bool a_null = std::holds_alternative<std::monostate>(a.keys[k]);
    const bool b_null = std::holds_alternative<std::monostate>(b.keys[k]);
    if (a_null != b_null) return b_null;
    if (a_null) continue;
    if (a.keys[k] != b.keys[k]) return asc ? a.keys[k] < b.keys[k] : b.keys[k] < a.keys[k];
  }
  return asc ? a.id < b.id : b.id < a.id;
}

std::vector<std::string> ordered_ids(std::vector<Row> rows, SortDirection dir) {
  std::sort(rows.begin(), rows.end(),
            [dir](const Row& a, const Row& b) { return before(a, b, dir); });
  std::vector<std::string> ids;
  for (const auto& r : rows) ids.push_back(r.id);
  return ids;
}

std::vector<std::string> ids_after(const std::vector<Row>& rows, const KeysetPosition& pos,
                                   SortDirection dir) {
  const Row position{pos.values, pos.id};
  std::vector<Row> after;
  for (const auto& r : rows) {
    if (before(position, r, dir)) after.push_back(r);
  }
  return ordered_ids(after, dir);
}

template <class T>
using Lister = std::function<Page<T>(const PageRequest&)>;

// Follows next_position from the first page to the last, checking the page invariants.
template <class T>
std::vector<std::string> walk(const Lister<T>& list, int limit,
                              std::optional<KeysetPosition> from = std::nullopt) {
  std::vector<std::string> ids;
  PageRequest page{limit, std::move(from), 0};
  for (int guard = 0; guard < 1000; ++guard) {
    const auto p = list(page);
    EXPECT_LE(p.items.size(), static_cast<std::size_t>(limit));
    EXPECT_EQ(p.has_more, p.next_position.has_value());
    for (const auto& item : p.items) ids.push_back(item.id.value);
    if (!p.has_more) return ids;
    EXPECT_EQ(p.items.size(), static_cast<std::size_t>(limit));
    EXPECT_EQ(p.next_position->id, p.items.back().id.value);
    page.after = p.next_position;
  }
  ADD_FAILURE() << "paging did not end";
  return ids;
}

constexpr SortDirection kBothDirections[] = {SortDirection::kAsc, SortDirection::kDesc};
constexpr int kLimits[] = {1, 3, 7, 100};

class PagingTest : public StoreTest {
 protected:
  // Leads with tied timestamps, tied folded names and NULL scores.
  void add_leads() {
    const char* names[] = {"ada", "Ada",  "ADA",  "Émile", "émile", "bob",  "Zoë",
                           "zoë", "carl", "Ünal", "ünal",  "ünal",  "dora", "Eve"};
    const std::optional<double> scores[] = {std::nullopt, 1.0, 2.5, std::nullopt, -3.0, 2.5};
    for (int i = 0; i < 28; ++i) {
      domain::NewLead n = lead_named(names[i % std::size(names)]);
      n.lead_score = scores[i % std::size(scores)];
      n.created_at = domain::Timestamp{1'700'000'000'000 + (i % 4) * 1000};
      items_.push_back({i + 1, n});
    }
    import_ok(items_);
  }

  std::vector<Row> lead_rows(LeadSortField field) {
    LeadListQuery q;
    q.page.limit = 100;
    std::vector<Row> rows;
    for (const auto& l : store_->leads().list(ws_, q).items) {
      SortValue key;
      switch (field) {
        case LeadSortField::kCreatedAt:
          key = l.created_at.unix_ms;
          break;
        case LeadSortField::kUpdatedAt:
          key = l.updated_at.unix_ms;
          break;
        case LeadSortField::kLeadScore:
          if (l.lead_score) key = *l.lead_score;
          break;
        case LeadSortField::kVisitorName:
          key = domain::case_fold(l.visitor_name);
          break;
      }
      rows.push_back({{key}, l.id.value});
    }
    return rows;
  }

  // Contacts with tied first names, NULL last names and NULL e-mails.
  void add_contacts() {
    const char* firsts[] = {"ann", "Ann", "ÄNN", "ben", "Ben", "çeyda"};
    const std::optional<std::string> lasts[] = {std::nullopt, "Smith", "smith", "Ölz",
                                                std::nullopt};
    std::vector<ImportItem> items;
    for (int i = 0; i < 26; ++i) {
      domain::NewContact c = contact_named(firsts[i % std::size(firsts)]);
      c.last_name = lasts[i % std::size(lasts)];
      if (i % 3 != 0) c.email = "User" + std::to_string(i % 13) + (i > 12 ? "@B.io" : "@a.io");
      c.created_at = domain::Timestamp{1'700'000'000'000 + (i % 5) * 1000};
      items.push_back({i + 1, c});
    }
    import_ok(items);
  }

  std::vector<Row> contact_rows(ContactSortField field) {
    ContactListQuery q;
    q.page.limit = 100;
    std::vector<Row> rows;
    for (const auto& c : store_->contacts().list(ws_, q).items) {
      std::vector<SortValue> keys;
      const auto fold = [](const std::optional<std::string>& s) -> SortValue {
        if (!s) return std::monostate{};
        return domain::case_fold(*s);
      };
      switch (field) {
        case ContactSortField::kCreatedAt:
          keys = {c.created_at.unix_ms};
          break;
        case ContactSortField::kLastActivity:
          keys = {c.last_activity.unix_ms};
          break;
        case ContactSortField::kEmail:
          keys = {fold(c.email)};
          break;
        case ContactSortField::kName:
          keys = {domain::case_fold(c.first_name), fold(c.last_name)};
          break;
      }
      rows.push_back({keys, c.id.value});
    }
    return rows;
  }

  Lister<domain::Lead> lead_lister(LeadSortField field, SortDirection dir) {
    return [this, field, dir](const PageRequest& page) {
      LeadListQuery q;
      q.sort = {field, dir};
      q.page = page;
      return store_->leads().list(ws_, q);
    };
  }

  Lister<domain::Contact> contact_lister(ContactSortField field, SortDirection dir) {
    return [this, field, dir](const PageRequest& page) {
      ContactListQuery q;
      q.sort = {field, dir};
      q.page = page;
      return store_->contacts().list(ws_, q);
    };
  }

  std::vector<ImportItem> items_;
};

INSTANTIATE_TEST_SUITE_P(Backends, PagingTest, all_backends(), backend_name);

TEST_P(PagingTest, LeadsEverySortBothDirections) {
  add_leads();
  for (auto field : {LeadSortField::kCreatedAt, LeadSortField::kUpdatedAt,
                     LeadSortField::kLeadScore, LeadSortField::kVisitorName}) {
    for (auto dir : kBothDirections) {
      const auto expected = ordered_ids(lead_rows(field), dir);
      ASSERT_EQ(expected.size(), 28u);
      for (int limit : kLimits) {
        EXPECT_EQ(walk(lead_lister(field, dir), limit), expected)
            << "field " << static_cast<int>(field) << " dir " << static_cast<int>(dir) << " limit "
            << limit;
      }
    }
  }
}

TEST_P(PagingTest, ContactsEverySortBothDirections) {
  add_contacts();
  for (auto field : {ContactSortField::kCreatedAt, ContactSortField::kLastActivity,
                     ContactSortField::kName, ContactSortField::kEmail}) {
    for (auto dir : kBothDirections) {
      const auto expected = ordered_ids(contact_rows(field), dir);
      ASSERT_EQ(expected.size(), 26u);
      for (int limit : kLimits) {
        EXPECT_EQ(walk(contact_lister(field, dir), limit), expected)
            << "field " << static_cast<int>(field) << " dir " << static_cast<int>(dir) << " limit "
            << limit;
      }
    }
  }
}

TEST_P(PagingTest, ConversationsEverySortBothDirections) {
  std::vector<ImportItem> items;
  for (int i = 0; i < 17; ++i) {
    domain::NewConversation c;
    c.source = "widget";
    c.created_at = domain::Timestamp{1'700'000'000'000 + (i % 3) * 1000};
    if (i % 2) {
      c.messages.push_back({"visitor", "m", std::nullopt, "delivered",
                            domain::Timestamp{1'700'000'100'000 + (i % 4) * 1000}, std::nullopt});
    }
    items.push_back({i + 1, c});
  }
  import_ok(items);
  ConversationListQuery all;
  all.page.limit = 100;
  const auto convs = store_->conversations().list(ws_, all).items;
  for (auto field : {ConversationSortField::kCreatedAt, ConversationSortField::kUpdatedAt}) {
    std::vector<Row> rows;
    for (const auto& c : convs) {
      const auto t = field == ConversationSortField::kCreatedAt ? c.created_at : c.updated_at;
      rows.push_back({{t.unix_ms}, c.id.value});
    }
    for (auto dir : kBothDirections) {
      const auto expected = ordered_ids(rows, dir);
      for (int limit : kLimits) {
        Lister<domain::Conversation> list = [&](const PageRequest& page) {
          ConversationListQuery q;
          q.sort = {field, dir};
          q.page = page;
          return store_->conversations().list(ws_, q);
        };
        EXPECT_EQ(walk(list, limit), expected) << static_cast<int>(field) << " " << limit;
      }
    }
  }
}

TEST_P(PagingTest, PositionsHoldTheValuesTheStoreCompares) {
  add_leads();
  LeadListQuery q;
  q.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
  q.page.limit = 1;
  auto page = store_->leads().list(ws_, q);
  ASSERT_TRUE(page.next_position.has_value());
  EXPECT_EQ(page.next_position->values, std::vector<SortValue>{std::string("ada")});

  q.sort = {LeadSortField::kLeadScore, SortDirection::kDesc};
  q.page.limit = 27;
  page = store_->leads().list(ws_, q);
  ASSERT_TRUE(page.next_position.has_value());
  EXPECT_EQ(page.next_position->values, std::vector<SortValue>{std::monostate{}});
  q.page.limit = 1;
  page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.next_position->values, std::vector<SortValue>{2.5});

  q.sort = {LeadSortField::kCreatedAt, SortDirection::kAsc};
  page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.next_position->values, std::vector<SortValue>{std::int64_t{1'700'000'000'000}});
}

TEST_P(PagingTest, InsertAndDeleteBetweenPagesStayCorrect) {
  add_leads();
  for (auto dir : kBothDirections) {
    for (auto field : {LeadSortField::kLeadScore, LeadSortField::kVisitorName}) {
      LeadListQuery q;
      q.sort = {field, dir};
      q.page.limit = 5;
      const auto first = store_->leads().list(ws_, q);
      ASSERT_TRUE(first.next_position.has_value());
      // Delete the row the position names and the next one; add rows on both sides.
      const auto next_ids = walk(lead_lister(field, dir), 5, first.next_position);
      EXPECT_TRUE(store_->leads().remove(ws_, {first.next_position->id}));
      EXPECT_TRUE(store_->leads().remove(ws_, {next_ids.at(0)}));
      for (const auto& [name, score] : std::vector<std::pair<std::string, std::optional<double>>>{
               {"aaa", -100.0}, {"zzz", 100.0}, {"mmm", std::nullopt}, {"ADA", 2.5}}) {
        domain::NewLead n = lead_named(name);
        n.lead_score = score;
        import_ok({{1, n}});
      }
      const auto rest = walk(lead_lister(field, dir), 4, first.next_position);
      EXPECT_EQ(rest, ids_after(lead_rows(field), *first.next_position, dir))
          << static_cast<int>(field) << " " << static_cast<int>(dir);
    }
  }
}

TEST_P(PagingTest, OffsetPagingAndTotalCount) {
  add_leads();
  const auto expected = ordered_ids(lead_rows(LeadSortField::kCreatedAt), SortDirection::kDesc);
  LeadListQuery q;
  q.page.limit = 10;
  q.page.offset = 10;
  auto page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.total_count, 28);
  EXPECT_TRUE(page.has_more);
  ASSERT_EQ(page.items.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(page.items[i].id.value, expected[10 + i]);
  EXPECT_EQ(page.next_position->id, expected[19]);
  // A cursor from an offset page continues after it.
  EXPECT_EQ(
      walk(lead_lister(LeadSortField::kCreatedAt, SortDirection::kDesc), 10, page.next_position),
      std::vector<std::string>(expected.begin() + 20, expected.end()));
  q.page.offset = 20;
  page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.items.size(), 8u);
  EXPECT_FALSE(page.has_more);
  EXPECT_FALSE(page.next_position.has_value());
  q.page.offset = 40;
  page = store_->leads().list(ws_, q);
  EXPECT_TRUE(page.items.empty());
  EXPECT_EQ(page.total_count, 28);
}

}  // namespace
}  // namespace leadline::store::testing
