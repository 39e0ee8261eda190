// PostgresEngine::ping: a connection of its own with a short connect timeout and a client-side
// deadline on SELECT 1, so a server that is down, unreachable or frozen answers "no" within
// about two seconds instead of holding the probe (a pooled connection could wait much longer).
#include <libpq-fe.h>
#include <poll.h>

#include <chrono>
#include <memory>

#include "store/postgres/postgres_engine.hpp"

namespace leadline::store::postgres {

namespace {

constexpr const char* kPingConnectTimeoutSeconds = "2";  // libpq's smallest useful value
constexpr std::chrono::milliseconds kPingQueryTimeout{2000};

struct ConnCloser {
  void operator()(PGconn* conn) const { PQfinish(conn); }
};

// Waits for the reply of the query sent on `conn` until `deadline`; true when it succeeded.
bool await_reply(PGconn* conn, std::chrono::steady_clock::time_point deadline) {
  while (PQisBusy(conn) != 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd fd{.fd = PQsocket(conn), .events = POLLIN, .revents = 0};
    if (poll(&fd, 1, static_cast<int>(left.count())) <= 0) return false;
    if (PQconsumeInput(conn) == 0) return false;
  }
  bool ok = true;
  while (PGresult* result = PQgetResult(conn)) {
    if (PQresultStatus(result) != PGRES_TUPLES_OK) ok = false;
    PQclear(result);
  }
  return ok;
}

}  // namespace

bool PostgresEngine::ping() {
  // Later entries win over the URL's own parameters: the timeout is the probe's, not the URL's.
  const char* keys[] = {"dbname", "connect_timeout", "application_name", nullptr};
  const char* values[] = {pool_.conninfo().c_str(), kPingConnectTimeoutSeconds, "leadline-ping",
                          nullptr};
  std::unique_ptr<PGconn, ConnCloser> conn(PQconnectdbParams(keys, values, 1));
  if (!conn || PQstatus(conn.get()) != CONNECTION_OK) return false;
  if (PQsendQuery(conn.get(), "SELECT 1") == 0) return false;
  return await_reply(conn.get(), std::chrono::steady_clock::now() + kPingQueryTimeout);
}

}  // namespace leadline::store::postgres
