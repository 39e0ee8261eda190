// Group commit: writes that arrive while a transaction commits share the next one, and so its
// fsync. One failing or rolled-back member never touches the others, and each returns only once
// the transaction holding it committed.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "fibers/suspension.hpp"
#include "store/engine.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

class GroupCommit {
 public:
  // Runs in each transaction just before its COMMIT (the engine applies the search queues).
  using BeforeCommit = void (*)(sql::Connection&);

  // Starts the writer thread, the only thread that uses `conn` from then on.
  explicit GroupCommit(Connection& conn, BeforeCommit before_commit = nullptr);
  // Commits what is waiting, then stops the writer thread.
  ~GroupCommit();
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  // Runs `work` in the next shared write transaction and returns after it committed. `work`
  // returns false to undo its own changes. An exception from `work` undoes its changes and is
  // rethrown here; so is a failed COMMIT, to every member of that transaction. On a fiber, the
  // fiber is suspended until then and its thread runs others; elsewhere the thread waits.
  void run(Work work);

 private:
  // Lives on its caller's stack until the batch holding it committed.
  struct Member {
    explicit Member(Work w) : work(w) {}
    Work work;
    std::exception_ptr error;
    fibers::Resume resume;  // set when the member waits on a fiber
  };

  // The writer thread: takes everyone waiting as its batch, commits it, wakes the batch.
  void write_loop();
  // Adds a member to the next batch; the caller holds mutex_. Its batch's number.
  std::uint64_t enqueue(Member& member);
  void commit(const std::vector<Member*>& batch);
  // The batch's members one after the other, none in a savepoint of its own, then COMMIT. False,
  // with nothing committed, when one of several members failed or had changes to undo: the
  // batch must run again apart.
  bool commit_together(const std::vector<Member*>& batch);
  // Each member in its savepoint, so that each one's failure or undo is its own.
  void commit_apart(const std::vector<Member*>& batch);
  // Runs one member inside its savepoint. False when the transaction itself was lost.
  bool run_member(Member& member);
  void finish(Transaction& tx);

  Connection& conn_;
  BeforeCommit before_commit_;
  std::mutex mutex_;
  std::condition_variable arrived_;  // the writer waits here for a first member
  std::vector<Member*> waiting_;     // the next batch, numbered next_batch_
  std::uint64_t next_batch_ = 1;
  std::uint64_t committed_batches_ = 0;  // batches 1 to this one are committed
  // Members of odd and even batches wait apart: a commit wakes its whole batch with one call,
  // and never the next batch, which is still gathering.
  std::condition_variable committed_[2];
  bool stopping_ = false;
  std::thread writer_;  // last: started once everything it uses exists
};

}  // namespace leadline::store::sqlite
