// Numbers in --json output read as the API writes them: `keys usage` prints an error rate of
// 0.2 as 0.2 and none as 0, not as Boost.JSON's serializer would (2E-1, 0E0).

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "support/cli_fixture.hpp"

namespace leadline_test {
namespace {

using namespace std::chrono_literals;

class JsonNumbersTest : public CliTest {
 protected:
  // The raw --json text of `keys usage` once `today` has reached `expected` (usage is written
  // to the database within 5 s) or that time has passed.
  std::string usage_text_when(const std::string& key_id, std::int64_t expected) {
    const auto deadline = std::chrono::steady_clock::now() + 5500ms;
    CliResult r;
    do {
      r = run({"keys", "usage", "--id", key_id, "--json"});
      const auto v = parse_json(r.out);
      if (r.exit_code != 0 || !v || !v->is_object()) break;
      const auto* today = v->as_object().if_contains("today");
      if (today != nullptr && today->is_int64() && today->as_int64() >= expected) break;
      std::this_thread::sleep_for(200ms);
    } while (std::chrono::steady_clock::now() < deadline);
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    return r.out;
  }
};

bool has_number_field(const std::string& text, const std::string& name, const std::string& number) {
  return std::regex_search(text, std::regex("\"" + name + "\":" + number + "[,}]"));
}

TEST_F(JsonNumbersTest, KeysUsagePrintsTheErrorRateAsAPlainDecimal) {
  const std::string ws = create_workspace();
  const json::object key = create_key(ws);
  const std::string id = str(key.at("id"));
  const std::string fresh = usage_text_when(id, 0);
  EXPECT_TRUE(has_number_field(fresh, "error_rate", "0")) << fresh;

  HttpClient client(server().host(), server().port());
  const Headers auth = {{"Authorization", "Bearer " + str(key.at("key"))}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(client.request("GET", "/api/v1/external/leads", std::nullopt, auth).status, 200u);
  }
  EXPECT_EQ(client.request("GET", "/api/v1/external/leads?colour=red", std::nullopt, auth).status,
            400u);
  const std::string used = usage_text_when(id, 5);
  EXPECT_TRUE(has_number_field(used, "today", "5")) << used;
  EXPECT_TRUE(has_number_field(used, "error_rate", "0\\.2")) << used;
}

}  // namespace
}  // namespace leadline_test
