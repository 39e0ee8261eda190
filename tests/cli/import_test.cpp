// `leadline import`: JSON Lines of conversations, leads and contacts; counts, visitor matching by
// e-mail, stdin, timestamps, and all-or-nothing rejection naming the bad line.

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/cli_fixture.hpp"
#include "support/database_probe.hpp"
#include "support/fixture.hpp"
#include "support/test_backend.hpp"

namespace leadline_test {
namespace {

class ImportTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    ws_ = create_workspace();
    key_ = str(create_key(ws_, "read").at("key"));
  }

  json::object import_text(const std::string& text) {
    std::string file = write_file("in-" + std::to_string(++files_) + ".jsonl", text);
    return as_obj(run_json({"import", "--workspace", ws_, file}));
  }

  std::size_t count(const std::string& resource) {
    return api_get("/" + resource + "?limit=100", key_).as_array().size();
  }

  std::string ws_;
  std::string key_;
  int files_ = 0;
};

const KeySet kCounts = {"conversations", "contacts", "leads", "messages"};

TEST_F(ImportTest, CountsEveryKindOfRecord) {
  std::string t = timestamp_from_now(-3'600'000ms);
  std::string text = jsonl({
      json::object{{"type", "contact"},
                   {"first_name", "Grace"},
                   {"email", "Grace@Navy.mil"},
                   {"created_at", timestamp_from_now(-7'200'000ms)}},
      json::object{{"type", "lead"}, {"visitor_name", "Lead One"}, {"lead_score", 42}},
      conversation_line({{"first_name", "Ada"},
                         {"last_name", "Lovelace"},
                         {"email", "ada@example.com"},
                         {"phone", "+44 20 0000"},
                         {"company_name", "Analytical Engines"}},
                        {message_line("Hi", timestamp_from_now(-3'599'000ms), "visitor", "Ada"),
                         message_line("Hello", timestamp_from_now(-3'598'000ms), "bot")},
                        t),
      conversation_line({{"first_name", "Grace"}, {"email", "GRACE@navy.MIL"}},
                        {message_line("Ahoy", timestamp_from_now(-1000ms))}, t),
      conversation_line({{"first_name", "Anonymous"}}, {}, t),
  });
  json::object counts = import_text(text);
  EXPECT_EQ(keys_of(counts), kCounts);
  EXPECT_EQ(counts.at("conversations"), 3);
  EXPECT_EQ(counts.at("contacts"), 3);  // Grace (line), Ada and Anonymous (visitors)
  EXPECT_EQ(counts.at("leads"), 1);
  EXPECT_EQ(counts.at("messages"), 3);

  EXPECT_EQ(count("conversations"), 3u);
  EXPECT_EQ(count("contacts"), 3u);
  EXPECT_EQ(count("leads"), 1u);
  json::value grace = api_get("/contacts?search=grace", key_);
  ASSERT_EQ(grace.as_array().size(), 1u);
  EXPECT_EQ(grace.as_array()[0].at("conversation_count"), 1);
  EXPECT_EQ(grace.as_array()[0].at("email"), "Grace@Navy.mil");
}

