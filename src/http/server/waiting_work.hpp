// Where the server runs requests whose handling waits (Handler::waiting), off its I/O threads.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include "fibers/fiber_thread.hpp"

namespace leadline::http {

struct WaitingWork {
  boost::asio::thread_pool& blocking_pool;  // Waiting::kBlocking: a thread each while they wait
  fibers::FiberThread& fibers;              // Waiting::kSuspending: a fiber each, one thread
};

}  // namespace leadline::http
