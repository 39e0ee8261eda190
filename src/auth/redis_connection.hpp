// One blocking hiredis connection with connect and command timeouts; replies are copied out of
// hiredis so that no caller touches its memory.
#pragma once

#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "auth/redis_url.hpp"

struct redisContext;

namespace leadline::auth {

struct RedisReply {
  enum class Kind { kNil, kInteger, kText, kArray };  // kText: bulk strings and status replies
  Kind kind = Kind::kNil;
  long long integer = 0;
  std::string text;
  std::vector<RedisReply> elements;
};

// Why a command got no reply. After anything but an error reply ("NOSCRIPT …") the
// RedisConnection is useless and must be dropped.
struct RedisError {
  enum class Kind { kErrorReply, kConnectionLost, kTimedOut };
  Kind kind = Kind::kConnectionLost;
  std::string message;

  bool connection_lost() const { return kind != Kind::kErrorReply; }
};

struct RedisTimeouts {
  std::chrono::milliseconds connect{200};
  std::chrono::milliseconds command{500};
};

class RedisConnection {
 public:
  // Connects, then authenticates and selects the database as the endpoint asks.
  static std::variant<std::unique_ptr<RedisConnection>, RedisError> open(
      const RedisEndpoint& endpoint, const RedisTimeouts& timeouts);

  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends one command (binary-safe arguments) and waits for its reply.
  std::variant<RedisReply, RedisError> run(std::initializer_list<std::string_view> args);

 private:
  explicit RedisConnection(redisContext* context) : context_(context) {}
  redisContext* context_;
};

}  // namespace leadline::auth
