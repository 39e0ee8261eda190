// Row -> record readers shared by both backends. A Row is any type with the column accessors
// text, opt_text, opt_real, int64 and is_null; each reader names the column order it expects.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "domain/records.hpp"
#include "domain/timestamp.hpp"
#include "store/json_string_array.hpp"
#include "store/record_patches.hpp"
#include "store/store.hpp"

namespace leadline::store {

template <class Row>
domain::Timestamp read_timestamp(const Row& row, int col) {
  return {row.int64(col)};
}

template <class Row>
std::optional<domain::Timestamp> read_opt_timestamp(const Row& row, int col) {
  if (row.is_null(col)) return std::nullopt;
  return domain::Timestamp{row.int64(col)};
}

inline domain::PipelineStage stored_pipeline_stage(const std::string& text) {
  const auto stage = domain::parse_pipeline_stage(text);
  if (!stage) throw std::runtime_error("stored lead has unknown pipeline_stage " + text);
  return *stage;
}

inline domain::ConversationStatus stored_conversation_status(const std::string& text) {
  const auto status = domain::parse_conversation_status(text);
  if (!status) throw std::runtime_error("stored conversation has unknown status " + text);
  return *status;
}

// Columns as in kLeadColumns.
template <class Row>
domain::Lead read_lead(const Row& row) {
  domain::Lead l;
  l.id.value = row.text(0);
  l.visitor_name = row.text(1);
  l.visitor_email = row.opt_text(2);
  l.visitor_phone = row.opt_text(3);
  l.visitor_company = row.opt_text(4);
  l.pipeline_stage = stored_pipeline_stage(row.text(5));
  l.need_summary = row.text(6);
  l.tags = decode_string_array(row.text(7));
  l.source = row.text(8);
  l.expected_billing_amount = row.opt_real(9);
  l.lead_score = row.opt_real(10);
  if (!row.is_null(11)) {
    l.assigned_rep_id = domain::RepId{row.text(11)};
    if (!row.is_null(12)) l.rep = domain::RepSummary{row.text(12), row.text(13), row.text(14)};
  }
  l.created_at = read_timestamp(row, 15);
  l.updated_at = read_timestamp(row, 16);
  return l;
}

// Columns: id, first_name, last_name, email, phone, company_name, tags, profile_notes,
// last_activity, created_at, updated_at, conversation count, last conversation time.
template <class Row>
domain::Contact read_contact(const Row& row) {
  domain::Contact c;
  c.id.value = row.text(0);
  c.first_name = row.text(1);
  c.last_name = row.opt_text(2);
  c.email = row.opt_text(3);
  c.phone = row.opt_text(4);
  c.company_name = row.opt_text(5);
  c.tags = decode_string_array(row.text(6));
  c.profile_notes = row.text(7);
  c.last_activity = read_timestamp(row, 8);
  c.created_at = read_timestamp(row, 9);
  c.updated_at = read_timestamp(row, 10);
  c.conversation_count = row.int64(11);
  c.last_conversation_at = read_opt_timestamp(row, 12);
  return c;
}

// Columns: id, source, status, tags, created_at, updated_at, agent_id, department_id, the
// contact's first, last, e-mail, phone and company, the agent's first, last and e-mail, the
// last message's content, the message count.
template <class Row>
domain::Conversation read_conversation(const Row& row) {
  domain::Conversation c;
  c.id.value = row.text(0);
  c.source = row.text(1);
  c.status = stored_conversation_status(row.text(2));
  c.tags = decode_string_array(row.text(3));
  c.created_at = read_timestamp(row, 4);
  c.updated_at = read_timestamp(row, 5);
  if (!row.is_null(6)) c.agent_id = domain::AgentId{row.text(6)};
  if (!row.is_null(7)) c.department_id = domain::DepartmentId{row.text(7)};
  c.visitor_name = row.opt_text(8);
  c.visitor_last_name = row.opt_text(9);
  c.visitor_email = row.opt_text(10);
  c.visitor_phone = row.opt_text(11);
  c.visitor_company = row.opt_text(12);
  c.agent_name = row.opt_text(13);
  c.agent_last_name = row.opt_text(14);
  c.agent_email = row.opt_text(15);
  c.last_message = row.opt_text(16);
  c.message_count = row.int64(17);
  return c;
}

// Columns: id, sender_type, content, attachments, status, created_at, sender_name.
template <class Row>
domain::Message read_message(const Row& row) {
  domain::Message m;
  m.id.value = row.text(0);
  m.sender_type = row.text(1);
  m.content = row.text(2);
  m.attachments_json = row.opt_text(3);
  m.status = row.text(4);
  m.created_at = read_timestamp(row, 5);
  m.sender_name = row.opt_text(6);
  return m;
}

// Columns: status, tags, agent_id, department_id, updated_at.
template <class Row>
ConversationFields read_conversation_patchable(const Row& row) {
  ConversationFields f{stored_conversation_status(row.text(0)), decode_string_array(row.text(1)),
                       std::nullopt, std::nullopt, read_timestamp(row, 4)};
  if (!row.is_null(2)) f.agent_id = domain::AgentId{row.text(2)};
  if (!row.is_null(3)) f.department_id = domain::DepartmentId{row.text(3)};
  return f;
}

// Columns as in kKeyColumns.
template <class Row>
ApiKeyRecord read_key(const Row& row) {
  ApiKeyRecord k;
  k.id.value = row.text(0);
  k.workspace_id.value = row.text(1);
  k.name = row.text(2);
  k.prefix = row.text(3);
  k.scopes = static_cast<unsigned>(row.int64(4));
  k.allowed_ips = decode_string_array(row.text(5));
  k.created_at = read_timestamp(row, 6);
  k.revoked_at = read_opt_timestamp(row, 7);
  return k;
}

// Columns: id, name, created_at.
template <class Row>
domain::Workspace read_workspace(const Row& row) {
  return {{row.text(0)}, row.text(1), read_timestamp(row, 2)};
}

}  // namespace leadline::store
