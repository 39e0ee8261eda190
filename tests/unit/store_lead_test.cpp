// Leads: defaults, the rep join, PATCH semantics (NotFound, bad references, updated_at only
// on a real change), delete, and workspace scoping.
#include <libpq-fe.h>
#include <sqlite3.h>

#include <string_view>
#include <thread>

#include "record_json/record_shapes.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using domain::FieldUpdate;
using domain::LeadPatch;
using domain::PipelineStage;

TEST_P(StoreTest, CreateLeadAppliesDefaults) {
  const auto before = clock_.now();
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  EXPECT_EQ(lead.id.value.size(), 36u);
  EXPECT_EQ(lead.id.value[14], '7');
  EXPECT_EQ(lead.visitor_name, "Ada");
  EXPECT_EQ(lead.pipeline_stage, PipelineStage::kNew);
  EXPECT_EQ(lead.need_summary, "");
  EXPECT_TRUE(lead.tags.empty());
  EXPECT_EQ(lead.source, "api");
  EXPECT_FALSE(lead.expected_billing_amount.has_value());
  EXPECT_FALSE(lead.lead_score.has_value());
  EXPECT_FALSE(lead.rep.has_value());
  EXPECT_GE(lead.created_at, before);
  EXPECT_EQ(lead.updated_at, lead.created_at);

  const auto got = store_->leads().get(ws_, lead.id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->visitor_name, "Ada");
  EXPECT_EQ(got->created_at, lead.created_at);
  EXPECT_EQ(got->source, "api");
}

TEST_P(StoreTest, CreateLeadKeepsEveryField) {
  domain::NewLead n = lead_named("Grace");
  n.visitor_email = "grace@navy.mil";
  n.visitor_phone = "+1 555";
  n.visitor_company = "Navy";
  n.pipeline_stage = PipelineStage::kQualified;
  n.need_summary = "compilers";
  n.tags = {"vip", "b \"quoted\" \\ tag", "ü"};
  n.source = "import";
  n.expected_billing_amount = 1234.5;
  n.lead_score = 42;
  n.created_at = ts("2020-01-02T03:04:05.678Z");
  const auto lead = store_->leads().create(ws_, n);
  EXPECT_EQ(lead.created_at, ts("2020-01-02T03:04:05.678Z"));
  EXPECT_EQ(lead.updated_at, lead.created_at);
  const auto got = *store_->leads().get(ws_, lead.id);
  EXPECT_EQ(got.visitor_email, "grace@navy.mil");
  EXPECT_EQ(got.visitor_phone, "+1 555");
  EXPECT_EQ(got.visitor_company, "Navy");
  EXPECT_EQ(got.pipeline_stage, PipelineStage::kQualified);
  EXPECT_EQ(got.need_summary, "compilers");
  EXPECT_EQ(got.tags, n.tags);
  EXPECT_EQ(got.source, "import");
  EXPECT_EQ(got.expected_billing_amount, 1234.5);
  EXPECT_EQ(got.lead_score, 42.0);
  EXPECT_EQ(got.created_at, ts("2020-01-02T03:04:05.678Z"));
}

TEST_P(StoreTest, LeadIsInvisibleFromAnotherWorkspace) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  EXPECT_FALSE(store_->leads().get(other_ws_, lead.id).has_value());
  LeadPatch p;
  p.visitor_name = "Eve";
  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->leads().update(other_ws_, lead.id, p)));
  EXPECT_FALSE(store_->leads().remove(other_ws_, lead.id));
  EXPECT_EQ(store_->leads().list(other_ws_, {}).total_count, 0);
  EXPECT_EQ(store_->leads().get(ws_, lead.id)->visitor_name, "Ada");
}

TEST_P(StoreTest, UpdateLeadUnknownIdIsNotFound) {
  LeadPatch p;
  p.visitor_name = "x";
  EXPECT_TRUE(std::holds_alternative<NotFound>(
      store_->leads().update(ws_, {"01890000-0000-7000-8000-000000000000"}, p)));
}

std::string item_json(const domain::Lead& lead) {
  std::string out;
  record_json::JsonWriter w(out);
  record_json::write_lead_item(w, lead);
  return out;
}

