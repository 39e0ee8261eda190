// Test support for the auth unit tests: a real SQLite database in a fresh temporary directory
// behind auth's two storage functions, and a usage sink that can be made to fail on demand.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "auth/storage_ports.hpp"
#include "manual_clock.hpp"
#include "store/database.hpp"
#include "temp_dir.hpp"

namespace leadline::auth::testing {

using leadline::unit_test::ManualClock;
using leadline::unit_test::TempDir;

// The real database on a new file; the directory outlives it.
struct TestStore {
  ManualClock clock;
  TempDir dir;
  std::unique_ptr<store::Database> store =
      store::open_database("sqlite:" + (dir.path() / "t.db").string(), clock);

  KeyLookup lookup() {
    return [db = store.get()](std::string_view hash) { return db->keys().find_by_hash(hash); };
  }
  UsageSink sink() {
    return [db = store.get()](const std::vector<domain::UsageDelta>& d) { db->usage().record(d); };
  }
};

// Writes through to `inner` except while `fail_usage` is set, when it throws the way a database
// that went away would.
class UsageFailingSink {
 public:
  explicit UsageFailingSink(UsageSink inner) : state_(std::make_shared<State>(std::move(inner))) {}

  UsageSink sink() const {
    return [state = state_](const std::vector<domain::UsageDelta>& deltas) {
      ++state->calls;
      if (state->fail) throw std::runtime_error("database is unavailable");
      state->inner(deltas);
    };
  }
  void fail(bool yes) { state_->fail = yes; }
  int calls() const { return state_->calls; }

 private:
  struct State {
    explicit State(UsageSink i) : inner(std::move(i)) {}
    UsageSink inner;
    std::atomic<bool> fail{false};
    std::atomic<int> calls{0};
  };
  std::shared_ptr<State> state_;
};

}  // namespace leadline::auth::testing
