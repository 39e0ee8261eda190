// Crash durability: SIGKILL `leadline serve` in the middle of concurrent creates and PATCHes,
// restart it on the same database (a SQLite file, or a PostgreSQL database), and check that
// exactly the acknowledged writes survived, each request all-or-nothing, and that the database
// passes its integrity check (PRAGMA integrity_check; amcheck's bt_index_check on PostgreSQL).
//
// A webhook endpoint (a recording receiver on loopback) is registered before the load, so the
// kills also hit delivery workers in the middle of attempts. After the last round, once every
// delivery is done: the events feed holds exactly one event per write that took effect and none
// for a write that did not, with the data it committed, and every event reached the receiver
// at least once (duplicates are allowed: an attempt in flight at a kill is made again).
//
// ROUNDS (environment, default 3) sets the number of kill/restart rounds on one database;
// SEED fixes the random choices (the seed in use is printed, to replay a failure).
//
// IdempotencyCrashTest: POST /leads each with its own Idempotency-Key, SIGKILL, restart, and
// every key sent again: each first answer comes back byte for byte, each key has one lead.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/database_probe.hpp"
#include "support/http_client.hpp"
#include "support/postgres_instance.hpp"
#include "support/server_process.hpp"
#include "support/test_backend.hpp"
#include "support/webhook_receiver.hpp"

namespace leadline_test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kBase = "/api/v1/external";
constexpr int kThreads = 6;

enum class Kind { kLead, kContact };

const char* resource_of(Kind kind) {
  return kind == Kind::kLead ? "leads" : "contacts";
}

// What is known of a write: answered 2xx; or unanswered (the server died while it was in
// flight), then, once a restarted server showed it, applied or not applied. A resolved write
// must stay that way in every later round.
enum class Outcome { kAcked, kUnknown, kApplied, kNotApplied };

bool took_effect(Outcome o) {
  return o == Outcome::kAcked || o == Outcome::kApplied;
}

struct PatchAttempt {
  std::int64_t token = 0;
  Outcome outcome = Outcome::kUnknown;
};

// One record a worker asked to create, and every PATCH it sent to it, in order. A record
// belongs to one worker slot for the whole test, so its requests are strictly sequential.
struct Record {
  Kind kind = Kind::kLead;
  std::int64_t token = 0;  // identity: lead visitor_name "lead-N", contact email "c-N@…"
  json::object body;       // the create body as sent
  Outcome created = Outcome::kUnknown;
  std::string id;  // when created is kAcked
  std::vector<PatchAttempt> patches;
};

// Every PATCH sets these fields together, all derived from one token, so a half-applied
// PATCH shows as fields with different tokens. Creates set them too, from the record's token.
std::string text_of(std::int64_t token) {
  std::string text = "v";
  text += std::to_string(token);
  return text;
}

json::object patch_body(Kind kind, std::int64_t token) {
  json::object b;
  if (kind == Kind::kLead) {
    b["need_summary"] = text_of(token);
    b["visitor_company"] = text_of(token);
    b["tags"] = json::array{json::value(text_of(token))};
    b["expected_billing_amount"] = token;
  } else {
    b["last_name"] = text_of(token);
    b["company_name"] = text_of(token);
    b["profile_notes"] = text_of(token);
    b["tags"] = json::array{json::value(text_of(token))};
  }
  return b;
}

std::string identity_of(Kind kind, std::int64_t token) {
  return kind == Kind::kLead ? "lead-" + std::to_string(token)
                             : "c-" + std::to_string(token) + "@durability.test";
}

json::object create_body(Kind kind, std::int64_t token) {
  json::object b = patch_body(kind, token);
  if (kind == Kind::kLead) {
    b["visitor_name"] = identity_of(kind, token);
    b["visitor_email"] = "lead-" + std::to_string(token) + "@durability.test";
    b["pipeline_stage"] = "qualified";
  } else {
    b["first_name"] = "Dur";
    b["email"] = identity_of(kind, token);
    b["phone"] = "+1 555 " + std::to_string(token);
  }
  return b;
}

// The identity of a listed item (see Record::token).
std::string identity_of_item(Kind kind, const json::object& item) {
  const json::value& v = item.at(kind == Kind::kLead ? "visitor_name" : "email");
  return v.is_string() ? std::string(v.get_string()) : std::string();
}

// The token that one patch field of a stored record carries; nullopt when it is not v<N>/N.
std::optional<std::int64_t> token_in(const json::value& v) {
  if (v.is_number()) return static_cast<std::int64_t>(v.to_number<double>());
  std::string s;
  if (v.is_string()) {
    s = std::string(v.get_string());
  } else if (v.is_array() && v.get_array().size() == 1 && v.get_array()[0].is_string()) {
    s = std::string(v.get_array()[0].get_string());
  } else {
    return std::nullopt;
  }
  if (s.size() < 2 || s[0] != 'v') return std::nullopt;
  return std::strtoll(s.c_str() + 1, nullptr, 10);
}

