// The fiber thread: spawned bodies run on its one thread, a suspended fiber frees the thread for
// the others and resumes there (whoever resumes it), and the thread ends only after every fiber.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "fibers/fiber_thread.hpp"
#include "fibers/suspension.hpp"

namespace leadline::fibers {
namespace {

using namespace std::chrono_literals;

// Resumes, from a thread of its own, what fibers hand it.
class Resumer {
 public:
  void hand(Resume resume) {
    std::lock_guard lock(mutex_);
    held_.push_back(std::move(resume));
  }
  std::size_t held() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }
  void resume_all_from_another_thread() {
    std::vector<Resume> taken;
    {
      std::lock_guard lock(mutex_);
      taken.swap(held_);
    }
    std::thread([&taken] {
      for (Resume& resume : taken) resume();
    }).join();
  }

 private:
  std::mutex mutex_;
  std::vector<Resume> held_;
};

bool wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

TEST(FiberThread, RunsEveryBodyOnItsOneThreadAsAFiber) {
  std::mutex mutex;
  std::vector<std::thread::id> ids;
  std::atomic<int> on_fiber{0};
  {
    FiberThread fibers("test-fibers");
    for (int i = 0; i < 50; ++i) {
      fibers.spawn([&] {
        if (fibers::on_fiber()) ++on_fiber;
        std::lock_guard lock(mutex);
        ids.push_back(std::this_thread::get_id());
      });
    }
  }  // the destructor runs what was spawned
  ASSERT_EQ(ids.size(), 50u);
  EXPECT_EQ(on_fiber.load(), 50);
  for (const auto& id : ids) EXPECT_EQ(id, ids.front());
  EXPECT_NE(ids.front(), std::this_thread::get_id());
  EXPECT_FALSE(fibers::on_fiber());
}

TEST(FiberThread, ASuspendedFiberLeavesTheThreadToOthersAndResumesOnIt) {
  Resumer resumer;
  std::atomic<int> finished{0};
  std::mutex mutex;
  std::vector<std::pair<std::thread::id, std::thread::id>> before_after;
  FiberThread fibers("test-fibers");
  constexpr int kFibers = 20;
  for (int i = 0; i < kFibers; ++i) {
    fibers.spawn([&, i] {
      const auto before = std::this_thread::get_id();
      // Deep enough to need its own stack: every fiber's frames stay intact while suspended.
      volatile char frame[8192];
      frame[0] = static_cast<char>(i);
      frame[8191] = static_cast<char>(i);
      fibers::suspend([&](Resume resume) { resumer.hand(std::move(resume)); });
      EXPECT_EQ(frame[0], static_cast<char>(i));
      EXPECT_EQ(frame[8191], static_cast<char>(i));
      std::lock_guard lock(mutex);
      before_after.emplace_back(before, std::this_thread::get_id());
      ++finished;
    });
  }
  // All of them suspend at once: none waits for another to be resumed.
  ASSERT_TRUE(wait_until([&] { return resumer.held() == kFibers; }));
  EXPECT_EQ(finished.load(), 0);
  resumer.resume_all_from_another_thread();
  ASSERT_TRUE(wait_until([&] { return finished.load() == kFibers; }));
  std::lock_guard lock(mutex);
  for (const auto& [before, after] : before_after) EXPECT_EQ(before, after);
}

TEST(FiberThread, ResumingRightAwayFromArmRunsTheFiberOnlyAfterItSuspended) {
  std::atomic<int> step{0};
  std::promise<void> done;
  FiberThread fibers("test-fibers");
  fibers.spawn([&] {
    fibers::suspend([&](Resume resume) {
      step = 1;
      resume();  // posts the resumption; this fiber still runs until it suspends
      EXPECT_EQ(step.load(), 1);
      step = 2;
    });
    EXPECT_EQ(step.load(), 2);
    step = 3;
    done.set_value();
  });
  ASSERT_EQ(done.get_future().wait_for(5s), std::future_status::ready);
  EXPECT_EQ(step.load(), 3);
}

TEST(FiberThread, StopsOnlyOnceASuspendedFiberWasResumedAndEnded) {
  Resumer resumer;
  std::atomic<bool> ended{false};
  std::thread late;
  {
    FiberThread fibers("test-fibers");
    fibers.spawn([&] {
      fibers::suspend([&](Resume resume) { resumer.hand(std::move(resume)); });
      ended = true;
    });
    ASSERT_TRUE(wait_until([&] { return resumer.held() == 1; }));
    late = std::thread([&] {
      std::this_thread::sleep_for(200ms);
      resumer.resume_all_from_another_thread();
    });
  }  // waits here for the fiber, resumed 200 ms later
  EXPECT_TRUE(ended.load());
  late.join();
}

// Nothing will resume a fiber whose arm threw: it carries on, and the thread still stops.
TEST(FiberThread, AnArmThatThrowsLeavesTheFiberRunningAndTheThreadFreeToStop) {
  std::atomic<bool> caught{false};
  {
    FiberThread fibers("test-fibers");
    fibers.spawn([&] {
      try {
        fibers::suspend([](Resume) { throw std::runtime_error("could not hand it over"); });
      } catch (const std::runtime_error&) {
        caught = true;
      }
    });
  }  // would never return if the failed suspension kept the thread running
  EXPECT_TRUE(caught.load());
}

TEST(FiberThread, ManyMoreFibersThanKeptStacksRunAndEnd) {
  Resumer resumer;
  std::atomic<int> finished{0};
  FiberThread fibers("test-fibers");
  constexpr int kFibers = 400;
  for (int i = 0; i < kFibers; ++i) {
    fibers.spawn([&] {
      fibers::suspend([&](Resume resume) { resumer.hand(std::move(resume)); });
      ++finished;
    });
  }
  ASSERT_TRUE(wait_until([&] { return resumer.held() == kFibers; }));
  resumer.resume_all_from_another_thread();
  ASSERT_TRUE(wait_until([&] { return finished.load() == kFibers; }));
}

}  // namespace
}  // namespace leadline::fibers
