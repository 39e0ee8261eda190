// Shared resource steps; the 400 sentences for ids and bodies are worded here.
#include "api/resource_support.hpp"

#include <strings.h>

#include "api/json_body.hpp"
#include "domain/uuid.hpp"

namespace leadline::api {

namespace {

// "application/json" with optional parameters (e.g. "; charset=utf-8"), case-insensitive.
bool is_json_media_type(std::string_view content_type) {
  const std::size_t semi = content_type.find(';');
  std::string_view type = content_type.substr(0, semi);
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  constexpr std::string_view kJson = "application/json";
  return type.size() == kJson.size() && ::strncasecmp(type.data(), kJson.data(), kJson.size()) == 0;
}

}  // namespace

std::optional<std::string> require_record_id(ResourceContext& ctx) {
  const auto id = ctx.query.get("id");
  if (!id) {
    respond_error(ctx.response, 400, "id query parameter is required");
    return std::nullopt;
  }
  if (id->empty()) {
    respond_error(ctx.response, 400, "id must not be empty");
    return std::nullopt;
  }
  auto uuid = domain::parse_uuid(*id);
  if (!uuid) {
    respond_error(ctx.response, 400, "id must be a UUID");
    return std::nullopt;
  }
  if (auto e = ctx.query.reject_unknown({"id"}, "(only id is accepted with this operation)")) {
    respond_error(ctx.response, 400, e->message);
    return std::nullopt;
  }
  return uuid;
}

std::optional<boost::json::object> require_json_body(ResourceContext& ctx) {
  const std::string_view content_type = ctx.request.header("Content-Type");
  if (!is_json_media_type(content_type)) {
    respond_error(ctx.response, 400, "Content-Type must be application/json");
    return std::nullopt;
  }
  return take_or_answer(ctx, parse_json_object(ctx.request.body));
}

std::string cursor_binding(const ResourceContext& ctx, std::string_view endpoint,
                           std::initializer_list<std::string_view> parts) {
  std::string binding = ctx.workspace.value;
  binding.push_back('\x1f');
  binding.append(endpoint);
  for (auto p : parts) {
    binding.push_back('\x1f');
    binding.append(p);
  }
  return binding;
}

std::string_view not_found_message(std::string_view resource) {
  if (resource == "lead") return "lead not found";
  if (resource == "contact") return "contact not found";
  return "conversation not found";
}

}  // namespace leadline::api