// PRAGMA integrity_check of a database file; "ok" when it is sound.
std::string integrity_check(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    std::string why = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return "cannot open " + file.string() + ": " + why;
  }
  std::string result;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) != SQLITE_OK) {
    result = std::string("cannot run integrity_check: ") + sqlite3_errmsg(db);
  } else {
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!result.empty()) result += '\n';
      result += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    if (rc != SQLITE_DONE) result += std::string("\nstep failed: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

// SELECT count(*) of a table of a database file; -1 when it cannot be read.
long long count_rows(const std::filesystem::path& file, const std::string& table) {
  sqlite3* db = nullptr;
  long long n = -1;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    std::string sql = "SELECT count(*) FROM " + table;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      n = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return n;
}

// Copies the killed server's database file and write-ahead log (not the shared-memory index,
// which SQLite rebuilds) and checks the copy, so the restarted server still does the recovery.
std::filesystem::path copy_database(const std::filesystem::path& db_file,
                                    const std::filesystem::path& into) {
  namespace fs = std::filesystem;
  fs::create_directories(into);
  fs::path copy = into / db_file.filename();
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(copy.string() + suffix);
  for (const char* suffix : {"", "-wal"}) {
    fs::path from = db_file.string() + suffix;
    if (fs::exists(from)) fs::copy_file(from, copy.string() + suffix);
  }
  return copy;
}

// The fields of `item` that differ from the record's create body with the PATCH fields of
// `token` laid over it (numbers compare by value, 5 and 5.0 alike).
std::vector<std::string> mismatches(const Record& rec, const json::object& item,
                                    std::int64_t token) {
  json::object expected = rec.body;
  for (const auto& [name, value] : patch_body(rec.kind, token)) expected[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : expected) {
    const json::value* got = item.if_contains(name);
    bool same = got != nullptr && (value.is_number() && got->is_number()
                                       ? value.to_number<double>() == got->to_number<double>()
                                       : value == *got);
    if (!same) {
      out.push_back("field " + std::string(name) + " is " +
                    (got ? json::serialize(*got) : std::string("absent")) + ", expected " +
                    json::serialize(value));
    }
  }
  return out;
}

int rounds_from_env() {
  const char* v = std::getenv("ROUNDS");
  if (v == nullptr || *v == '\0') return 3;
  int n = std::atoi(v);
  return n > 0 ? n : 3;
}

std::uint64_t seed_from_env() {
  const char* v = std::getenv("SEED");
  if (v != nullptr && *v != '\0') return std::strtoull(v, nullptr, 10);
  return std::random_device{}();
}

// PostgreSQL's own check of every B-tree index against its table (amcheck, shipped with the
// server): "ok" when each index holds exactly the table's rows.
std::string postgres_integrity_check(const std::string& db_url) {
  if (!exec_sql(db_url, "CREATE EXTENSION IF NOT EXISTS amcheck")) {
    return "cannot create the amcheck extension";
  }
  const std::string checked =
      postgres_scalar(db_url,
                      "SELECT count(bt_index_check(c.oid, true)) FROM pg_index i "
                      "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam "
                      "WHERE a.amname = 'btree' AND c.relnamespace = 'public'::regnamespace");
  return checked.starts_with("error: ") ? checked : "ok";
}

// The kill/restart rounds run on each backend: "sqlite" reads the file the SIGKILL left, and
// "postgres" asks the server, which the SIGKILL of leadline does not touch.
class CrashDurabilityTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>();
    db_file_ = dir_->path() / "leadline.db";
    db_url_ = GetParam() == Backend::kPostgres ? fresh_postgres_database()
                                               : "sqlite:" + db_file_.string();
    json::value ws =
        run_cli_json({"workspaces", "create", "--name", "Durability", "--db", db_url_});
    std::string workspace = str(as_obj(ws).at("id"));
    json::value key = run_cli_json({"keys", "create", "--workspace", workspace, "--name", "dur",
                                    "--scopes", "read,write", "--db", db_url_});
    key_ = str(as_obj(key).at("key"));
    slots_.resize(kThreads);
    // Answers wait up to 20 ms, so that deliveries are in flight when the server is killed.
    receiver_ = std::make_unique<WebhookReceiver>(2);
    receiver_->set_random_delay(20ms);
  }

  Headers auth() const { return {{"Authorization", "Bearer " + key_}}; }

  // One worker: creates and PATCHes its own records until a request fails (the server died).
  void work(int slot, std::uint64_t seed, unsigned short port, const std::atomic<bool>& killed) {
    std::mt19937_64 rng(seed);
    HttpClient client("127.0.0.1", port);
    client.timeout = 10s;
    std::vector<Record>& mine = slots_[static_cast<std::size_t>(slot)];
    while (!killed.load()) {
      std::vector<std::size_t> patchable;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        if (took_effect(mine[i].created)) patchable.push_back(i);
      }
      bool create = patchable.empty() || rng() % 100 < 45;
      std::int64_t token = next_token_.fetch_add(1);
      if (create) {
        Record r;
        r.kind = rng() % 2 == 0 ? Kind::kLead : Kind::kContact;
        r.token = token;
        r.body = create_body(r.kind, token);
        mine.push_back(r);
        Record& rec = mine.back();
        std::string target = std::string(kBase) + "/" + resource_of(rec.kind);
        HttpResponse res;
        try {
          res = client.request("POST", target, json::serialize(rec.body), auth());
        } catch (const std::exception&) {
          return;  // in flight when the server died: outcome unknown
        }
        if (res.status != 201 || !res.json) {
          fail("POST " + target + " answered\n" + res.describe());
          return;
        }
        rec.created = Outcome::kAcked;
        rec.id = str(res.data().at("id"));
        check_fields(rec, as_obj(res.data()), token, "the create response");
      } else {
        Record& rec = mine[patchable[rng() % patchable.size()]];
        rec.patches.push_back({token, Outcome::kUnknown});
        std::string target =
            std::string(kBase) + "/" + resource_of(rec.kind) + "?id=" + url_encode(rec.id);
        HttpResponse res;
        try {
          res =
              client.request("PATCH", target, json::serialize(patch_body(rec.kind, token)), auth());
        } catch (const std::exception&) {
          return;
        }
        if (res.status != 200 || !res.json) {
          fail("PATCH " + target + " answered\n" + res.describe());
          return;
        }
        rec.patches.back().outcome = Outcome::kAcked;
        check_fields(rec, as_obj(res.data()), token, "the PATCH response");
      }
    }
  }

  // Fails unless `item` holds the record's create fields with its PATCH fields from `token`.
  void check_fields(const Record& rec, const json::object& item, std::int64_t token,
                    const std::string& where) {
    for (const std::string& m : mismatches(rec, item, token)) {
      fail(where + " of " + identity_of(rec.kind, rec.token) + ": " + m +
           "\nrecord: " + json::serialize(item));
    }
  }

  void fail(const std::string& what) {
    std::lock_guard lock(failures_mu_);
    failures_.push_back(what);
  }

  // Every item of a list ("leads", "events", ...), following next_cursor.
  json::array list_all(HttpClient& client, const std::string& collection) {
    json::array all;
    std::string cursor;
    for (int page = 0; page < 100'000; ++page) {
      std::string target = std::string(kBase) + "/" + collection + "?limit=100" +
                           (cursor.empty() ? "" : "&cursor=" + url_encode(cursor));
      HttpResponse res = client.request("GET", target, std::nullopt, auth());
      if (res.status != 200 || !res.json) {
        ADD_FAILURE() << "GET " << target << "\n" << res.describe();
        return all;
      }
      for (const auto& item : res.data().as_array()) all.push_back(item);
      const json::object& pagination = res.object().at("pagination").as_object();
      if (!pagination.at("has_more").as_bool()) return all;
      cursor = str(pagination.at("next_cursor"));
    }
    ADD_FAILURE() << "paging " << collection << " did not end";
    return all;
  }
  json::array list_all(HttpClient& client, Kind kind) {
    return list_all(client, std::string(resource_of(kind)));
  }

  // Checks the restarted server's view against every request made so far, and against the
  // row counts SQLite itself recovered from the killed server's files; resolves the writes that
  // were in flight at the kill.
  void verify(ServerProcess& server, int round, const std::map<Kind, long long>& rows) {
    SCOPED_TRACE("after round " + std::to_string(round));
    HttpClient client(server.host(), server.port());
    std::map<std::string, Record*> sent;  // identity -> record
    for (auto& slot : slots_) {
      for (auto& rec : slot) sent[identity_of(rec.kind, rec.token)] = &rec;
    }
    for (Kind kind : {Kind::kLead, Kind::kContact}) {
      std::set<std::string> seen;
      json::array listed = list_all(client, kind);
      EXPECT_EQ(static_cast<long long>(listed.size()), rows.at(kind))
          << resource_of(kind) << ": the restarted server lists another number of records than "
          << "the database file as the SIGKILL left it holds";
      for (const json::value& v : listed) {
        const json::object& item = v.as_object();
        std::string identity = identity_of_item(kind, item);
        auto it = sent.find(identity);
        if (it == sent.end() || it->second->kind != kind) {
          ADD_FAILURE() << "a " << resource_of(kind)
                        << " record nobody created exists: " << json::serialize(item);
          continue;
        }
        if (!seen.insert(identity).second) {
          ADD_FAILURE() << identity << " exists twice: " << json::serialize(item);
          continue;
        }
        Record& rec = *it->second;
        std::string id = str(item.at("id"));
        if (rec.created == Outcome::kNotApplied) {
          ADD_FAILURE() << identity << " was absent after an earlier restart and is back: "
                        << json::serialize(item);
        } else if (rec.created == Outcome::kUnknown) {
          rec.created = Outcome::kApplied;
          rec.id = id;
        } else if (id != rec.id) {
          ADD_FAILURE() << identity << " has id " << id << ", expected " << rec.id;
        }
        check_stored(rec, item);
      }
      for (auto& [identity, rec] : sent) {
        if (rec->kind != kind || seen.count(identity) != 0) continue;
        if (took_effect(rec->created)) {
          ADD_FAILURE() << "the " << (rec->created == Outcome::kAcked ? "acknowledged" : "seen")
                        << " create of " << identity << " (id " << rec->id << ") was lost";
        } else {
          rec->created = Outcome::kNotApplied;
        }
      }
    }
    std::map<Outcome, std::size_t> creates;
    std::map<Outcome, std::size_t> patches;
    for (const auto& [identity, rec] : sent) {
      ++creates[rec->created];
      for (const auto& p : rec->patches) ++patches[p.outcome];
    }
    std::cout << "[durability] after round " << round << ": verified " << creates[Outcome::kAcked]
              << " acknowledged creates and " << patches[Outcome::kAcked]
              << " acknowledged PATCHes; of the writes in flight at a "
              << "kill, " << creates[Outcome::kApplied] + patches[Outcome::kApplied]
              << " took effect and "
              << creates[Outcome::kNotApplied] + patches[Outcome::kNotApplied] << " did not\n";
  }

  // The stored record: create fields intact, and its PATCH fields all from one write that is
  // the last one that took effect or a later one still unresolved, which this resolves.
  void check_stored(Record& rec, const json::object& item) {
    std::string identity = identity_of(rec.kind, rec.token);
    std::set<std::int64_t> allowed = {rec.token};
    for (const auto& p : rec.patches) {
      if (took_effect(p.outcome)) allowed.clear();
      if (p.outcome != Outcome::kNotApplied) allowed.insert(p.token);
    }
    std::set<std::int64_t> found;
    for (const auto& [name, value] : patch_body(rec.kind, 0)) {
      (void)value;
      const json::value* got = item.if_contains(name);
      std::optional<std::int64_t> t = got ? token_in(*got) : std::nullopt;
      if (!t) {
        ADD_FAILURE() << identity << ": field " << name
                      << " holds no write of this test: " << json::serialize(item);
        return;
      }
      found.insert(*t);
    }
    if (found.size() != 1) {
      ADD_FAILURE() << identity << ": a PATCH was half-applied (fields from writes "
                    << testing::PrintToString(found) << "): " << json::serialize(item);
      return;
    }
    std::int64_t token = *found.begin();
    if (allowed.count(token) == 0) {
      ADD_FAILURE() << identity << " holds write " << token << ", but only "
                    << testing::PrintToString(allowed)
                    << " may be there: " << json::serialize(item);
      return;
    }
    for (auto& p : rec.patches) {
      if (p.outcome == Outcome::kUnknown) {
        p.outcome = p.token == token ? Outcome::kApplied : Outcome::kNotApplied;
      }
    }
    for (const std::string& m : mismatches(rec, item, token)) {
      ADD_FAILURE() << identity << ": " << m << ": " << json::serialize(item);
    }
  }

  bool on_postgres() const { return GetParam() == Backend::kPostgres; }

  // A PostgreSQL backend serving the killed server carries on until it next talks to its
  // client: a COMMIT already sent can land after the kill. The database "as the SIGKILL left
  // it" is the one once those backends are gone, so they are ended and waited for.
  void end_backends_of_the_killed_server() {
    const std::string others =
        "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()";
    postgres_scalar(db_url_, "SELECT count(pg_terminate_backend(pid)) " + others);
    for (int i = 0; i < 200 && postgres_scalar(db_url_, "SELECT count(*) " + others) != "0"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }

  // integrity check and row counts of the database as the SIGKILL left it.
  std::pair<std::string, std::map<Kind, long long>> inspect_after_kill() {
    if (on_postgres()) {
      end_backends_of_the_killed_server();
      std::map<Kind, long long> rows;
      for (auto [kind, table] : {std::pair{Kind::kLead, "leads"}, {Kind::kContact, "contacts"}}) {
        rows[kind] =
            std::stoll(postgres_scalar(db_url_, std::string("SELECT count(*) FROM ") + table));
      }
      return {postgres_integrity_check(db_url_), rows};
    }
    std::filesystem::path copy = copy_database(db_file_, dir_->path() / "after-kill");
    return {
        integrity_check(copy),
        {{Kind::kLead, count_rows(copy, "leads")}, {Kind::kContact, count_rows(copy, "contacts")}}};
  }

  std::string final_integrity_check() {
    return on_postgres() ? postgres_integrity_check(db_url_) : integrity_check(db_file_);
  }

  // Every event of the feed, oldest first, read as a follower does: `after` the last id seen.
  std::vector<json::object> follow_feed(HttpClient& client) {
    std::vector<json::object> all;
    std::string after;
    for (int page = 0; page < 100'000; ++page) {
      std::string target = std::string(kBase) + "/events?limit=100" +
                           (after.empty() ? "" : "&after=" + url_encode(after));
      HttpResponse res = client.request("GET", target, std::nullopt, auth());
      if (res.status != 200 || !res.json) {
        ADD_FAILURE() << "GET " << target << "\n" << res.describe();
        return all;
      }
      const json::array& items = res.data().as_array();
      if (items.empty()) return all;
      for (const auto& item : items) {
        all.push_back(item.as_object());
        after = str(item.at("id"));
      }
    }
    ADD_FAILURE() << "following the events feed did not end";
    return all;
  }

  // pagination.total_count of GET /webhook-deliveries?status=<status>.
  std::int64_t deliveries_with_status(HttpClient& client, const std::string& status) {
    std::string target = std::string(kBase) + "/webhook-deliveries?limit=1&status=" + status;
    HttpResponse res = client.request("GET", target, std::nullopt, auth());
    if (res.status != 200 || !res.json) {
      ADD_FAILURE() << "GET " << target << "\n" << res.describe();
      return -1;
    }
    return total_count(res);
  }

  // Waits (at most `limit`) until no delivery is pending and the receiver got every event of
  // the feed; then checks the feed against the writes and the receiver against the feed.
  void verify_events_and_deliveries(ServerProcess& server, std::chrono::seconds limit) {
    SCOPED_TRACE("events and webhook deliveries after the last restart");
    HttpClient client(server.host(), server.port());
    std::vector<json::object> feed;
    std::int64_t pending = -1;
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + limit;
    for (;;) {
      pending = deliveries_with_status(client, "pending");
      feed = follow_feed(client);
      const std::map<std::string, int> got = receiver_->counts_by_webhook_id();
      std::size_t missing = 0;
      for (const auto& e : feed) missing += got.count(str(e.at("id"))) == 0 ? 1 : 0;
      if ((pending == 0 && missing == 0) || std::chrono::steady_clock::now() >= deadline ||
          HasFailure()) {
        break;
      }
      std::this_thread::sleep_for(200ms);
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    EXPECT_EQ(pending, 0) << "deliveries still pending " << limit.count()
                          << " s after the last restart";
    EXPECT_EQ(deliveries_with_status(client, "failed"), 0)
        << "deliveries failed, though the receiver answers every attempt with 200";

    // The feed: each event once, in the same order when paged by cursor.
    std::set<std::string> feed_ids;
    std::vector<std::string> feed_order;
    std::map<std::string, const json::object*> event_by_id;
    for (const auto& e : feed) {
      std::string id = str(e.at("id"));
      if (!feed_ids.insert(id).second) ADD_FAILURE() << "event " << id << " is twice in the feed";
      feed_order.push_back(id);
      event_by_id[id] = &e;
    }
    {
      std::vector<std::string> by_cursor;
      for (const json::value& v : list_events_by_cursor(client))
        by_cursor.push_back(str(v.at("id")));
      EXPECT_EQ(by_cursor, feed_order)
          << "paging the feed by cursor gives another order than following it with `after`";
    }

    // The feed against the writes: one event per write that took effect, none for the others.
    std::map<std::string, Record*> by_identity;
    std::map<std::int64_t, std::pair<Record*, const PatchAttempt*>> by_patch_token;
    for (auto& slot : slots_) {
      for (auto& rec : slot) {
        by_identity[identity_of(rec.kind, rec.token)] = &rec;
        for (const auto& p : rec.patches) by_patch_token[p.token] = {&rec, &p};
      }
    }
    std::map<std::string, int> create_events;  // identity -> events
    std::map<std::int64_t, int> patch_events;  // PATCH token -> events
    for (const auto& e : feed) {
      const std::string type = str(e.at("type"));
      const json::object& data = as_obj(e.at("data"));
      const bool lead = type.starts_with("lead.");
      const Kind kind = lead ? Kind::kLead : Kind::kContact;
      if (type == "lead.created" || type == "contact.created") {
        const std::string identity = identity_of_item(kind, data);
        auto it = by_identity.find(identity);
        if (it == by_identity.end() || it->second->kind != kind) {
          ADD_FAILURE() << "an event for a record nobody created: " << json::serialize(e);
          continue;
        }
        Record& rec = *it->second;
        ++create_events[identity];
        if (!took_effect(rec.created)) {
          ADD_FAILURE() << "an event for the create of " << identity
                        << ", which was not applied: " << json::serialize(e);
          continue;
        }
        if (str(data.at("id")) != rec.id) {
          ADD_FAILURE() << "the created event of " << identity << " names id " << str(data.at("id"))
                        << ", the record is " << rec.id;
        }
        for (const std::string& m : mismatches(rec, data, rec.token)) {
          ADD_FAILURE() << "the created event of " << identity << ": " << m;
        }
      } else if (type == "lead.updated" || type == "contact.updated") {
        const json::value* field = data.if_contains(lead ? "need_summary" : "last_name");
        std::optional<std::int64_t> token = field ? token_in(*field) : std::nullopt;
        auto it = token ? by_patch_token.find(*token) : by_patch_token.end();
        if (it == by_patch_token.end() || it->second.first->kind != kind) {
          ADD_FAILURE() << "an updated event for no PATCH of this test: " << json::serialize(e);
          continue;
        }
        const auto& [rec, patch] = it->second;
        ++patch_events[patch->token];
        if (!took_effect(patch->outcome)) {
          ADD_FAILURE() << "an event for PATCH " << patch->token << " of "
                        << identity_of(rec->kind, rec->token)
                        << ", which was not applied: " << json::serialize(e);
          continue;
        }
        if (str(data.at("id")) != rec->id) {
          ADD_FAILURE() << "the updated event of PATCH " << patch->token << " names id "
                        << str(data.at("id")) << ", the record is " << rec->id;
        }
        for (const std::string& m : mismatches(*rec, data, patch->token)) {
          ADD_FAILURE() << "the updated event of PATCH " << patch->token << ": " << m;
        }
      } else {
        ADD_FAILURE() << "an event of a type this test causes no write of: " << json::serialize(e);
      }
    }
    std::size_t writes = 0;
    for (const auto& [identity, rec] : by_identity) {
      const int n = create_events[identity];
      if (took_effect(rec->created)) {
        ++writes;
        EXPECT_EQ(n, 1) << "events in the feed for the "
                        << (rec->created == Outcome::kAcked ? "acknowledged" : "applied")
                        << " create of " << identity << " (id " << rec->id << ")";
      }
      for (const auto& p : rec->patches) {
        if (!took_effect(p.outcome)) continue;
        ++writes;
        EXPECT_EQ(patch_events[p.token], 1)
            << "events in the feed for the "
            << (p.outcome == Outcome::kAcked ? "acknowledged" : "applied") << " PATCH " << p.token
            << " of " << identity;
      }
    }
    EXPECT_EQ(feed.size(), writes) << "the feed holds another number of events than writes took "
                                   << "effect";

    // The receiver against the feed: every event at least once, the body the feed's event.
    const std::vector<ReceivedRequest> received = receiver_->requests();
    std::map<std::string, int> deliveries;
    for (const auto& r : received) {
      const std::string id = r.webhook_id();
      ++deliveries[id];
      auto it = event_by_id.find(id);
      if (it == event_by_id.end()) {
        ADD_FAILURE() << "the receiver got webhook-id " << id
                      << ", which is no event of the feed; body: " << r.body;
        continue;
      }
      boost::system::error_code ec;
      json::value body = json::parse(r.body, ec);
      if (ec || !body.is_object() || body.as_object() != *it->second) {
        ADD_FAILURE() << "the delivery of " << id << " carries another body than the feed's "
                      << "event:\n  delivered: " << r.body
                      << "\n  feed:      " << json::serialize(*it->second);
      }
    }
    for (const auto& id : in_flight_at_kill_) {
      EXPECT_GE(deliveries[id], 2)
          << "event " << id << " was in flight (unanswered) at a kill and was not sent again";
    }
    std::size_t duplicates = 0;
    for (const auto& id : feed_order) {
      auto it = deliveries.find(id);
      if (it == deliveries.end()) {
        ADD_FAILURE() << "event " << id
                      << " never reached the receiver: " << json::serialize(*event_by_id[id]);
      } else if (it->second > 1) {
        duplicates += static_cast<std::size_t>(it->second - 1);
      }
    }
    std::cout << "[durability] events: " << feed.size() << " in the feed for " << writes
              << " writes that took effect; the receiver got " << received.size() << " requests on "
              << receiver_->connections() << " connections (" << duplicates << " repeats; "
              << in_flight_at_kill_.size() << " events were in flight at a kill) within "
              << waited.count() << " ms after the last restart\n";
  }

  // Every event of the feed, paged by next_cursor.
  json::array list_events_by_cursor(HttpClient& client) { return list_all(client, "events"); }

  std::unique_ptr<WebhookReceiver> receiver_;
  std::set<std::string> in_flight_at_kill_;  // webhook-ids unanswered when the server died
  std::unique_ptr<TempDir> dir_;
  std::filesystem::path db_file_;
  std::string db_url_;
  std::string key_;
  std::vector<std::vector<Record>> slots_;
  std::atomic<std::int64_t> next_token_{1};
  std::mutex failures_mu_;
  std::vector<std::string> failures_;
};

TEST_P(CrashDurabilityTest, AcknowledgedWritesSurviveSigkillAndNothingElseAppears) {
  const int rounds = rounds_from_env();
  const std::uint64_t seed = seed_from_env();
  std::cout << "[durability] " << rounds << " rounds, SEED=" << seed << '\n';
  std::mt19937_64 rng(seed);

  ServerOptions options;
  options.db_url = db_url_;
  // Loopback over http for the receiver; a 1 s attempt timeout keeps the lease a killed
  // server leaves on its attempts short (timeout + 5 s).
  options.extra_args = {"--rate-limit",
                        "1000000/60s",
                        "--webhook-allow-private",
                        "127.0.0.0/8",
                        "--webhook-allow-http",
                        "--webhook-timeout",
                        "1s",
                        "--webhook-retry-schedule",
                        "200ms,400ms,800ms"};
  options.start_timeout = 30s;
  ServerProcess server(options);
  {
    HttpClient client(server.host(), server.port());
    json::object endpoint{{"url", receiver_->url()}};
    HttpResponse res =
        client.request("POST", std::string(kBase) + "/webhooks", json::serialize(endpoint), auth());
    ASSERT_EQ(res.status, 201u) << res.describe();
  }

  for (int round = 1; round <= rounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round) + " of " + std::to_string(rounds) +
                 ", SEED=" + std::to_string(seed));
    std::atomic<bool> killed{false};
    std::vector<std::thread> workers;
    for (int slot = 0; slot < kThreads; ++slot) {
      workers.emplace_back(
          [this, slot, s = rng(), port = server.port(), &killed] { work(slot, s, port, killed); });
    }
    auto delay = std::chrono::milliseconds(50 + static_cast<int>(rng() % 351));
    std::this_thread::sleep_for(delay);
    // The receiver stops answering, and the kill waits (briefly) for a delivery to arrive: the
    // deliveries held are known to be in flight, unanswered, when the server dies.
    receiver_->hold_answers();
    for (int i = 0; i < 100 && receiver_->held_webhook_ids().empty(); ++i) {
      std::this_thread::sleep_for(10ms);
    }
    killed.store(true);
    server.kill();
    const std::vector<std::string> held = receiver_->held_webhook_ids();
    in_flight_at_kill_.insert(held.begin(), held.end());
    receiver_->release_answers();
    std::cout << "[durability] round " << round << ": killed with " << held.size()
              << " deliveries in flight\n";
    for (auto& w : workers) w.join();
    {
      std::lock_guard lock(failures_mu_);
      for (const auto& f : failures_) ADD_FAILURE() << f;
      failures_.clear();
    }

    auto [integrity, rows] = inspect_after_kill();
    EXPECT_EQ(integrity, "ok") << "integrity check of the database as the SIGKILL left it";

    server.restart();
    verify(server, round, rows);
    if (HasFailure()) break;
  }
  if (!HasFailure()) verify_events_and_deliveries(server, 30s);

  server.stop();
  EXPECT_EQ(final_integrity_check(), "ok") << "integrity check after the last clean shutdown";
}

