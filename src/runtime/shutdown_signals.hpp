// SIGINT / SIGTERM -> one callback, delivered on a thread of its own so the callback may do
// anything (stopping the server is not async-signal-safe).
#pragma once

#include <functional>
#include <memory>

namespace leadline::runtime {

class ShutdownSignals {
 public:
  explicit ShutdownSignals(std::function<void()> on_signal);
  ~ShutdownSignals();  // stops listening for the signals and joins the thread
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::runtime
