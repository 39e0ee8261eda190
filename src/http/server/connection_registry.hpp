// The open connections: counts them against max_connections at accept time and lets stop()
// reach every one, including idle keep-alive connections blocked in a read.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>

namespace leadline::http {

class Connection;

class ConnectionRegistry {
 public:
  using Entry = std::list<std::weak_ptr<Connection>>::iterator;

  // Takes a slot for a newly accepted connection; false at the limit or once stopping began.
  // Called synchronously by the accept loop so that the limit is exact.
  bool try_admit(std::size_t max_connections);

  // Makes an admitted connection reachable by stop_all(). False once stopping began, so that
  // no connection slips in after stop_all() took its snapshot.
  bool enlist(std::weak_ptr<Connection> connection, Entry& entry);

  // Gives the slot back (and drops the entry, when the connection was enlisted).
  void leave(const Entry* entry);

  std::size_t open_connections() const;
  bool stopping() const { return stopping_.load(); }

  // Marks the registry as stopping and asks every enlisted connection to wind down.
  void stop_all();

  // Called (outside the lock) when the last connection leaves after stopping began, so the
  // server can stop waiting early. An empty function disarms it.
  void on_drained(std::function<void()> callback);

 private:
  mutable std::mutex mutex_;
  std::size_t open_ = 0;
  std::list<std::weak_ptr<Connection>> enlisted_;
  std::atomic<bool> stopping_{false};  // read on every response, without the lock
  std::function<void()> on_drained_;
};

}  // namespace leadline::http
