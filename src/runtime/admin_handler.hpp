// The admin listener's handler (--admin-listen): GET /healthz (the process runs), GET /readyz
// (the database and, when configured, Redis answer) and GET /metrics (Prometheus text).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "http/request.hpp"

namespace leadline::runtime {

struct AdminProbes {
  std::function<bool()> database;  // true when the database answers a trivial query
  // Why Redis cannot be used now, nothing when it answers; unset when Redis is not configured.
  std::function<std::optional<std::string>()> redis;
  std::function<std::string()> metrics;  // the whole exposition text
};

class AdminHandler final : public http::Handler {
 public:
  explicit AdminHandler(AdminProbes probes) : probes_(std::move(probes)) {}

  void handle(const http::Request& request, http::Response& response) override;
  void render_refusal(const http::Refusal& refusal, const http::Request* head,
                      http::Response& response) override;

 private:
  void ready(http::Response& response);

  AdminProbes probes_;
};

}  // namespace leadline::runtime
