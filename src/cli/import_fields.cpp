// Typed readers for the fields of import lines.
#include "cli/import_fields.hpp"

#include "domain/timestamp.hpp"
#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"

namespace leadline::cli {

namespace json = boost::json;
using api::BadRequest;

namespace {

BadRequest sentence(std::string_view field, std::string_view rest) {
  return {std::string(field) + " " + std::string(rest)};
}

}  // namespace

const json::value& member(const json::object& object, std::string_view field) {
  static const json::value null_value;
  const auto* found = object.if_contains(field);
  return found == nullptr ? null_value : *found;
}

json::value take_field(json::object& object, std::string_view field) {
  const auto it = object.find(field);
  if (it == object.end()) return nullptr;
  json::value v = std::move(it->value());
  object.erase(it);
  return v;
}

api::Decoded<std::optional<domain::Timestamp>> optional_timestamp(const json::value& v,
                                                                  std::string_view field) {
  if (v.is_null()) return std::optional<domain::Timestamp>{};
  auto required = required_timestamp(v, field);
  if (auto* bad = api::failed(required)) return *bad;
  return std::optional<domain::Timestamp>{std::get<domain::Timestamp>(required)};
}

api::Decoded<domain::Timestamp> required_timestamp(const json::value& v, std::string_view field) {
  if (v.is_null()) return sentence(field, "is required");
  const auto* text = v.if_string();
  const auto parsed = text == nullptr ? std::nullopt : domain::parse_iso8601(*text);
  if (!parsed) {
    return sentence(field, "must be an ISO 8601 timestamp such as 2026-11-01T10:00:00.000Z");
  }
  return *parsed;
}

api::Decoded<std::optional<double>> optional_number(const json::value& v, std::string_view field) {
  if (v.is_null()) return std::optional<double>{};
  if (!v.is_number()) return sentence(field, "must be a number or null");
  return std::optional<double>{v.to_number<double>()};
}

api::Decoded<std::optional<std::string>> optional_string(const json::value& v,
                                                         std::string_view field) {
  if (v.is_null()) return std::optional<std::string>{};
  if (!v.is_string()) return sentence(field, "must be a string or null");
  return std::optional<std::string>{std::string(v.get_string())};
}

api::Decoded<std::string> required_string(const json::value& v, std::string_view field) {
  if (v.is_null()) return sentence(field, "is required");
  if (!v.is_string()) return sentence(field, "must be a string");
  if (domain::trim_unicode_space(v.get_string()).empty()) {
    return sentence(field, "must not be empty");
  }
  return std::string(v.get_string());
}

api::Decoded<std::optional<std::string>> optional_uuid(const json::value& v,
                                                       std::string_view field) {
  if (v.is_null()) return std::optional<std::string>{};
  const auto* text = v.if_string();
  auto id = text == nullptr ? std::nullopt : domain::parse_uuid(*text);
  if (!id) return sentence(field, "must be a UUID or null");
  return std::optional<std::string>{std::move(*id)};
}

}  // namespace leadline::cli
