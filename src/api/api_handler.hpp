// The external interface as an http::Handler: routing, authentication and limits in the order
// of the contract, then the resource operation, with every answer in the JSON envelope.
#pragma once

#include <memory>

#include "api/request_facts.hpp"
#include "api/resource_context.hpp"
#include "auth/authenticator.hpp"
#include "auth/rate_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "http/request.hpp"
#include "store/database.hpp"

namespace leadline::api {

class ApiHandler final : public http::Handler {
 public:
  ApiHandler(store::Database& db, auth::Authenticator& authenticator, auth::RateLimiter& limiter,
             auth::UsageRecorder& usage, WebhookRules webhooks = {});
  ~ApiHandler() override;

  void handle(const http::Request& request, http::Response& response) override;
  // The same, also telling what the request was (route, key, workspace, and the failure behind
  // a 500 or 503, which this handler does not log itself) for the request log and metrics.
  void handle(const http::Request& request, http::Response& response, RequestFacts& facts);
  void render_refusal(const http::Refusal& refusal, const http::Request* head,
                      http::Response& response) override;
  // The same, also telling the request id and the sentence, for the request log.
  void render_refusal(const http::Refusal& refusal, const http::Request* head,
                      http::Response& response, RequestFacts& facts);
  // Writes wait for their durable commit, which the store shares among concurrent writers.
  http::Waiting waiting(const http::Request& request) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::api
