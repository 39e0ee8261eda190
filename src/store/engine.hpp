// A database engine as the stores see it: how a unit of work gets a connection and a
// transaction. One implementation per engine (sqlite/, postgres/); SQL is not its business.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "store/sql/connection.hpp"

namespace leadline::store {

// The database cannot be reached or dropped the connection ("database unavailable: <why>").
// The call had no effect unless the connection dropped while its commit was under way; a later
// call connects again. The request boundary answers it with 503.
class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A borrowed callable bool(sql::Connection&): the work an engine runs. Borrowed rather than a
// std::function so that handing work to the engine never allocates.
class Work {
 public:
  // `f` must outlive the Work: true of a lambda passed straight to Engine::run.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, Work>>>
  Work(F&& f)  // NOLINT(google-explicit-constructor): lambdas convert at every call site
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, sql::Connection& c) -> bool {
          return (*static_cast<std::remove_reference_t<F>*>(o))(c);
        }) {}

  bool operator()(sql::Connection& conn) const { return call_(object_, conn); }

 private:
  void* object_;
  bool (*call_)(void*, sql::Connection&);
};

enum class Access {
  kRead,      // one statement; no transaction needed
  kSnapshot,  // several statements that must see one consistent snapshot
  kWrite,     // one transaction; run() returns once it is durable
};

// A connection pool's connections at one moment, for the metrics.
struct PoolCounts {
  std::size_t idle = 0;
  std::size_t in_use = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Runs `work` on a connection with the discipline `access` asks for. For kWrite, `work`
  // returning false undoes its own changes (and nobody else's); an exception from `work` does
  // too, and is rethrown. Work may run more than once when the engine retries a transaction
  // that the database aborted (a deadlock), so it must not keep state across attempts.
  virtual void run(Access access, Work work) = 0;

  // Whether the database answers a trivial query now, within a few seconds at most (readiness
  // probes). Never throws.
  virtual bool ping() = 0;

  // Readies, before a server listens, what its first requests would otherwise wait for: on a
  // database server, the pool's connections opened and their catalog caches filled. Best effort:
  // never throws; what it could not do is done by the first requests, as without it.
  virtual void warm_up() {}

  // The pool's connections now; nothing for an engine that does not count them.
  virtual std::optional<PoolCounts> pool_counts() { return std::nullopt; }

  // True when every call waits on a network round trip (a database server): the server then
  // runs more worker threads than cores.
  virtual bool remote() const { return false; }

  // True when a write's only wait is for its commit and that wait suspends a fiber rather than
  // its thread (fibers/suspension.hpp): the server then runs writes on its fiber thread.
  virtual bool writes_suspend() const { return false; }
};

}  // namespace leadline::store