INSTANTIATE_TEST_SUITE_P(Backends, CrashDurabilityTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return info.param == Backend::kPostgres ? "postgres" : "sqlite";
                         });

// --- Idempotency-Key across a crash ---------------------------------------------------------
// Each POST /leads carries its own key and names it in visitor_name. The first attempt's
// outcome is kept: the answer (status and body), or none when the server died under it.

struct KeyedCreate {
  std::string key;
  std::string body;
  bool answered = false;
  unsigned status = 0;
  std::string response_body;
  bool replayed = false;  // the first answer already said Idempotent-Replayed
};

// At most this many lines per kind of failure are printed; the rest are counted.
constexpr std::size_t kFailureLinesShown = 15;

class IdempotencyCrashTest : public CrashDurabilityTest {
 protected:
  Headers keyed(const std::string& key) const {
    Headers h = auth();
    h.emplace_back("Idempotency-Key", key);
    return h;
  }

  // One worker: new keys, one POST each, until the server dies under a request.
  void send_keyed(const std::string& prefix, int slot, unsigned short port,
                  const std::atomic<bool>& killed, std::atomic<int>& answers) {
    HttpClient client("127.0.0.1", port);
    client.timeout = 10s;
    std::vector<KeyedCreate>& mine = keyed_[static_cast<std::size_t>(slot)];
    while (!killed.load()) {
      KeyedCreate c;
      c.key = "idem-" + prefix + "-" + std::to_string(slot) + "-" + std::to_string(mine.size());
      c.body = json::serialize(json::object{{"visitor_name", c.key},
                                            {"visitor_email", c.key + "@durability.test"},
                                            {"pipeline_stage", "new"}});
      mine.push_back(c);
      KeyedCreate& rec = mine.back();
      HttpResponse res;
      try {
        res = client.request("POST", std::string(kBase) + "/leads", rec.body, keyed(rec.key));
      } catch (const std::exception&) {
        return;  // no answer: the server died with this request in flight (or before it)
      }
      rec.answered = true;
      rec.status = res.status;
      rec.response_body = res.body;
      rec.replayed = res.header("Idempotent-Replayed") == "true";
      ++answers;
    }
  }

