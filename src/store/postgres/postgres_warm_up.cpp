// PostgresEngine::warm_up: every connection of the pool opened at once, and each backend's
// catalog caches filled, before the server listens. Without it the first second of load paid
// for both: after a start on 100k leads, the first 2 s of wrk -c64 on the default list page
// had a p99 of 233-340 ms against 18-47 ms in the next 2 s (docs/design.md, "Storage
// (PostgreSQL)").
#include <exception>
#include <latch>
#include <thread>
#include <vector>

#include "store/postgres/postgres_engine.hpp"

namespace leadline::store::postgres {

namespace {

// Plans a query on each of the schema's tables: planning opens the table and its indexes, which
// fills the backend's relation cache the first real statement would otherwise fill.
constexpr const char* kFillCatalogCaches =
    "DO $$ DECLARE t text; BEGIN "
    "FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') LOOP "
    "EXECUTE format('SELECT 1 FROM %I LIMIT 0', t); END LOOP; END $$";

}  // namespace

void PostgresEngine::warm_up() {
  const std::size_t n = pool_.max_size();
  // Each thread holds its lease until all have one, so that the pool opens n connections
  // instead of handing one back and forth.
  std::latch all_leased(static_cast<std::ptrdiff_t>(n));
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    threads.emplace_back([this, &all_leased] {
      try {
        auto lease = pool_.acquire();
        lease.conn().execute_script(kFillCatalogCaches);
        all_leased.arrive_and_wait();
      } catch (const std::exception&) {
        // The first requests connect instead, as they would without the warm-up.
        all_leased.count_down();
      }
    });
  }
  for (auto& t : threads) t.join();
}

}  // namespace leadline::store::postgres
