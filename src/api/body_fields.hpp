// Typed reads of one JSON body field each, producing the 400 sentence that names the field.
// Each read returns an error or nothing; the decoders chain them and stop at the first error.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "api/decoded.hpp"
#include "domain/field_update.hpp"
#include "domain/pipeline_stage.hpp"
#include "domain/records.hpp"

namespace leadline::api::body {

using Error = std::optional<BadRequest>;
namespace json = boost::json;

// The first member of `object` whose name is not in `allowed`.
Error reject_unknown_fields(const json::object& object,
                            std::initializer_list<std::string_view> allowed);

// Required on create: present, a string, non-empty after trimming, at most max characters.
Error required_text(const json::object& o, std::string_view name, std::size_t max,
                    std::string& out);
// Optional on create: absent or null -> nothing.
Error optional_text(const json::object& o, std::string_view name, std::size_t max,
                    std::optional<std::string>& out);
// PATCH of a required text: absent -> nothing; null -> 400.
Error text_patch_required(const json::object& o, std::string_view name, std::size_t max,
                          std::optional<std::string>& out);
// PATCH of an optional text: absent, null (clear) or a value.
Error text_patch(const json::object& o, std::string_view name, std::size_t max,
                 domain::FieldUpdate<std::string>& out);

Error optional_email(const json::object& o, std::string_view name, std::optional<std::string>& out);
Error email_patch(const json::object& o, std::string_view name,
                  domain::FieldUpdate<std::string>& out);

// Tags: null is 400 everywhere; absent leaves `out` empty.
Error tags(const json::object& o, std::string_view name, std::optional<domain::Tags>& out);

// A finite number >= 0.
Error optional_amount(const json::object& o, std::string_view name, std::optional<double>& out);
Error amount_patch(const json::object& o, std::string_view name, domain::FieldUpdate<double>& out);

Error pipeline_stage(const json::object& o, std::string_view name,
                     std::optional<domain::PipelineStage>& out);
Error conversation_status(const json::object& o, std::string_view name,
                          std::optional<domain::ConversationStatus>& out);

// A UUID or null (unassign).
template <class Id>
Error id_patch(const json::object& o, std::string_view name, domain::FieldUpdate<Id>& out);

}  // namespace leadline::api::body
