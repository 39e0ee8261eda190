// The record a create stores: a fresh time-ordered id and the timestamps a new row starts with.
#pragma once

#include "domain/records.hpp"
#include "domain/timestamp.hpp"

namespace leadline::store {

// An import may carry its own created_at; updated_at starts equal to it.
domain::Lead new_lead_record(const domain::NewLead& lead, domain::Timestamp now);

// last_activity starts at created_at too.
domain::Contact new_contact_record(const domain::NewContact& contact, domain::Timestamp now);

// An imported conversation's own fields: updated_at is its newest message's time
// (conversation_updated_at); its visitor, agent and messages are the caller's to fill.
domain::Conversation new_conversation_record(const domain::NewConversation& conversation,
                                             domain::Timestamp now);

domain::Person new_person_record(const domain::Person& person, domain::Timestamp now);

}  // namespace leadline::store
