// The wall clock every production caller shares.
#include "domain/clock.hpp"

namespace leadline::domain {

namespace {

class SystemClock final : public Clock {
 public:
  Timestamp now() const override { return domain::now(); }
};

}  // namespace

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

}  // namespace leadline::domain
