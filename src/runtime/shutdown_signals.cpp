// Shutdown signals through Boost.Asio's signal_set on a private io_context: the handler runs
// as ordinary code on this file's thread, never inside a signal handler.
#include "runtime/shutdown_signals.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <thread>

namespace leadline::runtime {

struct ShutdownSignals::Impl {
  boost::asio::io_context io;
  boost::asio::signal_set signals{io, SIGINT, SIGTERM};
  std::thread thread;
};

ShutdownSignals::ShutdownSignals(std::function<void()> on_signal)
    : impl_(std::make_unique<Impl>()) {
  impl_->signals.async_wait(
      [on_signal = std::move(on_signal)](const boost::system::error_code& ec, int) {
        if (!ec) on_signal();
      });
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

ShutdownSignals::~ShutdownSignals() {
  impl_->io.stop();
  impl_->thread.join();
}

}  // namespace leadline::runtime
