// Concurrency: simultaneous PATCHes of one record never lose a field and always answer a
// consistent full record; simultaneous e-mail changes to one address leave exactly one winner;
// and a key revoked while it is under load is refused for every request that starts after the
// revocation returned. (Simultaneous contact creates and the exact rate limit under concurrency
// are covered by records_test and rate_limit_test.)

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/fixture.hpp"
#include "support/simultaneous.hpp"

namespace leadline_test {
namespace {

using Clock = std::chrono::steady_clock;

// The value a writer thread puts into its field on its n-th PATCH.
using ValueOf = std::function<json::value(int n)>;

struct Writer {
  std::string field;
  ValueOf value;
};

class ConcurrencyTest : public ApiTest {
 protected:
  // Runs one thread per writer, each PATCHing only its own field `rounds` times on a connection
  // of its own, all starting together. Checks every response as it comes and returns them by
  // writer.
  std::vector<std::vector<HttpResponse>> patch_concurrently(const std::string& target,
                                                            const std::vector<Writer>& writers,
                                                            int rounds) {
    const std::size_t n = writers.size();
    std::vector<std::vector<HttpResponse>> responses(n);
    const auto failures = send_simultaneously(
        server().host(), server().port(), n, [&](std::size_t i, HttpClient& client) {
          for (int r = 0; r < rounds; ++r) {
            json::object body{{writers[i].field, writers[i].value(r)}};
            responses[i].push_back(client.request("PATCH", std::string(kBase) + target,
                                                  json::serialize(body),
                                                  {{"Authorization", "Bearer " + ws_.rw.key}}));
          }
        });
    for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(failures[i].empty()) << failures[i];
    return responses;
  }

