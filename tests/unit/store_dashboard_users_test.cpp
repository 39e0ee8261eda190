// Dashboard users (add, unique e-mail per workspace, setup links, reset, remove), their
// sessions (idle and absolute ends, sign-out) and the sign-in throttle's doubling waits.
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using namespace std::chrono_literals;

domain::Timestamp after(domain::Timestamp t, std::chrono::milliseconds d) {
  return {t.unix_ms + d.count()};
}

domain::NewDashboardUser new_user(const domain::WorkspaceId& ws, std::string email,
                                  std::optional<std::string> token_hash,
                                  domain::Timestamp expires) {
  return {ws, std::move(email), "Ada", std::nullopt, std::move(token_hash), expires};
}

domain::DashboardUser added(UserStore& users, const domain::NewDashboardUser& user) {
  auto result = users.add(user);
  EXPECT_TRUE(std::holds_alternative<domain::DashboardUser>(result));
  return std::get<domain::DashboardUser>(result);
}

TEST_P(StoreTest, UsersAreUniquePerWorkspaceByFoldedEmail) {
  const auto expires = clock_.now();
  const auto ada = added(store_->users(), new_user(ws_, "Ada@Example.com", "h1", expires));
  EXPECT_EQ(ada.email, "Ada@Example.com");
  EXPECT_TRUE(std::holds_alternative<UserEmailTaken>(
      store_->users().add(new_user(ws_, "ada@example.COM", "h2", expires))));
  // The same address in another workspace is another user.
  added(store_->users(), new_user(other_ws_, "ada@example.com", "h3", expires));

  const auto listed = store_->users().list(ws_);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, ada.id);
  EXPECT_FALSE(listed[0].last_sign_in_at.has_value());
  EXPECT_EQ(store_->users().sign_in_candidates("ADA@example.com").size(), 2u);
  EXPECT_TRUE(store_->users().sign_in_candidates("nobody@example.com").empty());
}

TEST_P(StoreTest, SetupTokenSetsThePasswordOnceAndExpires) {
  const auto user = added(store_->users(),
                          new_user(ws_, "ada@example.com", "token-hash", after(clock_.now(), 24h)));
  EXPECT_FALSE(store_->users().sign_in_candidates("ada@example.com")[0].password_hash);

  const auto done = store_->users().finish_setup("token-hash", "$argon2id$stored");
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->id, user.id);
  EXPECT_EQ(store_->users().sign_in_candidates("ada@example.com")[0].password_hash,
            "$argon2id$stored");
  EXPECT_FALSE(store_->users().finish_setup("token-hash", "$argon2id$again").has_value());

  const auto other = added(store_->users(),
                           new_user(ws_, "bo@example.com", "late-hash", after(clock_.now(), 24h)));
  clock_.advance(24h);
  EXPECT_FALSE(store_->users().finish_setup("late-hash", "$argon2id$x").has_value());
  // A reset issues a new link and forgets the password.
  ASSERT_TRUE(store_->users().reset(other.id, "fresh-hash", after(clock_.now(), 24h)).has_value());
  EXPECT_TRUE(store_->users().finish_setup("fresh-hash", "$argon2id$y").has_value());
  EXPECT_FALSE(store_->users()
                   .reset({"00000000-0000-7000-8000-000000000000"}, "x", clock_.now())
                   .has_value());
}

TEST_P(StoreTest, SessionsEndWhenIdleAtTheAbsoluteEndAndOnSignOut) {
  const auto user = added(store_->users(), new_user(ws_, "ada@example.com", "t", clock_.now()));
  const SessionLifetime lifetime{30min, 12h};
  store_->sessions().create(user.id, "s1");
  ASSERT_TRUE(store_->users().get(user.id)->last_sign_in_at.has_value());

  // Requests every 29 minutes keep it alive up to the absolute end.
  for (int i = 0; i < 24; ++i) {
    clock_.advance(29min);
    const auto resumed = store_->sessions().resume("s1", lifetime);
    ASSERT_TRUE(resumed.has_value()) << "request " << i;
    EXPECT_EQ(resumed->id, user.id);
    EXPECT_EQ(resumed->workspace_id, ws_);
  }
  clock_.advance(30min);  // 12 h 26 min after sign-in
  EXPECT_FALSE(store_->sessions().resume("s1", lifetime).has_value());

  store_->sessions().create(user.id, "s2");
  clock_.advance(30min);
  EXPECT_FALSE(store_->sessions().resume("s2", lifetime).has_value());

  store_->sessions().create(user.id, "s3");
  store_->sessions().end("s3");
  EXPECT_FALSE(store_->sessions().resume("s3", lifetime).has_value());
  EXPECT_FALSE(store_->sessions().resume("unknown", lifetime).has_value());
}

TEST_P(StoreTest, ResetAndRemoveEndEverySessionOfTheUser) {
  const auto ada = added(store_->users(), new_user(ws_, "ada@example.com", "t1", clock_.now()));
  const auto bo = added(store_->users(), new_user(ws_, "bo@example.com", "t2", clock_.now()));
  const SessionLifetime lifetime;
  store_->sessions().create(ada.id, "a1");
  store_->sessions().create(ada.id, "a2");
  store_->sessions().create(bo.id, "b1");
  ASSERT_TRUE(store_->users().reset(ada.id, "t3", after(clock_.now(), 24h)));
  EXPECT_FALSE(store_->sessions().resume("a1", lifetime));
  EXPECT_FALSE(store_->sessions().resume("a2", lifetime));
  EXPECT_TRUE(store_->sessions().resume("b1", lifetime));
  EXPECT_TRUE(store_->users().remove(bo.id));
  EXPECT_FALSE(store_->sessions().resume("b1", lifetime));
  EXPECT_FALSE(store_->users().remove(bo.id));
  EXPECT_EQ(store_->users().list(ws_).size(), 1u);
}

TEST_P(StoreTest, ThrottleWaitsDoubleAfterFiveFailuresPerAddress) {
  for (int i = 0; i < 4; ++i) store_->sessions().record_failure("ada@example.com");
  EXPECT_FALSE(store_->sessions().blocked("ada@example.com"));
  store_->sessions().record_failure("ADA@example.com");  // the 5th, folded to the same address
  auto blocked = store_->sessions().blocked("ada@example.com");
  ASSERT_TRUE(blocked);
  EXPECT_EQ(blocked->until.unix_ms - clock_.now().unix_ms, 1000);
  EXPECT_FALSE(store_->sessions().blocked("bo@example.com"));

  clock_.advance(1s);
  EXPECT_FALSE(store_->sessions().blocked("ada@example.com"));
  store_->sessions().record_failure("ada@example.com");
  EXPECT_EQ(store_->sessions().blocked("ada@example.com")->until.unix_ms - clock_.now().unix_ms,
            2000);
  for (int i = 0; i < 20; ++i) store_->sessions().record_failure("ada@example.com");
  EXPECT_EQ(store_->sessions().blocked("ada@example.com")->until.unix_ms - clock_.now().unix_ms,
            15 * 60 * 1000);
  store_->sessions().clear_failures("ada@example.com");
  EXPECT_FALSE(store_->sessions().blocked("ada@example.com"));
}

}  // namespace
}  // namespace leadline::store::testing