// A page is read into one record refilled from row to row: nothing of one lead (its rep, an
// e-mail, its tags, an amount) may show in the next.
TEST_P(StoreTest, ListedLeadsAreEachTheirOwnRecord) {
  const auto rep = store_->workspaces().add_rep(ws_, person("Rita", "Rep", "rita@x.io"));
  for (int i = 0; i < 6; ++i) {
    domain::NewLead n = lead_named("Lead " + std::to_string(i));
    n.created_at = domain::Timestamp{1'700'000'000'000 + i};
    if (i % 2 == 0) {
      n.visitor_email = "lead" + std::to_string(i) + "@x.io";
      n.tags = {"a", "b \"c\"", std::string(40, 'd')};
      n.expected_billing_amount = 10.5 * i;
    }
    const auto lead = store_->leads().create(ws_, n);
    if (i % 3 == 0) {
      LeadPatch p;
      p.assigned_rep_id = FieldUpdate<domain::RepId>::set({rep.id});
      ASSERT_TRUE(std::holds_alternative<domain::Lead>(store_->leads().update(ws_, lead.id, p)));
    }
  }
  std::vector<std::string> visited;
  const PageFacts facts = store_->leads().list(
      ws_, {}, [&](const domain::Lead& lead) { visited.push_back(item_json(lead)); });
  EXPECT_EQ(facts.total_count, 6);
  const auto page = store_->leads().list(ws_, {});
  ASSERT_EQ(page.items.size(), 6u);
  ASSERT_EQ(visited.size(), 6u);
  for (std::size_t i = 0; i < page.items.size(); ++i) {
    const auto got = store_->leads().get(ws_, page.items[i].id);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(item_json(page.items[i]), item_json(*got));
    EXPECT_EQ(visited[i], item_json(*got));
  }
}

// Runs `statement` on the test's database behind the store's back.
void execute_directly(Backend backend, const std::string& url, const char* statement) {
  if (backend == Backend::kSqlite) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(url.substr(std::string_view("sqlite:").size()).c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, statement, nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
    return;
  }
  PGconn* conn = PQconnectdb(url.c_str());
  ASSERT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
  PGresult* r = PQexec(conn, statement);
  EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(conn);
}

// The rendered list gives each lead's list item exactly as a list of records writes it, for
// every way a lead row is written (create, import, PATCH with and without a rep) and for rows
// whose kept JSON is missing (written before migration 0013).
TEST_P(StoreTest, RenderedListIsEachLeadsListItem) {
  const auto rep = store_->workspaces().add_rep(ws_, person("Rita", "Rep \"R\"", "rita@x.io"));
  for (int i = 0; i < 6; ++i) {
    domain::NewLead n = lead_named("Lead " + std::to_string(i));
    n.created_at = domain::Timestamp{1'700'000'000'000 + i};
    n.tags = {"a", "b \"c\""};
    n.expected_billing_amount = 0.1 * i;
    const auto lead = store_->leads().create(ws_, n);
    if (i % 2 == 0) {
      LeadPatch p;
      p.assigned_rep_id = FieldUpdate<domain::RepId>::set({rep.id});
      p.need_summary = FieldUpdate<std::string>::set("assigned");
      ASSERT_TRUE(std::holds_alternative<domain::Lead>(store_->leads().update(ws_, lead.id, p)));
    }
    if (i == 4) {
      LeadPatch p;
      p.assigned_rep_id = FieldUpdate<domain::RepId>::clear();
      ASSERT_TRUE(std::holds_alternative<domain::Lead>(store_->leads().update(ws_, lead.id, p)));
    }
  }
  domain::NewLead imported = lead_named("Imported");
  imported.lead_score = 42.5;
  imported.created_at = domain::Timestamp{1'600'000'000'000};
  import_ok({{1, imported}});

  const auto expected = [&] {
    std::vector<std::string> items;
    for (const auto& lead : store_->leads().list(ws_, {}).items) items.push_back(item_json(lead));
    return items;
  };
  const auto rendered = [&] {
    std::vector<std::string> items;
    const PageFacts facts = store_->leads().list_rendered(
        ws_, {}, [&](std::string_view item) { items.emplace_back(item); });
    EXPECT_EQ(facts.total_count, 7);
    return items;
  };
  ASSERT_EQ(expected().size(), 7u);
  EXPECT_EQ(rendered(), expected());

  // Kept JSON missing from the third lead of the page on, then from every lead.
  execute_directly(backend(), url(),
                   "UPDATE leads SET item_json = NULL WHERE visitor_name IN ('Lead 3', 'Lead 1')");
  EXPECT_EQ(rendered(), expected());
  execute_directly(backend(), url(), "UPDATE leads SET item_json = NULL");
  EXPECT_EQ(rendered(), expected());
}