  // Every PATCH answered 200 with the full record; the writer's own field holds what it just
  // wrote; every other writer's field holds that writer's initial value or one it wrote, and
  // from one response to the next of the same writer never goes back to an older one.
  void check_responses(const std::vector<std::vector<HttpResponse>>& responses,
                       const std::vector<Writer>& writers, const json::object& initial,
                       const KeySet& shape, int rounds, const std::string& data_path = "") {
    for (std::size_t i = 0; i < writers.size(); ++i) {
      ASSERT_EQ(responses[i].size(), static_cast<std::size_t>(rounds));
      std::vector<int> last_seen(writers.size(), -1);
      for (int r = 0; r < rounds; ++r) {
        const HttpResponse& res = responses[i][static_cast<std::size_t>(r)];
        ASSERT_STATUS(res, 200u);
        const json::object& record =
            data_path.empty() ? res.data().as_object() : res.data().at(data_path).as_object();
        EXPECT_EQ(keys_of(record), shape) << res.describe();
        EXPECT_EQ(record.at(writers[i].field), writers[i].value(r))
            << writers[i].field << " does not hold what its PATCH wrote\n"
            << res.describe();
        for (std::size_t j = 0; j < writers.size(); ++j) {
          if (j == i) continue;
          const json::value& seen = record.at(writers[j].field);
          int version = -2;
          if (seen == initial.at(writers[j].field)) version = -1;
          for (int k = 0; k < rounds && version == -2; ++k) {
            if (seen == writers[j].value(k)) version = k;
          }
          ASSERT_NE(version, -2) << writers[j].field
                                 << " holds a value nobody wrote: " << json::serialize(seen) << "\n"
                                 << res.describe();
          EXPECT_GE(version, last_seen[j]) << writers[j].field << " went back in time";
          last_seen[j] = version;
        }
      }
    }
  }
};

TEST_F(ConcurrencyTest, ConcurrentPatchesOfALeadNeverLoseAField) {
  constexpr int kRounds = 25;
  auto text = [](std::string prefix) {
    return [prefix](int n) { return json::value(prefix + std::to_string(n)); };
  };
  const std::vector<Writer> writers = {
      {"visitor_name", text("name-")},
      {"visitor_company", text("company-")},
      {"visitor_phone", text("+1 555 ")},
      {"need_summary", text("summary-")},
      {"visitor_email", [](int n) { return json::value("v" + std::to_string(n) + "@x.io"); }},
      {"expected_billing_amount", [](int n) { return json::value(100 + n); }},
      {"tags",
       [](int n) {
         return json::value(json::array{"t" + std::to_string(n), "all"});
       }},
  };
  json::object lead = create_lead({{"visitor_name", "Initial"},
                                   {"visitor_company", "Initial Co"},
                                   {"visitor_phone", "0"},
                                   {"need_summary", "initial"},
                                   {"visitor_email", "initial@x.io"},
                                   {"expected_billing_amount", 1},
                                   {"tags", json::array{"initial"}}});
  const std::string id = str(lead.at("id"));
  const json::object initial = get_one("leads", id);
  auto responses = patch_concurrently("/leads?id=" + id, writers, kRounds);
  check_responses(responses, writers, initial, keys_of(initial), kRounds);

  const json::object final_record = get_one("leads", id);
  for (const auto& w : writers) {
    EXPECT_EQ(final_record.at(w.field), w.value(kRounds - 1)) << w.field << " lost its last write";
  }
  EXPECT_EQ(final_record.at("pipeline_stage"), initial.at("pipeline_stage"));
  EXPECT_EQ(final_record.at("created_at"), initial.at("created_at"));
}

TEST_F(ConcurrencyTest, ConcurrentPatchesOfAContactNeverLoseAField) {
  constexpr int kRounds = 25;
  auto text = [](std::string prefix) {
    return [prefix](int n) { return json::value(prefix + std::to_string(n)); };
  };
  const std::vector<Writer> writers = {
      {"first_name", text("first-")},
      {"last_name", text("last-")},
      {"phone", text("+44 ")},
      {"company_name", text("company-")},
      {"profile_notes", text("notes-")},
      {"email", [](int n) { return json::value("c" + std::to_string(n) + "@x.io"); }},
      {"tags", [](int n) { return json::value(json::array{"t" + std::to_string(n)}); }},
  };
  json::object contact = create_contact({{"first_name", "Initial"},
                                         {"last_name", "Initial"},
                                         {"phone", "0"},
                                         {"company_name", "Initial Co"},
                                         {"profile_notes", "initial"},
                                         {"email", "initial@x.io"},
                                         {"tags", json::array{"initial"}}});
  const std::string id = str(contact.at("id"));
  const json::object initial = get_one("contacts", id);
  auto responses = patch_concurrently("/contacts?id=" + id, writers, kRounds);
  check_responses(responses, writers, initial, keys_of(initial), kRounds);

  const json::object final_record = get_one("contacts", id);
  for (const auto& w : writers) {
    EXPECT_EQ(final_record.at(w.field), w.value(kRounds - 1)) << w.field << " lost its last write";
  }
}

TEST_F(ConcurrencyTest, ConcurrentPatchesOfAConversationNeverLoseAField) {
  constexpr int kRounds = 25;
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-5000ms),
                                          "open", json::array{"initial"})});
  const std::string id = conversation_ids().at(0);
  std::vector<std::string> agents;
  std::vector<std::string> departments;
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    agents.push_back(add_agent(ws_.id, "Agent" + n, "A", "agent" + n + "@x.io"));
    departments.push_back(add_department(ws_.id, "Department " + n));
  }
  const char* statuses[] = {"pending", "active", "archived", "open"};
  // Values cycle, so a writer's rounds are told apart by the tags writer only; the check below
  // compares the final state and each response's own field.
  const std::vector<Writer> writers = {
      {"status", [&](int n) { return json::value(statuses[n % 4]); }},
      {"tags", [](int n) { return json::value(json::array{"t" + std::to_string(n)}); }},
      {"agent_id", [&](int n) { return json::value(agents[static_cast<std::size_t>(n % 3)]); }},
      {"department_id",
       [&](int n) { return json::value(departments[static_cast<std::size_t>(n % 3)]); }},
  };
  auto responses = patch_concurrently("/conversations?id=" + id, writers, kRounds);
  for (std::size_t i = 0; i < writers.size(); ++i) {
    ASSERT_EQ(responses[i].size(), static_cast<std::size_t>(kRounds));
    for (int r = 0; r < kRounds; ++r) {
      const HttpResponse& res = responses[i][static_cast<std::size_t>(r)];
      ASSERT_STATUS(res, 200u);
      EXPECT_EQ(keys_of(res.data()), key_set({"id", "status", "tags", "updated_at"}));
      if (writers[i].field == "status" || writers[i].field == "tags") {
        EXPECT_EQ(res.data().at(writers[i].field), writers[i].value(r)) << res.describe();
      }
    }
  }
  const json::object conversation = get_one("conversations", id).at("conversation").as_object();
  EXPECT_EQ(conversation.at("status"), writers[0].value(kRounds - 1));
  EXPECT_EQ(conversation.at("tags"), writers[1].value(kRounds - 1));
  const json::object item = as_obj(list_all("conversations").at(0));
  EXPECT_EQ(item.at("agent_id"), writers[2].value(kRounds - 1));
  EXPECT_EQ(item.at("department_id"), writers[3].value(kRounds - 1));
}

