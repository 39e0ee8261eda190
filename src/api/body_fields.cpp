// The field reads behind every request-body decoder; the wording of 400s is decided here.
#include "api/body_fields.hpp"

#include "domain/field_rules.hpp"
#include "domain/uuid.hpp"

namespace leadline::api::body {

namespace {

BadRequest error(std::string_view name, std::string_view rest) {
  std::string s(name);
  s.append(" ").append(rest);
  return BadRequest{std::move(s)};
}

Error from_rule(const std::optional<domain::RuleError>& e) {
  if (e) return BadRequest{*e};
  return std::nullopt;
}

const json::value* find(const json::object& o, std::string_view name) {
  auto it = o.find(json::string_view(name.data(), name.size()));
  return it == o.end() ? nullptr : &it->value();
}

// Checks that a present, non-null value is a string without NUL characters.
Error as_text(const json::value& v, std::string_view name, std::string_view& out) {
  if (!v.is_string()) return error(name, "must be a string");
  const auto& s = v.get_string();
  out = std::string_view(s.data(), s.size());
  if (out.find('\0') != std::string_view::npos)
    return error(name, "must not contain NUL characters");
  return std::nullopt;
}

Error text_value(const json::value& v, std::string_view name, std::size_t max, std::string& out) {
  std::string_view text;
  if (auto e = as_text(v, name, text)) return e;
  if (auto e = domain::check_max_length(name, text, max)) return BadRequest{*e};
  out.assign(text);
  return std::nullopt;
}

Error email_value(const json::value& v, std::string_view name, std::string& out) {
  std::string_view text;
  if (auto e = as_text(v, name, text)) return e;
  auto check = domain::normalize_email(name, text);
  if (check.error) return BadRequest{*check.error};
  out = std::move(*check.address);
  return std::nullopt;
}

Error amount_value(const json::value& v, std::string_view name, double& out) {
  if (!v.is_number()) return error(name, "must be a number");
  const double d = v.to_number<double>();
  if (!(d >= 0) || d > 1.7976931348623157e308) return error(name, "must be a finite number >= 0");
  out = d == 0 ? 0.0 : d;
  return std::nullopt;
}

// Create semantics: absent or null is "not sent"; otherwise read(value, name, out).
template <class T, class Read>
Error optional_field(const json::object& o, std::string_view name, std::optional<T>& out,
                     Read&& read) {
  const json::value* v = find(o, name);
  if (!v || v->is_null()) return std::nullopt;
  T value{};
  if (auto e = read(*v, name, value)) return e;
  out = std::move(value);
  return std::nullopt;
}

// PATCH semantics: absent leaves the field, null clears it, a value sets it.
template <class T, class Read>
Error patch_field(const json::object& o, std::string_view name, domain::FieldUpdate<T>& out,
                  Read&& read) {
  const json::value* v = find(o, name);
  if (!v) return std::nullopt;
  if (v->is_null()) {
    out = domain::FieldUpdate<T>::clear();
    return std::nullopt;
  }
  T value{};
  if (auto e = read(*v, name, value)) return e;
  out = domain::FieldUpdate<T>::set(std::move(value));
  return std::nullopt;
}

}  // namespace

Error reject_unknown_fields(const json::object& object,
                            std::initializer_list<std::string_view> allowed) {
  for (const auto& member : object) {
    const std::string_view key(member.key().data(), member.key().size());
    bool known = false;
    for (auto a : allowed) known = known || a == key;
    if (!known) return BadRequest{"unknown field '" + std::string(key) + "' in request body"};
  }
  return std::nullopt;
}

Error required_text(const json::object& o, std::string_view name, std::size_t max,
                    std::string& out) {
  const json::value* v = find(o, name);
  if (!v) return error(name, "is required");
  if (v->is_null()) return error(name, "must not be null");
  std::string_view text;
  if (auto e = as_text(*v, name, text)) return e;
  if (auto e = from_rule(domain::check_required_text(name, text, max))) return e;
  out.assign(text);
  return std::nullopt;
}

Error optional_text(const json::object& o, std::string_view name, std::size_t max,
                    std::optional<std::string>& out) {
  return optional_field<std::string>(
      o, name, out, [max](const json::value& v, std::string_view n, std::string& text) {
        return text_value(v, n, max, text);
      });
}

Error text_patch_required(const json::object& o, std::string_view name, std::size_t max,
                          std::optional<std::string>& out) {
  if (!find(o, name)) return std::nullopt;
  std::string text;
  if (auto e = required_text(o, name, max, text)) return e;
  out = std::move(text);
  return std::nullopt;
}

Error text_patch(const json::object& o, std::string_view name, std::size_t max,
                 domain::FieldUpdate<std::string>& out) {
  return patch_field<std::string>(
      o, name, out, [max](const json::value& v, std::string_view n, std::string& text) {
        return text_value(v, n, max, text);
      });
}

Error optional_email(const json::object& o, std::string_view name,
                     std::optional<std::string>& out) {
  return optional_field<std::string>(o, name, out, email_value);
}

Error email_patch(const json::object& o, std::string_view name,
                  domain::FieldUpdate<std::string>& out) {
  return patch_field<std::string>(o, name, out, email_value);
}

Error tags(const json::object& o, std::string_view name, std::optional<domain::Tags>& out) {
  const json::value* v = find(o, name);
  if (!v) return std::nullopt;
  if (!v->is_array()) return error(name, "must be an array of strings");
  std::vector<std::string> raw;
  raw.reserve(v->get_array().size());
  for (const auto& item : v->get_array()) {
    std::string_view text;
    if (!item.is_string()) return error(name, "must be an array of strings");
    if (auto e = as_text(item, name, text)) return e;
    raw.emplace_back(text);
  }
  auto check = domain::normalize_tags(name, raw);
  if (check.error) return BadRequest{*check.error};
  out = std::move(check.tags);
  return std::nullopt;
}

Error optional_amount(const json::object& o, std::string_view name, std::optional<double>& out) {
  return optional_field<double>(o, name, out, amount_value);
}

Error amount_patch(const json::object& o, std::string_view name, domain::FieldUpdate<double>& out) {
  return patch_field<double>(o, name, out, amount_value);
}

Error pipeline_stage(const json::object& o, std::string_view name,
                     std::optional<domain::PipelineStage>& out) {
  const json::value* v = find(o, name);
  if (!v) return std::nullopt;
  if (v->is_null()) return error(name, "must not be null");
  if (!v->is_string()) return error(name, "must be a string");
  const auto& s = v->get_string();
  out = domain::parse_pipeline_stage(std::string_view(s.data(), s.size()));
  if (!out) return error(name, "must be one of: " + std::string(domain::kPipelineStageList));
  return std::nullopt;
}

Error conversation_status(const json::object& o, std::string_view name,
                          std::optional<domain::ConversationStatus>& out) {
  const json::value* v = find(o, name);
  if (!v) return std::nullopt;
  if (v->is_null()) return error(name, "must not be null");
  if (!v->is_string()) return error(name, "must be a string");
  const auto& s = v->get_string();
  out = domain::parse_conversation_status(std::string_view(s.data(), s.size()));
  if (!out) return error(name, "must be one of: " + std::string(domain::kConversationStatusList));
  return std::nullopt;
}

template <class Id>
Error id_patch(const json::object& o, std::string_view name, domain::FieldUpdate<Id>& out) {
  const json::value* v = find(o, name);
  if (!v) return std::nullopt;
  if (v->is_null()) {
    out = domain::FieldUpdate<Id>::clear();
    return std::nullopt;
  }
  if (!v->is_string()) return error(name, "must be a UUID string or null");
  const auto& s = v->get_string();
  auto id = domain::parse_uuid(std::string_view(s.data(), s.size()));
  if (!id) return error(name, "must be a UUID string or null");
  out = domain::FieldUpdate<Id>::set(Id{std::move(*id)});
  return std::nullopt;
}

template Error id_patch<domain::RepId>(const json::object&, std::string_view,
                                       domain::FieldUpdate<domain::RepId>&);
template Error id_patch<domain::AgentId>(const json::object&, std::string_view,
                                         domain::FieldUpdate<domain::AgentId>&);
template Error id_patch<domain::DepartmentId>(const json::object&, std::string_view,
                                              domain::FieldUpdate<domain::DepartmentId>&);

}  // namespace leadline::api::body
