// Waiting without a thread: code running on a fiber (fibers/fiber_thread.hpp) suspends its fiber
// until another thread resumes it; the same code off a fiber blocks its thread as before.
#pragma once

#include <functional>
#include <memory>

namespace leadline::fibers {

// Wakes one suspended fiber, from any thread, once. Until then it keeps the fiber's thread
// running, so a fiber waiting on it is never abandoned at shutdown.
class Resume {
 public:
  struct Target;
  Resume() = default;
  explicit Resume(std::shared_ptr<Target> target) : target_(std::move(target)) {}
  explicit operator bool() const { return target_ != nullptr; }
  // Schedules the fiber on its own thread; the fiber runs after this returns, never inside it.
  void operator()();

 private:
  std::shared_ptr<Target> target_;
};

// True while the calling code runs on a fiber.
bool on_fiber();

// Suspends the running fiber: `arm` receives the Resume that wakes it (and may hand it to another
// thread at once; the fiber cannot run before it has suspended). When `arm` throws, the fiber
// does not suspend and the exception propagates. Must be called on a fiber.
void suspend(const std::function<void(Resume)>& arm);

}  // namespace leadline::fibers