  // visitor_name -> number of leads listed with it.
  std::map<std::string, int> leads_by_name(HttpClient& client) {
    std::map<std::string, int> n;
    for (const json::value& v : list_all(client, Kind::kLead)) {
      ++n[identity_of_item(Kind::kLead, v.as_object())];
    }
    return n;
  }

  // Sends the key's request again; a 409 (the killed server's attempt still seen as running)
  // is retried as Retry-After asks, for at most `patience`. Counts those 409s in `waits`.
  HttpResponse retry(HttpClient& client, const KeyedCreate& c, std::chrono::seconds patience,
                     std::atomic<int>& waits) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    for (;;) {
      HttpResponse res =
          client.request("POST", std::string(kBase) + "/leads", c.body, keyed(c.key));
      if (res.status != 409 || std::chrono::steady_clock::now() >= deadline) return res;
      ++waits;
      std::this_thread::sleep_for(1s);
    }
  }

  void note(const std::string& kind, const std::string& what) {
    std::lock_guard lock(failures_mu_);
    idem_failures_[kind].push_back(what);
  }

  void report_failures() {
    for (const auto& [kind, lines] : idem_failures_) {
      std::string shown;
      for (std::size_t i = 0; i < lines.size() && i < kFailureLinesShown; ++i) {
        shown += "\n  " + lines[i];
      }
      ADD_FAILURE() << kind << ": " << lines.size() << " key(s)" << shown
                    << (lines.size() > kFailureLinesShown ? "\n  ..." : "");
    }
    idem_failures_.clear();
  }

  std::vector<std::vector<KeyedCreate>> keyed_{kThreads};
  std::map<std::string, std::vector<std::string>> idem_failures_;  // kind -> lines
};