// PostgreSQL keeps each lead page read (docs/design.md, "Page cache"): the second read finds it
// standing, the third asks for the version alone. Writes the store never sees (another instance,
// here SQL run directly) show on the very next read, through either path.
TEST_P(StoreTest, AKeptLeadPageShowsWritesMadeElsewhereOnTheNextRead) {
  for (int i = 0; i < 3; ++i) store_->leads().create(ws_, lead_named("Kept " + std::to_string(i)));
  const auto rendered = [&] {
    std::vector<std::string> items;
    const PageFacts facts = store_->leads().list_rendered(
        ws_, {}, [&](std::string_view item) { items.emplace_back(item); });
    EXPECT_EQ(facts.total_count, static_cast<std::int64_t>(items.size()));
    return items;
  };
  const auto expected = [&] {
    std::vector<std::string> items;
    for (const auto& lead : store_->leads().list(ws_, {}).items) items.push_back(item_json(lead));
    return items;
  };
  const auto read_thrice = [&](std::size_t want) {
    for (int read = 0; read < 3; ++read) {
      SCOPED_TRACE(read);
      const auto items = rendered();
      EXPECT_EQ(items.size(), want);
      EXPECT_EQ(items, expected());
    }
  };
  read_thrice(3);
  execute_directly(backend(), url(), "DELETE FROM leads WHERE visitor_name = 'Kept 1'");
  read_thrice(2);
  execute_directly(backend(), url(), "DELETE FROM leads WHERE visitor_name = 'Kept 2'");
  const auto after_delete = rendered();
  EXPECT_EQ(after_delete.size(), 1u);
  EXPECT_EQ(after_delete, expected());
}

// A PATCH's UPDATE sets only the columns it changes: SQLite rewrites the entries of every index
// on a column an UPDATE sets, to the same value or not (leads_by_stage, leads_by_name), each a
// page written. Triggers on those columns log each UPDATE that sets them (in name order).
TEST_P(StoreTest, PatchSetsOnlyTheColumnsItChanges) {
  if (backend() != Backend::kSqlite) GTEST_SKIP() << "counts SQLite's index rewrites";
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  execute_directly(backend(), url(),
                   "CREATE TABLE columns_set (name TEXT NOT NULL);"
                   "CREATE TRIGGER stage_set AFTER UPDATE OF pipeline_stage ON leads BEGIN"
                   "  INSERT INTO columns_set VALUES ('pipeline_stage'); END;"
                   "CREATE TRIGGER name_set AFTER UPDATE OF visitor_name_folded ON leads BEGIN"
                   "  INSERT INTO columns_set VALUES ('visitor_name_folded'); END;"
                   "CREATE TRIGGER search_set AFTER UPDATE OF search_folded ON leads BEGIN"
                   "  INSERT INTO columns_set VALUES ('search_folded'); END;");
  const auto columns_set = [&] {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(url().substr(std::string_view("sqlite:").size()).c_str(), &db),
              SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(
        sqlite3_prepare_v2(db, "SELECT name FROM columns_set ORDER BY name", -1, &stmt, nullptr),
        SQLITE_OK);
    std::vector<std::string> names;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
    sqlite3_exec(db, "DELETE FROM columns_set", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return names;
  };

  LeadPatch summary;
  summary.need_summary = FieldUpdate<std::string>::set("wants a demo");
  summary.expected_billing_amount = FieldUpdate<double>::set(12.5);
  const auto patched = store_->leads().update(ws_, lead.id, summary);
  ASSERT_TRUE(std::holds_alternative<domain::Lead>(patched));
  EXPECT_EQ(columns_set(), std::vector<std::string>{});
  EXPECT_EQ(item_json(std::get<domain::Lead>(patched)),
            item_json(*store_->leads().get(ws_, lead.id)));

  LeadPatch stage;
  stage.pipeline_stage = PipelineStage::kQualified;
  ASSERT_TRUE(std::holds_alternative<domain::Lead>(store_->leads().update(ws_, lead.id, stage)));
  EXPECT_EQ(columns_set(), std::vector<std::string>{"pipeline_stage"});

  LeadPatch name;
  name.visitor_name = "Ada L";
  ASSERT_TRUE(std::holds_alternative<domain::Lead>(store_->leads().update(ws_, lead.id, name)));
  EXPECT_EQ(columns_set(), (std::vector<std::string>{"search_folded", "visitor_name_folded"}));
  const auto got = *store_->leads().get(ws_, lead.id);
  EXPECT_EQ(got.visitor_name, "Ada L");
  EXPECT_EQ(got.pipeline_stage, PipelineStage::kQualified);
  EXPECT_EQ(got.need_summary, "wants a demo");
  LeadListQuery search;
  search.search_folded = "ada l";
  EXPECT_EQ(store_->leads().list(ws_, search).total_count, 1);
}

TEST_P(StoreTest, UpdateLeadAssignsRepAndReadsFillIt) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  const auto rep = store_->workspaces().add_rep(ws_, person("Rita", "Rep", "rita@x.io"));
  LeadPatch p;
  p.assigned_rep_id = FieldUpdate<domain::RepId>::set({rep.id});
  auto result = store_->leads().update(ws_, lead.id, p);
  ASSERT_TRUE(std::holds_alternative<domain::Lead>(result));
  const auto& updated = std::get<domain::Lead>(result);
  ASSERT_TRUE(updated.assigned_rep_id.has_value());
  EXPECT_EQ(updated.assigned_rep_id->value, rep.id);
  ASSERT_TRUE(updated.rep.has_value());
  EXPECT_EQ(updated.rep->first_name, "Rita");
  EXPECT_EQ(updated.rep->last_name, "Rep");
  EXPECT_EQ(updated.rep->email, "rita@x.io");
  EXPECT_EQ(store_->leads().list(ws_, {}).items.at(0).rep->email, "rita@x.io");

  LeadPatch unassign;
  unassign.assigned_rep_id = FieldUpdate<domain::RepId>::clear();
  const auto cleared = std::get<domain::Lead>(store_->leads().update(ws_, lead.id, unassign));
  EXPECT_FALSE(cleared.assigned_rep_id.has_value());
  EXPECT_FALSE(cleared.rep.has_value());
}

