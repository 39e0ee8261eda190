// The leader/follower loop of group commit: whoever finds no commit under way takes everyone
// waiting as its batch, so batches grow exactly as fast as fsync falls behind the writers.
#include "store/sqlite/group_commit.hpp"

namespace leadline::store::sqlite {

void GroupCommit::run(Work work) {
  Member self(work);
  std::unique_lock lock(mutex_);
  waiting_.push_back(&self);
  if (!committing_) {
    committing_ = true;
    self.leads = true;
  }
  while (!self.done && !self.leads) self.wake.wait(lock);
  if (!self.done) {
    // Leading: everyone waiting now, this member included, is the batch.
    std::vector<Member*> batch;
    batch.swap(waiting_);
    lock.unlock();
    commit(batch);
    lock.lock();
    // Notified under the lock: a member cannot return, and take its condition variable off the
    // stack, before the lock is released.
    for (Member* member : batch) {
      member->done = true;
      if (member != &self) member->wake.notify_one();
    }
    if (waiting_.empty()) {
      committing_ = false;
    } else {
      waiting_.front()->leads = true;
      waiting_.front()->wake.notify_one();
    }
  }
  if (self.error) std::rethrow_exception(self.error);
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
    tx.commit();
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
    tx.commit();
  } catch (...) {
    const auto error = std::current_exception();
    for (Member* member : batch) {
      if (!member->error) member->error = error;
    }
  }
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
