// The cursor secret is read once at open: it never changes for a database.
#include "store/database.hpp"

#include "store/cursor_secret.hpp"

namespace leadline::store {

Database::Database(std::unique_ptr<Engine> engine, const domain::Clock& clock,
                   OperationMetrics* metrics)
    : engine_(std::move(engine)), runner_(*engine_, clock, metrics) {
  static const Operation op("cursor_secret");
  cursor_secret_ =
      runner_.write(op, [](sql::Connection& c) { return load_or_create_cursor_secret(c); });
}

}  // namespace leadline::store
