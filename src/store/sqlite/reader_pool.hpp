// Read connections handed out one per concurrent reader, so reads never wait for the writer's
// mutex and each connection's statement cache stays warm across requests.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

class ReaderPool {
 public:
  // Keeps at most `max_idle` connections open between uses; more are opened under load and
  // closed when returned.
  ReaderPool(std::string path, std::size_t max_idle);

  // A connection owned by one thread until the lease ends.
  class Lease {
   public:
    Lease(ReaderPool& pool, std::unique_ptr<Connection> conn);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Connection& conn() { return *conn_; }

   private:
    ReaderPool& pool_;
    std::unique_ptr<Connection> conn_;
  };

  Lease acquire();

  const std::string& path() const { return path_; }

 private:
  void give_back(std::unique_ptr<Connection> conn);

  std::string path_;
  std::size_t max_idle_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace leadline::store::sqlite