TEST_F(ImportTest, VisitorIsMatchedToAnExistingContactByEmailCaseInsensitively) {
  import_text(jsonl(
      {json::object{{"type", "contact"}, {"first_name", "Ada"}, {"email", "Ada@Example.com"}}}));
  std::string t = timestamp_from_now(-60'000ms);
  json::object counts = import_text(jsonl(
      {conversation_line({{"first_name", "Ada"}, {"email", "ada@EXAMPLE.COM"}}, {}, t),
       conversation_line({{"first_name", "Someone"}, {"email", " ADA@example.com "}}, {}, t)}));
  EXPECT_EQ(counts.at("contacts"), 0);
  EXPECT_EQ(counts.at("conversations"), 2);
  json::value contacts = api_get("/contacts", key_);
  ASSERT_EQ(contacts.as_array().size(), 1u);
  EXPECT_EQ(contacts.as_array()[0].at("conversation_count"), 2);
  EXPECT_EQ(contacts.as_array()[0].at("first_name"), "Ada");
}

TEST_F(ImportTest, VisitorsWithoutEmailAlwaysCreateNewContacts) {
  std::string t = timestamp_from_now(-60'000ms);
  json::object counts = import_text(jsonl({conversation_line({{"first_name", "Same"}}, {}, t),
                                           conversation_line({{"first_name", "Same"}}, {}, t)}));
  EXPECT_EQ(counts.at("contacts"), 2);
  EXPECT_EQ(count("contacts"), 2u);
}

TEST_F(ImportTest, DashReadsStandardInput) {
  std::string text = jsonl({json::object{{"type", "lead"}, {"visitor_name", "From stdin"}},
                            json::object{{"type", "contact"}, {"first_name", "Stdin"}}});
  CliOptions options;
  options.stdin_data = text;
  json::value counts = run_json({"import", "--workspace", ws_, "-"}, options);
  EXPECT_EQ(keys_of(counts), kCounts);
  EXPECT_EQ(counts.at("leads"), 1);
  EXPECT_EQ(counts.at("contacts"), 1);
  EXPECT_EQ(counts.at("conversations"), 0);
  EXPECT_EQ(counts.at("messages"), 0);
  json::value leads = api_get("/leads", key_);
  ASSERT_EQ(leads.as_array().size(), 1u);
  EXPECT_EQ(leads.as_array()[0].at("visitor_name"), "From stdin");
}

TEST_F(ImportTest, TimestampsArePastFutureOrNow) {
  std::string past = "2020-02-29T12:34:56.789Z";
  std::string future = timestamp_from_now(std::chrono::hours(24 * 400));
  std::string conv_time = "2021-06-01T08:00:00.000Z";
  std::int64_t before = now_millis();
  import_text(jsonl({
      json::object{{"type", "contact"}, {"first_name", "Past"}, {"created_at", past}},
      json::object{{"type", "lead"}, {"visitor_name", "Future"}, {"created_at", future}},
      json::object{{"type", "lead"}, {"visitor_name", "Now"}},
      conversation_line({{"first_name", "Visitor"}, {"email", "visitor@example.com"}},
                        {message_line("m", "2021-06-01T08:00:05.000Z")}, conv_time),
  }));
  std::int64_t after = now_millis();
  json::value past_contact = api_get("/contacts?search=past", key_);
  ASSERT_EQ(past_contact.as_array().size(), 1u);
  EXPECT_EQ(past_contact.as_array()[0].at("created_at"), json::value(past));
  json::value future_lead = api_get("/leads?search=future", key_);
  ASSERT_EQ(future_lead.as_array().size(), 1u);
  EXPECT_EQ(future_lead.as_array()[0].at("created_at"), json::value(future));
  json::value now_lead = api_get("/leads?search=now", key_);
  ASSERT_EQ(now_lead.as_array().size(), 1u);
  std::int64_t created = timestamp_millis(str(now_lead.as_array()[0].at("created_at")));
  EXPECT_GE(created, before - 2000);
  EXPECT_LE(created, after + 2000);
  // A contact created from a conversation visitor takes the conversation's created_at.
  json::value visitor = api_get("/contacts?search=visitor%40example.com", key_);
  ASSERT_EQ(visitor.as_array().size(), 1u);
  EXPECT_EQ(visitor.as_array()[0].at("created_at"), json::value(conv_time));
  json::value conv = api_get("/conversations", key_);
  ASSERT_EQ(conv.as_array().size(), 1u);
  EXPECT_EQ(conv.as_array()[0].at("created_at"), json::value(conv_time));
  EXPECT_EQ(conv.as_array()[0].at("updated_at"), "2021-06-01T08:00:05.000Z");
}

TEST_F(ImportTest, ConversationsMayReferenceAgentsAndDepartments) {
  std::string agent = str(run_json({"agents", "add", "--workspace", ws_, "--first-name", "Alan",
                                    "--last-name", "Turing", "--email", "alan@example.com"})
                              .at("id"));
  std::string dept =
      str(run_json({"departments", "add", "--workspace", ws_, "--name", "Support"}).at("id"));
  json::object line = conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms));
  line["agent_id"] = agent;
  line["department_id"] = dept;
  import_text(jsonl({line}));
  json::value conv = api_get("/conversations", key_);
  ASSERT_EQ(conv.as_array().size(), 1u);
  EXPECT_EQ(conv.as_array()[0].at("agent_id"), json::value(agent));
  EXPECT_EQ(conv.as_array()[0].at("department_id"), json::value(dept));
  EXPECT_EQ(conv.as_array()[0].at("agent_name"), "Alan");
}

