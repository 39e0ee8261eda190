// Unit tests of import line decoding: the import-only fields, the conversation shape, and
// error sentences that name the field at fault.
#include <gtest/gtest.h>

#include "cli/import_line.hpp"

namespace leadline::cli {
namespace {

template <class T>
T decoded(std::string_view line) {
  auto result = decode_import_line(line);
  if (const auto* bad = api::failed(result)) ADD_FAILURE() << bad->message;
  const auto* record = std::get_if<ImportRecord>(&result);
  if (record == nullptr || !std::holds_alternative<T>(*record)) return T{};
  return std::get<T>(*record);
}

std::string error_of(std::string_view line) {
  const auto result = decode_import_line(line);
  const auto* bad = api::failed(result);
  return bad == nullptr ? "<accepted>" : bad->message;
}

TEST(CliImportLine, LeadTakesScoreAndCreationTime) {
  const auto lead = decoded<domain::NewLead>(
      R"({"type":"lead","visitor_name":"Zoë","lead_score":42,"created_at":"2026-11-01T10:00:00.000Z"})");
  EXPECT_EQ(lead.visitor_name, "Zoë");
  EXPECT_EQ(lead.lead_score, 42.0);
  ASSERT_TRUE(lead.created_at.has_value());
  EXPECT_EQ(domain::format_iso8601(*lead.created_at), "2026-11-01T10:00:00.000Z");
}

TEST(CliImportLine, MissingCreationTimeMeansNow) {
  const auto contact = decoded<domain::NewContact>(R"({"type":"contact","first_name":"Ada"})");
  EXPECT_EQ(contact.first_name, "Ada");
  EXPECT_FALSE(contact.created_at.has_value());
}

TEST(CliImportLine, ConversationWithVisitorAndMessages) {
  const auto conversation = decoded<domain::NewConversation>(
      R"({"type":"conversation","source":"widget","status":"pending","tags":[" vip","vip"],)"
      R"("created_at":"2026-11-01T10:00:00.000Z","visitor":{"first_name":"Ada","email":"ada@x.io"},)"
      R"("agent_id":"0190A3B2-0000-7000-8000-000000000001","department_id":null,)"
      R"("messages":[{"sender_type":"visitor","content":"Hi","attachments":[{"n":1}],)"
      R"("created_at":"2026-11-01T10:00:01.000Z","sender_name":"Ada"},)"
      R"({"sender_type":"bot","content":"Hello","status":"sent","created_at":"2026-11-01T10:00:02Z"}]})");
  EXPECT_EQ(conversation.source, "widget");
  EXPECT_EQ(conversation.status, domain::ConversationStatus::kPending);
  EXPECT_EQ(conversation.tags, (domain::Tags{"vip"}));
  ASSERT_TRUE(conversation.visitor.has_value());
  EXPECT_EQ(conversation.visitor->email, "ada@x.io");
  EXPECT_EQ(conversation.visitor->created_at, conversation.created_at);
  ASSERT_TRUE(conversation.agent_id.has_value());
  EXPECT_EQ(conversation.agent_id->value, "0190a3b2-0000-7000-8000-000000000001");
  EXPECT_FALSE(conversation.department_id.has_value());
  ASSERT_EQ(conversation.messages.size(), 2u);
  EXPECT_EQ(conversation.messages[0].attachments_json, R"([{"n":1}])");
  EXPECT_EQ(conversation.messages[0].status, "delivered");
  EXPECT_EQ(conversation.messages[0].sender_name, "Ada");
  EXPECT_EQ(conversation.messages[1].status, "sent");
  EXPECT_FALSE(conversation.messages[1].sender_name.has_value());
  EXPECT_FALSE(conversation.messages[1].attachments_json.has_value());
}

// Attachments are returned by the API as stored, so their numbers are stored in the API's form.
TEST(CliImportLine, AttachmentNumbersKeepThePlainForm) {
  const auto conversation = decoded<domain::NewConversation>(
      R"({"type":"conversation","source":"widget","messages":[{"sender_type":"visitor",)"
      R"("content":"Hi","attachments":[{"size":0.5,"pages":1e2}],"status":"sent",)"
      R"("created_at":"2026-11-01T10:00:01.000Z"}]})");
  EXPECT_EQ(conversation.messages.at(0).attachments_json, R"([{"size":0.5,"pages":100}])");
}

TEST(CliImportLine, ConversationDefaults) {
  const auto conversation =
      decoded<domain::NewConversation>(R"({"type":"conversation","source":"email"})");
  EXPECT_EQ(conversation.status, domain::ConversationStatus::kOpen);
  EXPECT_TRUE(conversation.tags.empty());
  EXPECT_FALSE(conversation.visitor.has_value());
  EXPECT_TRUE(conversation.messages.empty());
}

// The body's sentence, said of the line: the byte offset counts from the line's start.
TEST(CliImportLine, BadJsonNamesTheByteAndWhatWasExpected) {
  EXPECT_EQ(error_of(R"({"type":"lead" "visitor_name":"x"})"),
            "the line is not valid JSON at byte 15: expected ',' or '}'");
  EXPECT_EQ(error_of(R"({"type":"lead","visitor_name":"x")"),
            "the line is not valid JSON at byte 33: expected ',' or '}', but the line ends there");
}

TEST(CliImportLine, ErrorsNameTheField) {
  EXPECT_EQ(error_of(R"({"visitor_name":"x"})"),
            "type is required (lead, contact or conversation)");
  EXPECT_EQ(error_of(R"({"type":"deal"})"), "type must be one of lead, contact, conversation");
  EXPECT_EQ(error_of(R"({"type":"lead","visitor_name":"x","lead_score":"9"})"),
            "lead_score must be a number or null");
  EXPECT_EQ(error_of(R"({"type":"conversation","source":"w","created_at":"soon"})"),
            "created_at must be an ISO 8601 timestamp such as 2026-11-01T10:00:00.000Z");
  EXPECT_EQ(error_of(R"({"type":"conversation","source":"w","status":"all"})"),
            "status must be one of open, pending, active, archived");
  EXPECT_EQ(error_of(R"({"type":"conversation","source":"w","extra":1})"), "unknown field 'extra'");
  EXPECT_EQ(error_of(R"({"type":"conversation","source":"w","agent_id":"42"})"),
            "agent_id must be a UUID or null");
  EXPECT_EQ(error_of(R"({"type":"conversation","source":"w","messages":[{"sender_type":"bot",)"
                     R"("content":"x"}]})"),
            "messages[0]: created_at is required");
  EXPECT_EQ(error_of(R"({"type":"conversation"})"), "source is required");
  EXPECT_NE(error_of(R"({"type":"conversation","source":"w","visitor":{}})").find("visitor: "),
            std::string::npos);
  EXPECT_NE(error_of(R"({"type":"contact","first_name":"x","lead_score":1})").find("lead_score"),
            std::string::npos);
}

}  // namespace
}  // namespace leadline::cli
