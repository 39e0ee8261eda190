// A statement that the next store operation on this thread carries in its first round trip (a
// request's key check, docs/design.md "Keys"): it must return a row, or the operation's results
// do not count and it throws sql::CheckFailed (a write is undone before it commits). An
// operation that ran it leaves it to none after; one that sent no statement leaves it armed.
#pragma once

#include <string>

#include "store/sql/params.hpp"

namespace leadline::store {

class CarriedCheck {
 public:
  // Armed on this thread until destroyed; at most one at a time.
  CarriedCheck(std::string sql, sql::Params params);
  ~CarriedCheck();
  CarriedCheck(const CarriedCheck&) = delete;
  CarriedCheck& operator=(const CarriedCheck&) = delete;

  // An operation carried it (and it held, or that operation threw CheckFailed).
  bool ran() const { return ran_; }

  // The check armed on this thread that no operation has carried yet, if any.
  static CarriedCheck* waiting();

  const std::string& sql() const { return sql_; }
  const sql::Params& params() const { return params_; }
  void mark_ran() { ran_ = true; }

 private:
  std::string sql_;
  sql::Params params_;
  bool ran_ = false;
};

}  // namespace leadline::store
