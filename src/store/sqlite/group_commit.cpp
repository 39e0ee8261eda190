// The writer thread's loop: whoever waits when a commit ends is the next batch, so batches grow
// exactly as fast as the commits fall behind the writers.
#include "store/sqlite/group_commit.hpp"

#include <pthread.h>

namespace leadline::store::sqlite {

// One thread owns the write connection and runs every batch. Before it, the first waiting
// caller led each batch and handed the lead to a sleeping caller after its commit: on 2 busy
// cores that caller waited behind the just-woken batch for its turn to run, and the connection
// sat idle 1.4-2.3 ms between commits (BENCHMARKS.md, "Round 7").
GroupCommit::GroupCommit(Connection& conn, BeforeCommit before_commit)
    : conn_(conn), before_commit_(before_commit), writer_([this] { write_loop(); }) {}

GroupCommit::~GroupCommit() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  arrived_.notify_one();
  writer_.join();
}

void GroupCommit::run(Work work) {
  Member self(work);
  if (fibers::on_fiber()) {
    // The writer resumes the fiber after the commit; nothing here runs before it suspended.
    fibers::suspend([&](fibers::Resume resume) {
      self.resume = std::move(resume);
      std::lock_guard lock(mutex_);
      enqueue(self);
    });
  } else {
    std::unique_lock lock(mutex_);
    const std::uint64_t number = enqueue(self);
    committed_[number % 2].wait(lock, [&] { return committed_batches_ >= number; });
  }
  if (self.error) std::rethrow_exception(self.error);
}

std::uint64_t GroupCommit::enqueue(Member& member) {
  waiting_.push_back(&member);
  // A writer that is committing finds this member when it looks again; only an idle one waits.
  if (waiting_.size() == 1) arrived_.notify_one();
  return next_batch_;
}

void GroupCommit::write_loop() {
  // Named for `top -H`, `ps -L` and `perf --tid`: the one thread whose load bounds the writes.
  pthread_setname_np(pthread_self(), "sqlite-writer");
  std::vector<Member*> batch;
  std::unique_lock lock(mutex_);
  for (;;) {
    arrived_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) return;
    batch.swap(waiting_);
    const std::uint64_t number = next_batch_++;
    lock.unlock();
    commit(batch);
    // A resumed member may end at once and take its Member with it: its Resume is moved out
    // first, and the member is not touched after.
    for (Member* member : batch) {
      if (member->resume) fibers::Resume(std::move(member->resume))();
    }
    batch.clear();
    lock.lock();
    committed_batches_ = number;
    // One wake-up call for the whole batch, made without the lock the woken members take next.
    lock.unlock();
    committed_[number % 2].notify_all();
    lock.lock();
  }
}

void GroupCommit::commit(const std::vector<Member*>& batch) {
  if (!commit_together(batch)) commit_apart(batch);
}

// A savepoint per member costs more than its two statements: FTS5 writes what it collected so
// far as a new index segment at every savepoint, and SQLite copies each page a savepoint changes
// to its statement journal, a temporary file once past 64 KiB. Members almost never fail or undo
// (an error the API answers is a value, not an undo), so the batch first runs without them, and
// the rare batch where one did runs again apart; work may run more than once (Engine::run).
bool GroupCommit::commit_together(const std::vector<Member*>& batch) {
  try {
    Transaction tx(conn_, Transaction::Kind::kWrite);
    for (Member* member : batch) {
      const std::int64_t changes_before = conn_.total_changes();
      bool keep = false;
      try {
        keep = member->work(conn_);
      } catch (...) {
        if (batch.size() > 1) return false;
        member->error = std::current_exception();
      }
      // Alone in its transaction, a member's failure or undo is the transaction's rollback.
      if (member->error || (!keep && conn_.total_changes() != changes_before)) {
        return batch.size() == 1;
      }
    }
    finish(tx);
  } catch (...) {
    const auto error = std::current_exception();
    for (Member* member : batch) {
      if (!member->error) member->error = error;
    }
  }
  return true;
}

void GroupCommit::commit_apart(const std::vector<Member*>& batch) {
  try {
    Transaction tx(conn_, Transaction::Kind::kWrite);
    for (Member* member : batch) {
      if (!run_member(*member)) {
        // SQLite rolled the whole transaction back (I/O error, disk full): nobody's changes
        // survive, so nobody may report success.
        const auto lost = member->error;
        for (Member* m : batch) {
          if (!m->error) m->error = lost;
        }
        return;
      }
    }
    finish(tx);
  } catch (...) {
    const auto error = std::current_exception();
    for (Member* member : batch) {
      if (!member->error) member->error = error;
    }
  }
}

void GroupCommit::finish(Transaction& tx) {
  if (before_commit_) before_commit_(conn_);
  tx.commit();
}

bool GroupCommit::run_member(Member& member) {
  conn_.execute("SAVEPOINT group_member");
  bool keep = false;
  try {
    keep = member.work(conn_);
  } catch (...) {
    member.error = std::current_exception();
  }
  if (!conn_.in_transaction()) return false;
  if (!keep) conn_.execute("ROLLBACK TO group_member");
  conn_.execute("RELEASE group_member");
  return true;
}

}  // namespace leadline::store::sqlite
