// One thread that runs many fibers: each spawned body runs on a stack of its own and may
// suspend (fibers/suspension.hpp) while it waits, which frees the thread for the other fibers.
// The HTTP server runs requests that wait only on a commit here, instead of parking a thread
// each (docs/design.md, "Durable writes").
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace leadline::fibers {

class FiberThread {
 public:
  // Starts the thread, named `name` for `top -H` and `perf --tid`.
  explicit FiberThread(const std::string& name);
  // Runs what was spawned, and every suspended fiber once it is resumed, to its end; then stops.
  ~FiberThread();
  FiberThread(const FiberThread&) = delete;
  FiberThread& operator=(const FiberThread&) = delete;

  // Runs `body` on a new fiber of this thread. Thread-safe. `body` must not throw.
  void spawn(std::function<void()> body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::fibers
