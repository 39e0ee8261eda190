// The thread's armed check: requests run on one thread from authentication to answer.
#include "store/carried_check.hpp"

namespace leadline::store {

namespace {
thread_local CarriedCheck* armed = nullptr;
}  // namespace

CarriedCheck::CarriedCheck(std::string sql, sql::Params params)
    : sql_(std::move(sql)), params_(std::move(params)) {
  armed = this;
}

CarriedCheck::~CarriedCheck() {
  if (armed == this) armed = nullptr;
}

CarriedCheck* CarriedCheck::waiting() {
  return armed != nullptr && !armed->ran_ ? armed : nullptr;
}

}  // namespace leadline::store
