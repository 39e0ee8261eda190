// Typed record ids: a LeadId cannot be passed where a ContactId is expected. Values are
// canonical lowercase UUID strings; parse them once at the edge with domain::parse_uuid.
#pragma once

#include <compare>
#include <string>

namespace leadline::domain {

template <class Tag>
struct Id {
  std::string value;
  friend auto operator<=>(const Id&, const Id&) = default;
};

using WorkspaceId = Id<struct WorkspaceTag>;
using LeadId = Id<struct LeadTag>;
using ContactId = Id<struct ContactTag>;
using ConversationId = Id<struct ConversationTag>;
using MessageId = Id<struct MessageTag>;
using RepId = Id<struct RepTag>;
using AgentId = Id<struct AgentTag>;
using DepartmentId = Id<struct DepartmentTag>;
using ApiKeyId = Id<struct ApiKeyTag>;
using EventId = Id<struct EventTag>;
using WebhookId = Id<struct WebhookTag>;
using DeliveryId = Id<struct DeliveryTag>;

}  // namespace leadline::domain
