// The webhook delivery workers inside `serve`: a dispatcher claims due deliveries from the
// database (shared with every other instance), a pool of senders attempts them with libcurl,
// and each attempt's outcome is recorded with the retry that follows (docs/webhooks.md).
#pragma once

#include <memory>

#include "domain/clock.hpp"
#include "observability/logger.hpp"
#include "runtime/runtime_config.hpp"
#include "store/database.hpp"

namespace leadline::runtime {

class DeliveryWorkers {
 public:
  // Starts config.workers senders (none when 0).
  DeliveryWorkers(store::Database& db, const WebhookConfig& config, const domain::Clock& clock,
                  const observability::Logger& logger);
  // Stops claiming, lets attempts in flight finish, and joins every thread.
  ~DeliveryWorkers();
  DeliveryWorkers(const DeliveryWorkers&) = delete;
  DeliveryWorkers& operator=(const DeliveryWorkers&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace leadline::runtime
