// Migrations are listed in ascending version order, so the last one is the newest known.
#include "store/schema/pending_migrations.hpp"

#include <stdexcept>
#include <string>

namespace leadline::store {

std::vector<Migration> pending_migrations(const std::vector<Migration>& migrations,
                                          std::int64_t current_version) {
  const std::int64_t known = migrations.empty() ? 0 : migrations.back().version;
  if (current_version > known) {
    throw std::runtime_error("database schema version " + std::to_string(current_version) +
                             " is newer than this leadline build supports (" +
                             std::to_string(known) + ")");
  }
  std::vector<Migration> pending;
  for (const Migration& m : migrations) {
    if (m.version > current_version) pending.push_back(m);
  }
  return pending;
}

}  // namespace leadline::store
