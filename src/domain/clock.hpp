// The time the service stamps on what it writes, injected so that tests can set it.
#pragma once

#include "domain/timestamp.hpp"

namespace leadline::domain {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Timestamp now() const = 0;
};

// The system's wall clock (domain::now()).
const Clock& system_clock();

}  // namespace leadline::domain
