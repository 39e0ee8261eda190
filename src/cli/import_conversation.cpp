// Conversation and message fields of import lines (README.md, "Operator commands").
#include "cli/import_conversation.hpp"

#include <algorithm>
#include <array>

#include "api/record_bodies.hpp"
#include "cli/import_fields.hpp"
#include "cli/output.hpp"
#include "domain/field_rules.hpp"
#include "domain/pipeline_stage.hpp"

namespace leadline::cli {

namespace json = boost::json;
using api::BadRequest;

namespace {

constexpr std::array<std::string_view, 8> kConversationFields = {
    "source", "status", "tags", "created_at", "visitor", "agent_id", "department_id", "messages"};
constexpr std::array<std::string_view, 6> kMessageFields = {
    "sender_type", "content", "attachments", "status", "created_at", "sender_name"};

template <std::size_t N>
std::optional<BadRequest> reject_unknown(const json::object& object,
                                         const std::array<std::string_view, N>& known,
                                         std::string_view where) {
  for (const auto& field : object) {
    if (std::find(known.begin(), known.end(), field.key()) == known.end()) {
      return BadRequest{std::string(where) + "unknown field '" + std::string(field.key()) + "'"};
    }
  }
  return std::nullopt;
}

// The conversation status rejects null like the API's PATCH does; absent means "open".
api::Decoded<domain::ConversationStatus> decode_status(const json::object& line) {
  const auto* v = line.if_contains("status");
  if (v == nullptr) return domain::ConversationStatus::kOpen;
  const auto* text = v->if_string();
  const auto status = text == nullptr ? std::nullopt : domain::parse_conversation_status(*text);
  if (!status) {
    return BadRequest{"status must be one of " + std::string(domain::kConversationStatusList)};
  }
  return *status;
}

api::Decoded<domain::Tags> decode_tags(const json::object& line) {
  const auto* v = line.if_contains("tags");
  if (v == nullptr) return domain::Tags{};
  const auto* array = v->if_array();
  if (array == nullptr) return BadRequest{"tags must be an array of strings"};
  std::vector<std::string> raw;
  for (const auto& tag : *array) {
    if (!tag.is_string()) return BadRequest{"tags must be an array of strings"};
    raw.emplace_back(tag.get_string());
  }
  auto checked = domain::normalize_tags("tags", raw);
  if (checked.error) return BadRequest{*checked.error};
  return std::move(checked.tags);
}

api::Decoded<std::optional<domain::NewContact>> decode_visitor(const json::object& line) {
  const auto* v = line.if_contains("visitor");
  if (v == nullptr || v->is_null()) return std::optional<domain::NewContact>{};
  if (!v->is_object()) return BadRequest{"visitor must be an object or null"};
  auto contact = api::decode_contact_create(v->get_object());
  if (auto* bad = api::failed(contact)) return BadRequest{"visitor: " + bad->message};
  return std::optional<domain::NewContact>{std::get<domain::NewContact>(std::move(contact))};
}

api::Decoded<domain::NewMessage> decode_message(const json::value& v, const std::string& where) {
  if (!v.is_object()) return BadRequest{where + "must be an object"};
  const auto& object = v.get_object();
  if (auto bad = reject_unknown(object, kMessageFields, where)) return *bad;
  const auto field = [&](std::string_view name) -> const json::value& {
    return member(object, name);
  };
  const auto prefixed = [&](const BadRequest& bad) { return BadRequest{where + bad.message}; };

  domain::NewMessage message;
  auto sender_type = required_string(field("sender_type"), "sender_type");
  if (auto* bad = api::failed(sender_type)) return prefixed(*bad);
  message.sender_type = std::get<std::string>(std::move(sender_type));

  const auto& content = field("content");
  if (content.is_null()) return BadRequest{where + "content is required"};
  if (!content.is_string()) return BadRequest{where + "content must be a string"};
  message.content = std::string(content.get_string());

  const auto& attachments = field("attachments");
  if (!attachments.is_null() && !attachments.is_array()) {
    return BadRequest{where + "attachments must be an array or null"};
  }
  // Stored as written and returned by the API as stored, so numbers take the API's form.
  if (attachments.is_array()) message.attachments_json = render_json(attachments);

  const auto& status = field("status");
  if (status.is_null()) {
    message.status = "delivered";
  } else {
    auto text = required_string(status, "status");
    if (auto* bad = api::failed(text)) return prefixed(*bad);
    message.status = std::get<std::string>(std::move(text));
  }

  auto created_at = required_timestamp(field("created_at"), "created_at");
  if (auto* bad = api::failed(created_at)) return prefixed(*bad);
  message.created_at = std::get<domain::Timestamp>(created_at);

  auto sender_name = optional_string(field("sender_name"), "sender_name");
  if (auto* bad = api::failed(sender_name)) return prefixed(*bad);
  message.sender_name = std::get<std::optional<std::string>>(std::move(sender_name));
  return message;
}

api::Decoded<std::vector<domain::NewMessage>> decode_messages(const json::object& line) {
  const auto* v = line.if_contains("messages");
  if (v == nullptr || v->is_null()) return std::vector<domain::NewMessage>{};
  if (!v->is_array()) return BadRequest{"messages must be an array of objects"};
  std::vector<domain::NewMessage> messages;
  for (std::size_t i = 0; i < v->get_array().size(); ++i) {
    auto message = decode_message(v->get_array()[i], "messages[" + std::to_string(i) + "]: ");
    if (auto* bad = api::failed(message)) return *bad;
    messages.push_back(std::get<domain::NewMessage>(std::move(message)));
  }
  return messages;
}

}  // namespace

api::Decoded<domain::NewConversation> decode_import_conversation(json::object line) {
  if (auto bad = reject_unknown(line, kConversationFields, "")) return *bad;
  const auto field = [&](std::string_view name) -> const json::value& {
    return member(line, name);
  };

  domain::NewConversation conversation;
  auto source = required_string(field("source"), "source");
  if (auto* bad = api::failed(source)) return *bad;
  conversation.source = std::get<std::string>(std::move(source));
  if (auto error =
          domain::check_max_length("source", conversation.source, domain::limits::kLeadSource)) {
    return BadRequest{*error};
  }

  auto status = decode_status(line);
  if (auto* bad = api::failed(status)) return *bad;
  conversation.status = std::get<domain::ConversationStatus>(status);

  auto tags = decode_tags(line);
  if (auto* bad = api::failed(tags)) return *bad;
  conversation.tags = std::get<domain::Tags>(std::move(tags));

  auto created_at = optional_timestamp(field("created_at"), "created_at");
  if (auto* bad = api::failed(created_at)) return *bad;
  conversation.created_at = std::get<std::optional<domain::Timestamp>>(created_at);

  auto visitor = decode_visitor(line);
  if (auto* bad = api::failed(visitor)) return *bad;
  conversation.visitor = std::get<std::optional<domain::NewContact>>(std::move(visitor));
  // A contact created from a visitor dates from its conversation (README.md, "Operator commands").
  if (conversation.visitor) conversation.visitor->created_at = conversation.created_at;

  auto agent_id = optional_uuid(field("agent_id"), "agent_id");
  if (auto* bad = api::failed(agent_id)) return *bad;
  if (auto& id = std::get<std::optional<std::string>>(agent_id)) {
    conversation.agent_id = domain::AgentId{*id};
  }
  auto department_id = optional_uuid(field("department_id"), "department_id");
  if (auto* bad = api::failed(department_id)) return *bad;
  if (auto& id = std::get<std::optional<std::string>>(department_id)) {
    conversation.department_id = domain::DepartmentId{*id};
  }

  auto messages = decode_messages(line);
  if (auto* bad = api::failed(messages)) return *bad;
  conversation.messages = std::get<std::vector<domain::NewMessage>>(std::move(messages));
  return conversation;
}

}  // namespace leadline::cli
