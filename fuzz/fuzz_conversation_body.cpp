// Fuzzes conversation PATCH bodies: bytes -> strict JSON parse -> the conversation patch decoder,
// checking that whatever it accepts has canonical ids and normalized tags.
#include "api/record_bodies.hpp"
#include "body_checks.hpp"

using namespace leadline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto body = fuzz::parse_body(fuzz::as_text(data, size));
  if (!body) return 0;

  fuzz::check_decoded(
      api::decode_conversation_patch(*body), [](const domain::ConversationPatch& patch) {
        fuzz::check_update(patch.agent_id, [](const auto& id) { fuzz::check_id(id.value); });
        fuzz::check_update(patch.department_id, [](const auto& id) { fuzz::check_id(id.value); });
        if (patch.tags) fuzz::check_tags(*patch.tags);
      });
  return 0;
}
