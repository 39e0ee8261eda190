// What a PATCH does to a record, the same for every backend: which fields it sets, whether
// anything changed, and how updated_at moves.
#pragma once

#include <algorithm>
#include <optional>

#include "domain/records.hpp"

namespace leadline::store {

domain::Lead apply_patch(domain::Lead lead, const domain::LeadPatch& patch);
// The fields a PATCH can change; updated_at moves only when one of them differs.
bool same_patchable_fields(const domain::Lead& a, const domain::Lead& b);

domain::Contact apply_patch(domain::Contact contact, const domain::ContactPatch& patch);
bool same_patchable_fields(const domain::Contact& a, const domain::Contact& b);

// The part of a conversation a PATCH can change, plus its updated_at.
struct ConversationFields {
  domain::ConversationStatus status;
  domain::Tags tags;
  std::optional<domain::AgentId> agent_id;
  std::optional<domain::DepartmentId> department_id;
  domain::Timestamp updated_at;
  // updated_at left out: it is what a change moves.
  friend bool operator==(const ConversationFields& a, const ConversationFields& b) {
    return a.status == b.status && a.tags == b.tags && a.agent_id == b.agent_id &&
           a.department_id == b.department_id;
  }
};

ConversationFields apply_patch(ConversationFields fields, const domain::ConversationPatch& patch);

// A changing PATCH must move updated_at forward even when the clock has not (same
// millisecond) or has gone back, or when the record was imported with a future time.
inline domain::Timestamp advance_updated_at(domain::Timestamp old, domain::Timestamp now) {
  return {std::max(now.unix_ms, old.unix_ms + 1)};
}

}  // namespace leadline::store