TEST_P(IdempotencyCrashTest, EachKeyCreatesOneLeadAndReplaysItsFirstAnswerAfterSigkill) {
  const int rounds = rounds_from_env();
  const std::uint64_t seed = seed_from_env();
  std::cout << "[idempotency] " << rounds << " rounds, SEED=" << seed << '\n';
  std::mt19937_64 rng(seed);
  const std::string run = std::to_string(rng() % 1'000'000'000);
  const auto started = std::chrono::steady_clock::now();

  ServerOptions options;
  options.db_url = db_url_;
  options.extra_args = {"--rate-limit", "1000000/60s"};
  options.start_timeout = 30s;
  ServerProcess server(options);

  std::vector<KeyedCreate> sent;  // every key of every round, in the order of the rounds
  std::size_t replayed_unanswered = 0;
  std::size_t ran_unanswered = 0;
  std::atomic<int> waits{0};
  for (int round = 1; round <= rounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round) + " of " + std::to_string(rounds) +
                 ", SEED=" + std::to_string(seed));
    std::atomic<bool> killed{false};
    std::atomic<int> answers{0};
    std::vector<std::thread> workers;
    const std::string prefix = run + "-" + std::to_string(round);
    for (int slot = 0; slot < kThreads; ++slot) {
      workers.emplace_back([this, &prefix, slot, port = server.port(), &killed, &answers] {
        send_keyed(prefix, slot, port, killed, answers);
      });
    }
    // The random delay counts from the first answer, not from the start: a server's first
    // writes can take longer than the whole delay (a sanitizer build on a loaded machine, a
    // PostgreSQL pool still connecting), and a round killed before any answer checks nothing.
    const auto round_started = std::chrono::steady_clock::now();
    while (answers.load() == 0 && std::chrono::steady_clock::now() < round_started + 30s) {
      std::this_thread::sleep_for(5ms);
    }
    const auto first_answer_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - round_started);
    std::this_thread::sleep_for(std::chrono::milliseconds(150 + static_cast<int>(rng() % 351)));
    killed.store(true);
    server.kill();
    for (auto& w : workers) w.join();
    if (on_postgres()) end_backends_of_the_killed_server();  // the database as the kill left it

    const std::size_t first_of_round = sent.size();
    std::size_t answered = 0;
    for (auto& slot : keyed_) {
      for (auto& c : slot) {
        if (c.answered) {
          ++answered;
          // A first use of a key runs: 201, not a replay.
          if (c.status != 201 || c.replayed) {
            note("first attempts answered other than a fresh 201",
                 c.key + ": " + std::to_string(c.status) + (c.replayed ? " (replayed) " : " ") +
                     c.response_body);
          }
        }
        sent.push_back(std::move(c));
      }
      slot.clear();
    }
    ASSERT_GT(answered, 0u) << "no request was answered before the kill";

    server.restart();
    HttpClient client(server.host(), server.port());

    // Before any retry: no key has two leads; each key answered 201 has its lead.
    const std::map<std::string, int> before = leads_by_name(client);
    std::set<std::string> keys;
    for (const KeyedCreate& c : sent) keys.insert(c.key);
    for (const auto& [name, n] : before) {
      if (keys.count(name) == 0) note("leads of no key of this test", name);
      if (n > 1) note("keys with more than one lead before the retries", name);
    }
    for (const KeyedCreate& c : sent) {
      if (c.answered && c.status == 201 && before.count(c.key) == 0) {
        note("acknowledged creates lost in the crash", c.key);
      }
    }

    // Every key's request again, this round's and the earlier rounds', over a few clients.
    std::vector<HttpResponse> again(sent.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> retriers;
    for (int t = 0; t < kThreads; ++t) {
      retriers.emplace_back([&] {
        HttpClient c(server.host(), server.port());
        for (std::size_t i = next++; i < sent.size(); i = next++) {
          try {
            again[i] = retry(c, sent[i], 5s, waits);
          } catch (const std::exception& e) {
            note("retries without an answer", sent[i].key + ": " + e.what());
          }
        }
      });
    }
    for (auto& t : retriers) t.join();

    for (std::size_t i = 0; i < sent.size(); ++i) {
      KeyedCreate& c = sent[i];
      const HttpResponse& r = again[i];
      const bool replayed = r.header("Idempotent-Replayed") == "true";
      if (c.answered) {
        if (r.status != c.status || r.body != c.response_body || !replayed) {
          note(i < first_of_round ? "keys of an earlier round whose retry is not the stored answer"
                                  : "answered keys whose retry is not the stored answer",
               c.key + ": first " + std::to_string(c.status) + " " + c.response_body +
                   "\n    retry " + std::to_string(r.status) +
                   (replayed ? " (Idempotent-Replayed: true) " : " (not marked replayed) ") +
                   r.body);
        }
        continue;
      }
      if (r.status != 201) {
        note("unanswered keys whose retry is not a 201",
             c.key + ": " + std::to_string(r.status) + " " + r.body);
        continue;
      }
      // A replay says the killed server had committed it: its lead was there before the retry.
      (replayed ? replayed_unanswered : ran_unanswered) += 1;
      if (replayed != (before.count(c.key) != 0)) {
        note("unanswered keys whose retry disagrees with the database",
             c.key + (replayed ? ": replayed, but no lead had been listed"
                               : ": ran again, though its lead was listed already"));
      }
      // From now on this answer is the key's: later rounds must replay it.
      c.answered = true;
      c.status = r.status;
      c.response_body = r.body;
    }

    // After the retries: exactly one lead per key, nothing else.
    const std::map<std::string, int> after = leads_by_name(client);
    for (const KeyedCreate& c : sent) {
      auto it = after.find(c.key);
      const int n = it == after.end() ? 0 : it->second;
      if (n != 1) {
        note("keys without exactly one lead after the retries",
             c.key + ": " + std::to_string(n) + " leads");
      }
    }
    if (after.size() != keys.size()) {
      note("leads of no key of this test after the retries",
           std::to_string(after.size()) + " names listed for " + std::to_string(keys.size()) +
               " keys");
    }
    std::cout << "[idempotency] round " << round << ": " << sent.size() - first_of_round
              << " new keys (the first answered after " << first_answer_ms.count() << " ms), "
              << answered << " answered before the kill; " << sent.size() << " keys retried\n";
    report_failures();
    if (HasFailure()) break;
  }

  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  std::cout << "[idempotency] " << sent.size() << " keys; of those unanswered at a kill, "
            << replayed_unanswered << " had committed (replayed on the retry) and "
            << ran_unanswered << " had not (ran on the retry); " << waits.load()
            << " retries waited on a 409; " << took.count() << " ms\n";
  server.stop();
  EXPECT_EQ(final_integrity_check(), "ok") << "integrity check after the clean shutdown";
}

INSTANTIATE_TEST_SUITE_P(Backends, IdempotencyCrashTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return info.param == Backend::kPostgres ? "postgres" : "sqlite";
                         });

}  // namespace
}  // namespace leadline_test
