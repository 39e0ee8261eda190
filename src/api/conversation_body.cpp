// Conversation PATCH body: status, assignment and tags. Conversations are not created here.
#include "api/body_fields.hpp"
#include "api/record_bodies.hpp"

namespace leadline::api {

using namespace body;

Decoded<domain::ConversationPatch> decode_conversation_patch(const json::object& o) {
  domain::ConversationPatch patch;
  Error e;
  if ((e = reject_unknown_fields(o, {"status", "agent_id", "department_id", "tags"})) ||
      (e = conversation_status(o, "status", patch.status)) ||
      (e = id_patch(o, "agent_id", patch.agent_id)) ||
      (e = id_patch(o, "department_id", patch.department_id)) ||
      (e = tags(o, "tags", patch.tags))) {
    return *e;
  }
  return patch;
}

}  // namespace leadline::api
