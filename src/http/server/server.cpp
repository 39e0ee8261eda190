// Server lifecycle: bind, run the worker threads on one io_context, and the orderly stop
// (no new connections, in-flight requests answered, idle ones closed, bounded by a deadline).
#include "http/server/server.hpp"

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "http/server/connection_registry.hpp"
#include "http/server/listener.hpp"

namespace leadline::http {

namespace asio = boost::asio;

namespace {

unsigned worker_count(unsigned configured) {
  if (configured != 0) return configured;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

struct Server::Impl {
  Impl(ServerConfig config_in, Handler& handler_in)
      : config(std::move(config_in)),
        handler(handler_in),
        ioc(static_cast<int>(worker_count(config.threads))) {}

  ~Impl() {
    // Connections destroyed along with the io_context must not post into it.
    registry.on_drained(nullptr);
  }

  void begin_shutdown() {
    if (listener) listener->stop();
    registry.on_drained([this] { asio::post(strand, [this] { drain_deadline.cancel(); }); });
    registry.stop_all();
    if (registry.open_connections() == 0) return;
    // Requests still being read or handled get until the deadline; then run() returns anyway.
    drain_deadline.expires_after(config.shutdown_timeout);
    drain_deadline.async_wait([this](boost::system::error_code ec) {
      if (!ec) ioc.stop();
    });
  }

  void run_worker() {
    for (;;) {
      try {
        ioc.run();
        return;
      } catch (const std::exception& error) {
        // Handlers are exception-guarded; reaching this means a bug, not a reason to lose a
        // worker thread.
        std::cerr << "leadline: http worker: " << error.what() << '\n';
      }
    }
  }

  ServerConfig config;
  Handler& handler;
  // Declared before the io_context: connections it destroys still report to the registry.
  ConnectionRegistry registry;
  asio::io_context ioc;
  asio::strand<asio::io_context::executor_type> strand{ioc.get_executor()};
  asio::steady_timer drain_deadline{strand};
  // Declared after the io_context, so it is joined first: its tasks hold connections.
  asio::thread_pool blocking_pool{std::max(1u, config.blocking_threads)};
  // Likewise: its fibers hold connections. Writes that wait only on a commit wait here, each on
  // a fiber of one thread, rather than each parking a pool thread (docs/design.md).
  fibers::FiberThread fibers{"http-fibers"};
  std::shared_ptr<Listener> listener;
  std::atomic<bool> stop_requested{false};
};

Server::Server(ServerConfig config, Handler& handler)
    : impl_(std::make_unique<Impl>(std::move(config), handler)) {}

Server::~Server() = default;

std::string Server::listen() {
  if (impl_->listener) throw std::logic_error("Server::listen called twice");
  auto listener =
      std::make_shared<Listener>(impl_->ioc, impl_->config, impl_->handler, impl_->registry,
                                 WaitingWork{impl_->blocking_pool, impl_->fibers});
  std::string address = listener->open();
  impl_->listener = std::move(listener);
  impl_->listener->start();
  return address;
}

void Server::run() {
  const unsigned count = worker_count(impl_->config.threads);
  std::vector<std::thread> helpers;
  helpers.reserve(count - 1);
  for (unsigned i = 1; i < count; ++i) helpers.emplace_back([this] { impl_->run_worker(); });
  impl_->run_worker();  // the calling thread is one of the workers
  for (auto& helper : helpers) helper.join();
}

void Server::stop() {
  if (impl_->stop_requested.exchange(true)) return;
  asio::post(impl_->strand, [impl = impl_.get()] { impl->begin_shutdown(); });
}

}  // namespace leadline::http
