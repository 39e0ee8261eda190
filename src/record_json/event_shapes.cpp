// Event bodies and the previous_attributes of updates. The diff lists the fields a PATCH body
// can carry; derived fields (updated_at, the rep's and agent's names, counts) never appear.
#include "record_json/event_shapes.hpp"

#include "record_json/json_writer.hpp"
#include "record_json/record_shapes.hpp"

namespace leadline::record_json {

namespace {

template <class Write>
std::string written(Write&& write) {
  std::string out;
  JsonWriter w(out);
  write(w);
  return out;
}

template <class Tag>
std::optional<std::string> id_text(const std::optional<domain::Id<Tag>>& id) {
  if (!id) return std::nullopt;
  return id->value;
}

// Collects the fields whose values differ, with their earlier value.
class Diff {
 public:
  Diff() : w_(out_) { w_.begin_object(); }

  template <class T>
  Diff& field(std::string_view name, const T& before, const T& after) {
    if (!(before == after)) {
      w_.field(name, before);
      any_ = true;
    }
    return *this;
  }

  std::string take() {
    if (!any_) return {};
    w_.end_object();
    return std::move(out_);
  }

 private:
  std::string out_;
  JsonWriter w_;
  bool any_ = false;
};

}  // namespace

std::string event_body(std::string_view id, std::string_view type, domain::Timestamp at,
                       std::string_view data, std::string_view previous_attributes) {
  return written([&](JsonWriter& w) {
    w.begin_object().field("id", id).field("type", type).key("timestamp").timestamp(at);
    w.key("data").raw(data);
    if (!previous_attributes.empty()) w.key("previous_attributes").raw(previous_attributes);
    w.end_object();
  });
}

std::string lead_data(const domain::Lead& lead) {
  return written([&](JsonWriter& w) { write_lead_item(w, lead); });
}

std::string contact_data(const domain::Contact& contact) {
  return written([&](JsonWriter& w) { write_contact_item(w, contact); });
}

std::string conversation_data(const domain::Conversation& conversation) {
  return written([&](JsonWriter& w) { write_conversation_item(w, conversation); });
}

std::string message_data(const domain::ConversationId& conversation, const domain::Message& m) {
  return written([&](JsonWriter& w) {
    w.begin_object().field("conversation_id", conversation.value).key("message");
    write_message(w, m);
    w.end_object();
  });
}

std::string previous_attributes(const domain::Lead& before, const domain::Lead& after) {
  return Diff()
      .field("visitor_name", before.visitor_name, after.visitor_name)
      .field("visitor_email", before.visitor_email, after.visitor_email)
      .field("visitor_phone", before.visitor_phone, after.visitor_phone)
      .field("visitor_company", before.visitor_company, after.visitor_company)
      .field("pipeline_stage", std::string(domain::to_string(before.pipeline_stage)),
             std::string(domain::to_string(after.pipeline_stage)))
      .field("need_summary", before.need_summary, after.need_summary)
      .field("tags", before.tags, after.tags)
      .field("expected_billing_amount", before.expected_billing_amount,
             after.expected_billing_amount)
      .field("assigned_rep_id", id_text(before.assigned_rep_id), id_text(after.assigned_rep_id))
      .take();
}

std::string previous_attributes(const domain::Contact& before, const domain::Contact& after) {
  return Diff()
      .field("first_name", before.first_name, after.first_name)
      .field("last_name", before.last_name, after.last_name)
      .field("email", before.email, after.email)
      .field("phone", before.phone, after.phone)
      .field("company_name", before.company_name, after.company_name)
      .field("tags", before.tags, after.tags)
      .field("profile_notes", before.profile_notes, after.profile_notes)
      .take();
}

std::string previous_attributes(const domain::Conversation& before,
                                const domain::Conversation& after) {
  return Diff()
      .field("status", std::string(domain::to_string(before.status)),
             std::string(domain::to_string(after.status)))
      .field("tags", before.tags, after.tags)
      .field("agent_id", id_text(before.agent_id), id_text(after.agent_id))
      .field("department_id", id_text(before.department_id), id_text(after.department_id))
      .take();
}

}  // namespace leadline::record_json