TEST_F(ImportTest, ABadLineIsReportedByNumberAndNothingIsKept) {
  const std::string good1 = json::serialize(json::object{{"type", "lead"}, {"visitor_name", "L1"}});
  const std::string good2 = json::serialize(conversation_line(
      {{"first_name", "V"}, {"email", "v@example.com"}},
      {message_line("m", timestamp_from_now(-1000ms))}, timestamp_from_now(-2000ms)));
  const std::string good3 =
      json::serialize(json::object{{"type", "contact"}, {"first_name", "C"}, {"email", "c@x.io"}});
  const std::vector<std::string> bad_lines = {
      "{not json",
      json::serialize(json::object{{"type", "lead"}, {"need_summary", "no visitor_name"}}),
      json::serialize(json::object{{"type", "spaceship"}, {"name", "x"}}),
      json::serialize(json::object{{"type", "contact"}, {"first_name", ""}}),
      json::serialize(
          conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms), "closed")),
      json::serialize(
          json::object{{"type", "lead"}, {"visitor_name", "x"}, {"pipeline_stage", "won"}}),
      "[1,2,3]",
  };
  for (const auto& bad : bad_lines) {
    SCOPED_TRACE(bad);
    std::string text = good1 + "\n" + good2 + "\n" + good3 + "\n" + bad + "\n" + good1 + "\n";
    std::string file = write_file("bad.jsonl", text);
    CliResult r = run({"import", "--workspace", ws_, file, "--json"});
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_TRUE(std::regex_search(r.err, std::regex("(^|[^0-9])4([^0-9]|$)")))
        << "the error names line 4\n"
        << r.describe();
    EXPECT_EQ(count("leads"), 0u);
    EXPECT_EQ(count("contacts"), 0u);
    EXPECT_EQ(count("conversations"), 0u);
  }
}

