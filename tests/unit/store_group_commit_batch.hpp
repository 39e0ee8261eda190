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

// Each write runs on a thread of its own; they queue in no particular order.
inline void run_as_one_batch(GroupCommit& group,
                             const std::vector<std::function<void(sql::Connection&)>>& writes) {
  std::latch holding(1);
  std::latch release(1);
  std::thread holder([&] {
    group.run([&](sql::Connection&) {
      holding.count_down();
      release.wait();
      return true;
    });
  });
  holding.wait();
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
  release.count_down();
  holder.join();
  for (auto& member : members) member.join();
}

}  // namespace leadline::store::sqlite::testing