TEST_F(ConcurrencyTest, SimultaneousEmailChangesToOneAddressHaveExactlyOneWinner) {
  constexpr int kN = 20;
  std::vector<std::string> ids;
  for (int i = 0; i < kN; ++i) {
    ids.push_back(str(create_contact({{"first_name", "C" + std::to_string(i)},
                                      {"email", "c" + std::to_string(i) + "@x.io"}})
                          .at("id")));
  }
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < kN; ++i) {
    clients.push_back(std::make_unique<HttpClient>(server().host(), server().port()));
    clients.back()->connect();
  }
  std::vector<HttpResponse> results(kN);
  std::vector<std::string> failures(kN);
  std::latch start(kN);
  std::vector<std::thread> threads;
  for (int i = 0; i < kN; ++i) {
    threads.emplace_back([&, i] {
      const std::string body = i % 2 ? R"({"email":"Wanted@X.io"})" : R"({"email":"wanted@x.io"})";
      start.arrive_and_wait();
      try {
        results[i] = clients[i]->request("PATCH", std::string(kBase) + "/contacts?id=" + ids[i],
                                         body, {{"Authorization", "Bearer " + ws_.rw.key}});
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  std::string winner;
  int won = 0;
  for (int i = 0; i < kN; ++i) {
    ASSERT_TRUE(failures[i].empty()) << failures[i];
    if (results[i].status == 200) {
      ++won;
      winner = ids[i];
    }
  }
  ASSERT_EQ(won, 1);
  for (int i = 0; i < kN; ++i) {
    if (ids[i] == winner) continue;
    ASSERT_STATUS(results[i], 409u);
    EXPECT_EQ(str(results[i].object().at("data").at("id")), winner);
    // The losers kept their own address.
    EXPECT_EQ(str(get_one("contacts", ids[i]).at("email")), "c" + std::to_string(i) + "@x.io");
  }
  EXPECT_EQ(total_count(get("/contacts?search=wanted")), 1);
}

TEST_F(ConcurrencyTest, KeyRevokedUnderLoadIsRefusedForEveryRequestStartedAfterTheRevocation) {
  constexpr int kThreads = 6;
  json::object hammered = create_key(ws_.id, "read,write", {}, "hammered");
  const std::string key = str(hammered.at("key"));
  struct Outcome {
    Clock::time_point started;
    Clock::time_point finished;
    unsigned status;
  };
  std::vector<std::vector<Outcome>> outcomes(kThreads);
  std::vector<std::string> failures(kThreads);
  std::atomic<bool> stop{false};
  std::latch ready(kThreads + 1);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      HttpClient c(server().host(), server().port());
      const Headers auth = {{"Authorization", "Bearer " + key}};
      ready.arrive_and_wait();
      try {
        while (!stop.load()) {
          Outcome o;
          o.started = Clock::now();
          const bool write = i == 0;  // one thread writes, the others read
          o.status = write
                         ? c.request("POST", api_path("/leads"),
                                     std::string(R"({"visitor_name":"Load"})"), auth)
                               .status
                         : c.request("GET", api_path("/leads?limit=1"), std::nullopt, auth).status;
          o.finished = Clock::now();
          outcomes[i].push_back(o);
        }
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  ready.arrive_and_wait();
  std::this_thread::sleep_for(300ms);
  const auto revoke_started = Clock::now();
  revoke_key(str(hammered.at("id")));
  const auto revoke_returned = Clock::now();
  std::this_thread::sleep_for(300ms);
  stop = true;
  for (auto& t : threads) t.join();

  int before = 0;
  int after = 0;
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_TRUE(failures[i].empty()) << failures[i];
    for (const auto& o : outcomes[i]) {
      if (o.finished < revoke_started) {
        ++before;
        EXPECT_TRUE(o.status == 200 || o.status == 201) << o.status;
      } else if (o.started > revoke_returned) {
        ++after;
        EXPECT_EQ(o.status, 401u) << "a request started after the revocation was served";
      } else {
        EXPECT_TRUE(o.status == 200 || o.status == 201 || o.status == 401) << o.status;
      }
    }
  }
  EXPECT_GT(before, 0);
  EXPECT_GT(after, kThreads);
  // The workspace's other keys are unaffected.
  EXPECT_STATUS(get("/leads?limit=1"), 200u);
}

}  // namespace
}  // namespace leadline_test