TEST_P(StoreTest, UpdateLeadRejectsRepOfAnotherWorkspace) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  const auto foreign = store_->workspaces().add_rep(other_ws_, person("F", "R", "f@x.io"));
  LeadPatch p;
  p.assigned_rep_id = FieldUpdate<domain::RepId>::set({foreign.id});
  auto result = store_->leads().update(ws_, lead.id, p);
  ASSERT_TRUE(std::holds_alternative<InvalidReference>(result));
  EXPECT_EQ(std::get<InvalidReference>(result).field, "assigned_rep_id");
  p.assigned_rep_id = FieldUpdate<domain::RepId>::set({"01890000-0000-7000-8000-000000000000"});
  EXPECT_TRUE(std::holds_alternative<InvalidReference>(store_->leads().update(ws_, lead.id, p)));
}

TEST_P(StoreTest, UpdateLeadWithoutChangeKeepsUpdatedAt) {
  domain::NewLead n = lead_named("Ada");
  n.tags = {"a"};
  n.expected_billing_amount = 5;
  const auto lead = store_->leads().create(ws_, n);
  clock_.advance(std::chrono::milliseconds(3));
  LeadPatch same;
  same.visitor_name = "Ada";
  same.tags = domain::Tags{"a"};
  same.expected_billing_amount = FieldUpdate<double>::set(5);
  same.pipeline_stage = PipelineStage::kNew;
  same.visitor_email = FieldUpdate<std::string>::clear();
  same.need_summary = FieldUpdate<std::string>::clear();
  const auto result = std::get<domain::Lead>(store_->leads().update(ws_, lead.id, same));
  EXPECT_EQ(result.updated_at, lead.updated_at);
  EXPECT_EQ(store_->leads().get(ws_, lead.id)->updated_at, lead.updated_at);
}

TEST_P(StoreTest, UpdateLeadChangesMoveUpdatedAtForward) {
  domain::NewLead n = lead_named("Ada");
  n.visitor_email = "ada@x.io";
  // A creation time in the future: updated_at must still move forward, past it.
  n.created_at = domain::Timestamp{clock_.now().unix_ms + 3'600'000};
  const auto lead = store_->leads().create(ws_, n);
  domain::Timestamp last = lead.updated_at;
  for (int i = 0; i < 5; ++i) {
    LeadPatch p;
    p.need_summary = FieldUpdate<std::string>::set("v" + std::to_string(i));
    const auto updated = std::get<domain::Lead>(store_->leads().update(ws_, lead.id, p));
    EXPECT_GT(updated.updated_at, last);
    EXPECT_EQ(updated.created_at, lead.created_at);
    last = updated.updated_at;
  }
  LeadPatch clear;
  clear.visitor_email = FieldUpdate<std::string>::clear();
  clear.pipeline_stage = PipelineStage::kLost;
  clear.tags = domain::Tags{"x", "y"};
  clear.expected_billing_amount = FieldUpdate<double>::set(9.25);
  const auto updated = std::get<domain::Lead>(store_->leads().update(ws_, lead.id, clear));
  EXPECT_FALSE(updated.visitor_email.has_value());
  EXPECT_EQ(updated.pipeline_stage, PipelineStage::kLost);
  EXPECT_EQ(updated.tags, (domain::Tags{"x", "y"}));
  EXPECT_EQ(updated.expected_billing_amount, 9.25);
  EXPECT_EQ(updated.need_summary, "v4");
  EXPECT_GT(updated.updated_at, last);
  const auto got = *store_->leads().get(ws_, lead.id);
  EXPECT_EQ(got.updated_at, updated.updated_at);
  EXPECT_FALSE(got.visitor_email.has_value());
}

TEST_P(StoreTest, DeleteLead) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  EXPECT_TRUE(store_->leads().remove(ws_, lead.id));
  EXPECT_FALSE(store_->leads().get(ws_, lead.id).has_value());
  EXPECT_FALSE(store_->leads().remove(ws_, lead.id));
}

}  // namespace
}  // namespace leadline::store::testing
