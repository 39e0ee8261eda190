// Group commit: writers that arrive while a transaction commits share the next one, and so its
// fsync. One failing or rolled-back member never touches the others, and each returns only once
// the transaction holding it committed.
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

#include "store/engine.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

class GroupCommit {
 public:
  explicit GroupCommit(Connection& conn) : conn_(conn) {}

  // Runs `work` in the next shared write transaction and returns after it committed. `work`
  // returns false to undo its own changes. An exception from `work` undoes its changes and is
  // rethrown here; so is a failed COMMIT, to every member of that transaction.
  void run(Work work);

 private:
  // Lives on its writer's stack; each has its own condition variable, so a commit wakes exactly
  // its batch and the next leader, never every waiting writer.
  struct Member {
    explicit Member(Work w) : work(w) {}
    Work work;
    std::exception_ptr error;
    bool done = false;
    bool leads = false;
    std::condition_variable wake;
  };

  void commit(const std::vector<Member*>& batch);
  // The batch's members one after the other, none in a savepoint of its own, then COMMIT. False,
  // with nothing committed, when one of several members failed or had changes to undo: the
  // batch must run again apart.
  bool commit_together(const std::vector<Member*>& batch);
  // Each member in its savepoint, so that each one's failure or undo is its own.
  void commit_apart(const std::vector<Member*>& batch);
  // Runs one member inside its savepoint. False when the transaction itself was lost.
  bool run_member(Member& member);

  Connection& conn_;
  std::mutex mutex_;
  std::vector<Member*> waiting_;
  bool committing_ = false;  // some member leads a batch; the others wait to be woken
};

}  // namespace leadline::store::sqlite
