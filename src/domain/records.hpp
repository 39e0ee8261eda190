// The record types the service stores and returns. Plain data; the rules live beside them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/field_update.hpp"
#include "domain/ids.hpp"
#include "domain/pipeline_stage.hpp"
#include "domain/timestamp.hpp"

namespace leadline::domain {

using Tags = std::vector<std::string>;

struct Workspace {
  WorkspaceId id;
  std::string name;
  Timestamp created_at;
};

// A sales rep (leads) or a chat agent (conversations): the same person-shaped record.
struct Person {
  std::string id;
  std::string first_name;
  std::string last_name;
  std::string email;
  Timestamp created_at;
};

struct Department {
  DepartmentId id;
  std::string name;
  Timestamp created_at;
};

struct RepSummary {
  std::string first_name;
  std::string last_name;
  std::string email;
};

struct Lead {
  LeadId id;
  std::string visitor_name;
  std::optional<std::string> visitor_email;
  std::optional<std::string> visitor_phone;
  std::optional<std::string> visitor_company;
  PipelineStage pipeline_stage = PipelineStage::kNew;
  std::string need_summary;
  Tags tags;
  std::string source = "api";
  std::optional<double> expected_billing_amount;
  std::optional<double> lead_score;
  std::optional<RepId> assigned_rep_id;
  std::optional<RepSummary> rep;  // filled on reads when assigned
  Timestamp created_at;
  Timestamp updated_at;
};

struct NewLead {
  std::string visitor_name;
  std::optional<std::string> visitor_email;
  std::optional<std::string> visitor_phone;
  std::optional<std::string> visitor_company;
  PipelineStage pipeline_stage = PipelineStage::kNew;
  std::string need_summary;
  Tags tags;
  std::string source = "api";
  std::optional<double> expected_billing_amount;
  // Only the import path sets these two.
  std::optional<double> lead_score;
  std::optional<Timestamp> created_at;
};

struct LeadPatch {
  std::optional<PipelineStage> pipeline_stage;
  FieldUpdate<RepId> assigned_rep_id;
  std::optional<std::string> visitor_name;
  FieldUpdate<std::string> visitor_email;
  FieldUpdate<std::string> visitor_phone;
  FieldUpdate<std::string> visitor_company;
  FieldUpdate<std::string> need_summary;  // clear = ""
  std::optional<Tags> tags;
  FieldUpdate<double> expected_billing_amount;
};

struct Contact {
  ContactId id;
  std::string first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> company_name;
  std::optional<std::string> avatar_url;
  Tags tags;
  std::string profile_notes;
  std::string interest_summary;
  Timestamp last_activity;
  Timestamp created_at;
  Timestamp updated_at;
  std::int64_t conversation_count = 0;
  std::optional<Timestamp> last_conversation_at;
};

struct NewContact {
  std::string first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> company_name;
  Tags tags;
  std::string profile_notes;
  std::optional<std::string> metadata_json;  // serialized JSON object, create only
  std::optional<Timestamp> created_at;       // import only
};

struct ContactPatch {
  std::optional<std::string> first_name;
  FieldUpdate<std::string> last_name;
  FieldUpdate<std::string> email;
  FieldUpdate<std::string> phone;
  FieldUpdate<std::string> company_name;
  std::optional<Tags> tags;
  FieldUpdate<std::string> profile_notes;  // clear = ""
};

struct Message {
  MessageId id;
  std::string sender_type;
  std::string content;
  std::optional<std::string> attachments_json;  // serialized JSON array, or null
  std::string status;
  Timestamp created_at;
  std::optional<std::string> sender_name;
};

// A conversation as list items show it, plus what get-one adds.
struct Conversation {
  ConversationId id;
  std::string source;
  ConversationStatus status = ConversationStatus::kOpen;
  Tags tags;
  Timestamp created_at;
  Timestamp updated_at;
  std::optional<AgentId> agent_id;
  std::optional<DepartmentId> department_id;
  std::optional<std::string> visitor_name;
  std::optional<std::string> visitor_last_name;
  std::optional<std::string> visitor_email;
  std::optional<std::string> visitor_phone;
  std::optional<std::string> visitor_company;
  std::optional<std::string> agent_name;
  std::optional<std::string> agent_last_name;
  std::optional<std::string> agent_email;
  std::optional<std::string> last_message;
  std::int64_t message_count = 0;
};

struct ConversationWithMessages {
  Conversation conversation;
  std::vector<Message> messages;
};

struct ConversationPatch {
  std::optional<ConversationStatus> status;
  FieldUpdate<AgentId> agent_id;
  FieldUpdate<DepartmentId> department_id;
  std::optional<Tags> tags;
};

struct ConversationPatchResult {
  ConversationId id;
  ConversationStatus status;
  Tags tags;
  Timestamp updated_at;
};

// Conversation intake through `leadline import`.
struct NewMessage {
  std::string sender_type;
  std::string content;
  std::optional<std::string> attachments_json;
  std::string status;
  Timestamp created_at;
  std::optional<std::string> sender_name;
};

struct NewConversation {
  std::string source;
  ConversationStatus status = ConversationStatus::kOpen;
  Tags tags;
  std::optional<Timestamp> created_at;
  std::optional<NewContact> visitor;  // matched by e-mail, else created
  std::optional<AgentId> agent_id;
  std::optional<DepartmentId> department_id;
  std::vector<NewMessage> messages;
};

}  // namespace leadline::domain
