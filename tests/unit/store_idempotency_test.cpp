// Idempotent requests in the store: an operation runs once per API key and key, its writes and
// its answer commit (or are undone) together, a repeat gets the answer, another request with
// the key is told apart, and a key lives 24 hours. On both backends.
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

class IdempotencyStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    clock_.set(ts("2026-03-01T09:00:00.000Z"));
    api_key_ = store_->keys().create({ws_, "k", "fc_live_Ab12", std::string(64, 'a'), 3, {}}).id;
    other_key_ = store_->keys().create({ws_, "k2", "fc_live_Cd34", std::string(64, 'b'), 3, {}}).id;
  }

  IdempotentRequest request(std::string key, std::string fingerprint = "f1") const {
    return {api_key_, {std::move(key)}, std::move(fingerprint)};
  }

  // Runs a lead create under `r`, answering `status`; counts the runs.
  IdempotentOutcome create_lead(const IdempotentRequest& r, unsigned status = 201) {
    return store_->idempotency().run_once(r, [&]() -> std::optional<StoredAnswer> {
      ++runs_;
      const auto lead = store_->leads().create(ws_, lead_named("Ada"));
      if (status == 400) return std::nullopt;
      return StoredAnswer{status, "{\"id\":\"" + lead.id.value + "\"}"};
    });
  }

  std::int64_t lead_count() {
    LeadListQuery q;
    q.page.limit = 100;
    return store_->leads().list(ws_, q).total_count;
  }

  domain::ApiKeyId api_key_;
  domain::ApiKeyId other_key_;
  int runs_ = 0;
};

INSTANTIATE_TEST_SUITE_P(Backends, IdempotencyStoreTest, all_backends(), backend_name);

TEST_P(IdempotencyStoreTest, ARepeatGetsTheStoredAnswerAndChangesNothing) {
  ASSERT_TRUE(std::holds_alternative<Ran>(create_lead(request("k1"))));
  const auto again = create_lead(request("k1"));
  ASSERT_TRUE(std::holds_alternative<Replayed>(again));
  EXPECT_EQ(std::get<Replayed>(again).answer.status, 201u);
  EXPECT_EQ(runs_, 1);
  EXPECT_EQ(lead_count(), 1);
}

TEST_P(IdempotencyStoreTest, AnotherRequestWithTheKeyIsToldApart) {
  create_lead(request("k1", "f1"));
  EXPECT_TRUE(std::holds_alternative<KeyUsedForAnotherRequest>(create_lead(request("k1", "f2"))));
  EXPECT_EQ(runs_, 1);
}

TEST_P(IdempotencyStoreTest, KeysBelongToTheirApiKey) {
  create_lead(request("k1"));
  const IdempotentRequest other{other_key_, {"k1"}, "f1"};
  EXPECT_TRUE(std::holds_alternative<Ran>(create_lead(other)));
  EXPECT_EQ(lead_count(), 2);
}

TEST_P(IdempotencyStoreTest, NothingStoredUndoesTheOperationsWritesAndARetryRunsAgain) {
  const auto refused = create_lead(request("k1"), 400);
  ASSERT_TRUE(std::holds_alternative<Ran>(refused));
  EXPECT_FALSE(std::get<Ran>(refused).stored);
  EXPECT_EQ(lead_count(), 0);
  EXPECT_TRUE(std::get<Ran>(create_lead(request("k1"))).stored);
  EXPECT_EQ(runs_, 2);
  EXPECT_EQ(lead_count(), 1);
}

TEST_P(IdempotencyStoreTest, AFailingOperationLeavesNeitherItsWritesNorAnAnswer) {
  EXPECT_THROW(store_->idempotency().run_once(request("k1"),
                                              [&]() -> std::optional<StoredAnswer> {
                                                store_->leads().create(ws_, lead_named("Ada"));
                                                throw std::runtime_error("boom");
                                              }),
               std::runtime_error);
  EXPECT_EQ(lead_count(), 0);
  EXPECT_TRUE(std::holds_alternative<Ran>(create_lead(request("k1"))));
  EXPECT_EQ(lead_count(), 1);
}

