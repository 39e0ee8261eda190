// One import line -> NewLead / NewContact / NewConversation. Leads and contacts go through the
// API create decoders once the import-only fields (created_at, lead_score) are taken out.
#include "cli/import_line.hpp"

#include "api/json_body.hpp"
#include "api/record_bodies.hpp"
#include "cli/import_conversation.hpp"
#include "cli/import_fields.hpp"

namespace leadline::cli {

namespace json = boost::json;
using api::BadRequest;

namespace {

api::Decoded<ImportRecord> decode_lead(json::object line) {
  auto lead_score = optional_number(take_field(line, "lead_score"), "lead_score");
  if (auto* bad = api::failed(lead_score)) return *bad;
  auto created_at = optional_timestamp(take_field(line, "created_at"), "created_at");
  if (auto* bad = api::failed(created_at)) return *bad;
  auto lead = api::decode_lead_create(line);
  if (auto* bad = api::failed(lead)) return *bad;

  auto& decoded = std::get<domain::NewLead>(lead);
  decoded.lead_score = std::get<std::optional<double>>(lead_score);
  decoded.created_at = std::get<std::optional<domain::Timestamp>>(created_at);
  return ImportRecord{std::move(decoded)};
}

api::Decoded<ImportRecord> decode_contact(json::object line) {
  auto created_at = optional_timestamp(take_field(line, "created_at"), "created_at");
  if (auto* bad = api::failed(created_at)) return *bad;
  auto contact = api::decode_contact_create(line);
  if (auto* bad = api::failed(contact)) return *bad;

  auto& decoded = std::get<domain::NewContact>(contact);
  decoded.created_at = std::get<std::optional<domain::Timestamp>>(created_at);
  return ImportRecord{std::move(decoded)};
}

api::Decoded<ImportRecord> decode_object_line(std::string_view text) {
  auto parsed = api::parse_json_object(text);
  if (auto* bad = api::failed(parsed)) return *bad;
  auto& line = std::get<json::object>(parsed);

  const json::value type = take_field(line, "type");
  if (type.is_null()) return BadRequest{"type is required (lead, contact or conversation)"};
  const auto* name = type.if_string();
  if (name != nullptr && *name == "lead") return decode_lead(std::move(line));
  if (name != nullptr && *name == "contact") return decode_contact(std::move(line));
  if (name != nullptr && *name == "conversation") {
    auto conversation = decode_import_conversation(std::move(line));
    if (auto* bad = api::failed(conversation)) return *bad;
    return ImportRecord{std::get<domain::NewConversation>(std::move(conversation))};
  }
  return BadRequest{"type must be one of lead, contact, conversation"};
}

// The API decoders speak of the "request body"; in an import file the thing at fault is the
// line, so their sentences are reworded to say so.
std::string as_line_message(std::string message) {
  const auto replace = [&](std::string_view from, std::string_view to) {
    for (auto at = message.find(from); at != std::string::npos; at = message.find(from, at)) {
      message.replace(at, from.size(), to);
      at += to.size();
    }
  };
  replace(" in request body", "");
  replace("the request body", "the line");
  replace("request body", "the line");
  return message;
}

}  // namespace

api::Decoded<ImportRecord> decode_import_line(std::string_view text) {
  auto record = decode_object_line(text);
  if (auto* bad = api::failed(record)) return BadRequest{as_line_message(bad->message)};
  return record;
}

}  // namespace leadline::cli
