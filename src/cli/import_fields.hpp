// Field readers for import lines beyond what the API create decoders cover: timestamps,
// lead_score, and the typed fields of conversations and messages. Each returns the value or a
// sentence naming the field.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "api/decoded.hpp"
#include "domain/records.hpp"

namespace leadline::cli {

// The member `field` of `object`, or null when absent.
const boost::json::value& member(const boost::json::object& object, std::string_view field);

// Removes `field` from `object` and returns it (null when absent).
boost::json::value take_field(boost::json::object& object, std::string_view field);

// Absent or null -> nothing (the store then uses "now").
api::Decoded<std::optional<domain::Timestamp>> optional_timestamp(const boost::json::value& v,
                                                                  std::string_view field);
api::Decoded<domain::Timestamp> required_timestamp(const boost::json::value& v,
                                                   std::string_view field);

// A JSON number or null.
api::Decoded<std::optional<double>> optional_number(const boost::json::value& v,
                                                    std::string_view field);

// A string or null.
api::Decoded<std::optional<std::string>> optional_string(const boost::json::value& v,
                                                         std::string_view field);

// A non-blank string.
api::Decoded<std::string> required_string(const boost::json::value& v, std::string_view field);

// A canonical UUID or null.
api::Decoded<std::optional<std::string>> optional_uuid(const boost::json::value& v,
                                                       std::string_view field);

}  // namespace leadline::cli