TEST_P(IdempotencyStoreTest, AJoinedWriteThatKeepsNothingUndoesOnlyItself) {
  // An import refused at its second line undoes its first; the operation around it goes on.
  store_->contacts().create(ws_, contact_named("Taken", "taken@example.com"));
  store_->idempotency().run_once(request("k1"), [&]() -> std::optional<StoredAnswer> {
    store_->leads().create(ws_, lead_named("Kept"));
    const auto result =
        store_->imports().apply(ws_, {ImportItem{1, lead_named("Undone")},
                                      ImportItem{2, contact_named("Again", "taken@example.com")}});
    EXPECT_TRUE(std::holds_alternative<ImportFailure>(result));
    return StoredAnswer{201, "{}"};
  });
  EXPECT_EQ(lead_count(), 1);
}

// A request with `key` that runs on its own thread until release(), then answers `body`.
class HeldRequest {
 public:
  HeldRequest(Database& db, const IdempotentRequest& request, std::string body)
      : thread_([this, &db, request, body = std::move(body)] {
          db.idempotency().run_once(request, [&]() -> std::optional<StoredAnswer> {
            inside_ = true;
            while (!release_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return StoredAnswer{201, body};
          });
        }) {
    while (!inside_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~HeldRequest() { release(); }
  HeldRequest(const HeldRequest&) = delete;
  HeldRequest& operator=(const HeldRequest&) = delete;

  void release() {
    release_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> inside_{false};
  std::atomic<bool> release_{false};
  std::thread thread_;
};

TEST_P(IdempotencyStoreTest, ASecondRequestWhileTheFirstRunsIsBusy) {
  HeldRequest first(*store_, request("k1"), "{}");
  EXPECT_TRUE(std::holds_alternative<KeyBusy>(create_lead(request("k1"))));
  first.release();
  EXPECT_TRUE(std::holds_alternative<Replayed>(create_lead(request("k1"))));
}

TEST_P(IdempotencyStoreTest, AnotherDatabaseHandleSeesTheKeyBusyToo) {
  // A second instance on the same database: only the database can tell it (PostgreSQL's lock;
  // SQLite's one writer makes the second wait for the first's answer instead).
  auto second = open_database(url(), clock_);
  HeldRequest first(*store_, request("k1"), "{\"first\":true}");
  if (backend() == Backend::kPostgres) {
    const auto outcome =
        second->idempotency().run_once(request("k1"), []() -> std::optional<StoredAnswer> {
          return StoredAnswer{201, "{\"second\":true}"};
        });
    EXPECT_TRUE(std::holds_alternative<KeyBusy>(outcome));
  }
  first.release();
  const auto later =
      second->idempotency().run_once(request("k1"), []() -> std::optional<StoredAnswer> {
        return StoredAnswer{201, "{}"};
      });
  ASSERT_TRUE(std::holds_alternative<Replayed>(later));
  EXPECT_EQ(std::get<Replayed>(later).answer.body, "{\"first\":true}");
}

TEST_P(IdempotencyStoreTest, AKeyLives24HoursThenRunsAnewAndThePurgeForgetsIt) {
  create_lead(request("k1"));
  clock_.advance(std::chrono::hours(24) - std::chrono::milliseconds(1));
  EXPECT_TRUE(std::holds_alternative<Replayed>(create_lead(request("k1"))));
  EXPECT_EQ(store_->idempotency().purge_expired(500), 0);
  clock_.advance(std::chrono::milliseconds(1));
  // Expired but not yet purged: forgotten all the same, and the key starts a new life.
  EXPECT_TRUE(std::get<Ran>(create_lead(request("k1", "f2"))).stored);
  EXPECT_EQ(lead_count(), 2);
  create_lead(request("k2"));
  clock_.advance(std::chrono::hours(25));
  EXPECT_EQ(store_->idempotency().purge_expired(1), 1);
  EXPECT_EQ(store_->idempotency().purge_expired(500), 1);
  EXPECT_EQ(store_->idempotency().purge_expired(500), 0);
}

}  // namespace
}  // namespace leadline::store::testing
