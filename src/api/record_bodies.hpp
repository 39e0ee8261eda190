// JSON request bodies -> domain records, with every field rule of the contract. The import
// path (`leadline import`) reuses the create decoders so both doors apply the same rules.
#pragma once

#include <boost/json/object.hpp>

#include "api/decoded.hpp"
#include "domain/records.hpp"

namespace leadline::api {

Decoded<domain::NewLead> decode_lead_create(const boost::json::object& body);
Decoded<domain::LeadPatch> decode_lead_patch(const boost::json::object& body);

Decoded<domain::NewContact> decode_contact_create(const boost::json::object& body);
Decoded<domain::ContactPatch> decode_contact_patch(const boost::json::object& body);

Decoded<domain::ConversationPatch> decode_conversation_patch(const boost::json::object& body);

}  // namespace leadline::api
