// Webhook endpoints: create (at most 16 per workspace), read, PATCH, delete, list newest first,
// and secret rotation with a 24-hour grace period for the previous secret.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "domain/webhook_records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"

namespace leadline::store {

// The workspace already has kMaxWebhooksPerWorkspace endpoints.
struct TooManyWebhooks {};

class WebhookStore {
 public:
  explicit WebhookStore(OperationRunner& runner) : runner_(runner) {}

  std::variant<domain::WebhookEndpoint, TooManyWebhooks> create(const domain::WorkspaceId& ws,
                                                                const domain::NewWebhook& webhook);
  std::optional<domain::WebhookEndpoint> get(const domain::WorkspaceId& ws,
                                             const domain::WebhookId& id);
  // enabled=false disables with reason "requested"; enabled=true re-enables and clears it.
  std::optional<domain::WebhookEndpoint> update(const domain::WorkspaceId& ws,
                                                const domain::WebhookId& id,
                                                const domain::WebhookPatch& patch);
  // Drops the endpoint's pending deliveries; its delivery history stays in the log.
  bool remove(const domain::WorkspaceId& ws, const domain::WebhookId& id);
  Page<domain::WebhookEndpoint> list(const domain::WorkspaceId& ws, const PageRequest& page);
  // The previous secret keeps signing for kSecretRotationGraceMs. False when there is no such
  // endpoint.
  bool rotate_secret(const domain::WorkspaceId& ws, const domain::WebhookId& id,
                     const std::string& new_secret);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
