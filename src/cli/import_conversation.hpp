// Decodes a "conversation" import line: source, status, tags, timestamps, the visitor (with
// the contact create rules), agent/department ids and its messages.
#pragma once

#include <boost/json/object.hpp>

#include "api/decoded.hpp"
#include "domain/records.hpp"

namespace leadline::cli {

// `line` is the parsed JSON object without its "type" member.
api::Decoded<domain::NewConversation> decode_import_conversation(boost::json::object line);

}  // namespace leadline::cli
