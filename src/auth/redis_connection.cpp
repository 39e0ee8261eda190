// hiredis behind RedisConnection: a failed context is never reused, error replies are values.
#include "auth/redis_connection.hpp"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <cerrno>
#include <string>

namespace leadline::auth {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

RedisReply copy_reply(const redisReply& reply) {
  RedisReply out;
  switch (reply.type) {
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::kInteger;
      out.integer = reply.integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
      out.kind = RedisReply::Kind::kText;
      out.text.assign(reply.str, reply.len);
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::kArray;
      out.elements.reserve(reply.elements);
      for (std::size_t i = 0; i < reply.elements; ++i) {
        out.elements.push_back(copy_reply(*reply.element[i]));
      }
      break;
    default:
      break;
  }
  return out;
}

struct FreeReply {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};

}  // namespace

std::variant<std::unique_ptr<RedisConnection>, RedisError> RedisConnection::open(
    const RedisEndpoint& endpoint, const RedisTimeouts& timeouts) {
  redisContext* context =
      redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, to_timeval(timeouts.connect));
  constexpr auto kLost = RedisError::Kind::kConnectionLost;
  if (context == nullptr) return RedisError{kLost, "cannot allocate a Redis connection"};
  std::unique_ptr<RedisConnection> connection(new RedisConnection(context));
  if (context->err != 0) return RedisError{kLost, context->errstr};
  if (redisSetTimeout(context, to_timeval(timeouts.command)) != REDIS_OK) {
    return RedisError{kLost, "cannot set the command timeout"};
  }

  if (!endpoint.password.empty()) {
    auto auth = connection->run({"AUTH", endpoint.password});
    if (auto* e = std::get_if<RedisError>(&auth)) return RedisError{kLost, "AUTH: " + e->message};
  }
  if (endpoint.database != 0) {
    const std::string database = std::to_string(endpoint.database);
    auto select = connection->run({"SELECT", database});
    if (auto* e = std::get_if<RedisError>(&select)) {
      return RedisError{kLost, "SELECT " + database + ": " + e->message};
    }
  }
  return connection;
}

RedisConnection::~RedisConnection() {
  redisFree(context_);
}

std::variant<RedisReply, RedisError> RedisConnection::run(
    std::initializer_list<std::string_view> args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  argv.reserve(args.size());
  lengths.reserve(args.size());
  for (const std::string_view arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  std::unique_ptr<redisReply, FreeReply> reply(static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data())));
  if (!reply) {
    // A blocking hiredis context reports its read timeout as EAGAIN, whose text ("Resource
    // temporarily unavailable") would puzzle an operator.
    if (context_->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return RedisError{RedisError::Kind::kTimedOut, "no answer within the command timeout"};
    }
    return RedisError{RedisError::Kind::kConnectionLost, context_->errstr};
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    return RedisError{RedisError::Kind::kErrorReply, std::string(reply->str, reply->len)};
  }
  return copy_reply(*reply);
}

}  // namespace leadline::auth