TEST_F(ImportTest, ALineThatIsNotJsonNamesTheByteAndWhatWasExpected) {
  const std::string good = json::serialize(json::object{{"type", "lead"}, {"visitor_name", "A"}});
  std::string file =
      write_file("syntax.jsonl", good + "\n" + R"({"type":"lead" "visitor_name":"B"})" + "\n");
  CliResult r = run({"import", "--workspace", ws_, file});
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("line 2: the line is not valid JSON at byte 15: expected ',' or '}'"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(count("leads"), 0u);
}

TEST_F(ImportTest, EmptyInputImportsNothing) {
  json::object counts = import_text("");
  EXPECT_EQ(counts,
            (json::object{{"conversations", 0}, {"contacts", 0}, {"leads", 0}, {"messages", 0}}));
}

// `n` leads "Lead i" and `n` contacts "Ci" <ci@example.com>, alternating.
std::vector<json::value> leads_and_contacts(int n) {
  std::vector<json::value> lines;
  for (int i = 0; i < n; ++i) {
    lines.push_back(json::object{{"type", "lead"}, {"visitor_name", "Lead " + std::to_string(i)}});
    lines.push_back(json::object{{"type", "contact"},
                                 {"first_name", "C" + std::to_string(i)},
                                 {"email", "c" + std::to_string(i) + "@example.com"}});
  }
  return lines;
}

// Planned without statistics, the first lists after an import took seconds on PostgreSQL.
TEST_F(ImportTest, PostgresHasStatisticsOfTheImportedTablesAtOnce) {
  if (test_backend() != Backend::kPostgres) GTEST_SKIP() << "SQLite keeps no planner statistics";
  std::vector<json::value> lines = leads_and_contacts(2000);
  import_text(jsonl(lines));
  for (const std::string table : {"leads", "contacts", "events"}) {
    SCOPED_TRACE(table);
    // -1 until the table is first analysed.
    const std::string rows = postgres_scalar(
        db_url(), "SELECT reltuples::bigint FROM pg_class WHERE relname = '" + table + "'");
    EXPECT_EQ(rows, table == "events" ? "4000" : "2000");
  }
}

// An import leaves the tables it filled vacuumed and analysed, with nothing counted since: no
// insert-triggered autovacuum or autoanalyze comes a minute later to do that work while the
// first requests are served (BENCHMARKS.md, "Where the time goes now"). Whether the pages were
// marked all-visible depends on the snapshots open meanwhile (an autovacuum worker's ANALYZE of
// this fresh database's catalogs, say), so the statistics tell instead.
TEST_F(ImportTest, PostgresLeavesTheImportedTablesVacuumed) {
  if (test_backend() != Backend::kPostgres) GTEST_SKIP() << "SQLite has no VACUUM to leave";
  std::vector<json::value> lines = leads_and_contacts(2000);
  import_text(jsonl(lines));
  lines.clear();
  const std::string t = timestamp_from_now(-60'000ms);
  for (int i = 0; i < 200; ++i) {
    json::array messages;
    for (int m = 0; m < 5; ++m) messages.push_back(message_line("Message " + std::to_string(m), t));
    // Visitors are contacts of the first file, whose last activity the import raises.
    lines.push_back(conversation_line(
        {{"first_name", "C"}, {"email", "c" + std::to_string(i * 10) + "@example.com"}}, messages,
        t));
  }
  import_text(jsonl(lines));
  for (const std::string table : {"leads", "contacts", "conversations", "messages", "events"}) {
    SCOPED_TRACE(table);
    EXPECT_EQ(postgres_scalar(db_url(),
                              "SELECT (last_vacuum IS NOT NULL)::text || ' ' || "
                              "n_ins_since_vacuum::text || ' ' || n_mod_since_analyze::text "
                              "FROM pg_stat_user_tables WHERE relname = '" +
                                  table + "'"),
              "true 0 0");
  }
}

// An import leaves each trigram index merged into one segment; otherwise the writes after it
// carry on FTS5's merging of the import's segments (BENCHMARKS.md, "Round 3"). FTS5 tells a
// 'merge' that found segments to merge by two or more changes, a no-op by one.
TEST_F(ImportTest, SqliteLeavesEachSearchIndexMergedIntoOneSegment) {
  if (test_backend() != Backend::kSqlite) GTEST_SKIP() << "PostgreSQL has no FTS5 segments";
  for (int round = 0; round < 2; ++round) {
    std::vector<json::value> lines;
    for (int i = 0; i < 3000; ++i) {
      const std::string n = std::to_string(round * 3000 + i);
      lines.push_back(json::object{{"type", "lead"}, {"visitor_name", "Lead " + n}});
      lines.push_back(json::object{
          {"type", "contact"}, {"first_name", "C" + n}, {"email", "c" + n + "@example.com"}});
    }
    import_text(jsonl(lines));
  }
  for (const std::string table : {"leads_search", "contacts_search"}) {
    SCOPED_TRACE(table);
    EXPECT_EQ(sqlite_scalar(db_url(), "INSERT INTO " + table + "(" + table +
                                          ", rank) VALUES('merge', -1000000); "
                                          "SELECT total_changes()"),
              "1");
  }
  EXPECT_EQ(api_get("/leads?search=lead%205999&limit=10", key_).as_array().size(), 1u);
}

// A batch whose savepoint journal outgrows memory spills it to a file; with SQLite's
// statement journal kept in memory up to 4 MiB, SQLite 3.40 failed such a batch ("database or
// disk is full").
TEST_F(ImportTest, ALargeBatchImportsWhole) {
  std::vector<json::value> lines;
  for (int i = 0; i < 10000; ++i) {
    json::array tags;
    if (i % 10 == 0) tags.emplace_back("key-account");
    lines.push_back(json::object{{"type", "contact"},
                                 {"first_name", "C" + std::to_string(i)},
                                 {"last_name", "Contact of a large batch " + std::to_string(i)},
                                 {"email", "c" + std::to_string(i) + "@example.com"},
                                 {"company_name", "Company " + std::to_string(i % 977)},
                                 {"profile_notes", std::string(200, 'n')},
                                 {"tags", tags}});
  }
  EXPECT_EQ(import_text(jsonl(lines)).at("contacts"), 10000);
  EXPECT_EQ(api_get("/contacts?tag=key-account&limit=100", key_).as_array().size(), 100u);
}

TEST_F(ImportTest, ImportIntoAnotherWorkspaceStaysThere) {
  std::string other = create_workspace("Other");
  std::string file =
      write_file("x.jsonl", jsonl({json::object{{"type", "lead"}, {"visitor_name", "X"}}}));
  run_json({"import", "--workspace", other, file});
  EXPECT_EQ(count("leads"), 0u);
}

}  // namespace
}  // namespace leadline_test
