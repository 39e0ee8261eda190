// Runs writes as one batch of a group commit: a first member holds its batch open while the
// others queue, so they form the next batch together. For tests of what a batch writes.
#pragma once

#include <chrono>
#include <functional>
#include <latch>
#include <thread>
#include <vector>

#include "store/sqlite/group_commit.hpp"

namespace leadline::store::sqlite::testing {

// Holds the writer inside a batch of one until release(): whatever queues meanwhile forms the
// next batch, together.
class HeldBatch {
 public:
  explicit HeldBatch(GroupCommit& group)
      : holder_([this, &group] {
          group.run([this](sql::Connection&) {
            holding_.count_down();
            release_.wait();
            return true;
          });
        }) {
    holding_.wait();
  }
  HeldBatch(const HeldBatch&) = delete;
  HeldBatch& operator=(const HeldBatch&) = delete;
  ~HeldBatch() {
    if (holder_.joinable()) release();
  }

  // Lets the held batch commit, and returns once it has.
  void release() {
    release_.count_down();
    holder_.join();
  }

 private:
  std::latch holding_{1};
  std::latch release_{1};
  std::thread holder_;  // last: started once the latches exist
};

// Each write runs on a thread of its own; they queue in no particular order.
inline void run_as_one_batch(GroupCommit& group,
                             const std::vector<std::function<void(sql::Connection&)>>& writes) {
  HeldBatch held(group);
  std::vector<std::thread> members;
  for (const auto& write : writes) {
    members.emplace_back([&group, &write] {
      group.run([&write](sql::Connection& c) {
        write(c);
        return true;
      });
    });
  }
  // Time for every member to queue behind the held batch.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  held.release();
  for (auto& member : members) member.join();
}

}  // namespace leadline::store::sqlite::testing
