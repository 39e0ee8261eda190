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

Decoded<std::string> record_id(const QueryParams& query) {
  const auto id = query.get("id");
  if (!id) return BadRequest{"id query parameter is required"};
  if (id->empty()) return BadRequest{"id must not be empty"};
  auto uuid = domain::parse_uuid(*id);
  if (!uuid) return BadRequest{"id must be a UUID"};
  if (auto e = query.reject_unknown({"id"}, "(only id is accepted with this operation)")) {
    return *e;
  }
  return std::move(*uuid);
}

Decoded<boost::json::object> json_body(const http::Request& request) {
  if (!is_json_media_type(request.header("Content-Type"))) {
    return BadRequest{"Content-Type must be application/json"};
  }
  return parse_json_object(request.body);
}

PaginationInfo pagination_of(const ResourceContext& ctx, const store::PageFacts& page, int limit,
                             std::string_view binding) {
  PaginationInfo info;
  info.has_more = page.has_more;
  info.total_count = page.total_count;
  info.limit = limit;
  if (page.has_more && page.next_position) {
    info.next_cursor = ctx.cursors.encode(*page.next_position, binding);
  }
  return info;
}

std::string cursor_binding(const ResourceContext& ctx, std::string_view endpoint,
                           std::initializer_list<std::string_view> parts) {
  std::string binding = ctx.workspace.value;
  binding.push_back(kBindingSeparator);
  binding.append(endpoint);
  for (auto p : parts) {
    binding.push_back(kBindingSeparator);
    binding.append(p);
  }
  return binding;
}

ApiError record_not_found(std::string_view resource) {
  return {ErrorKind::kRecordNotFound, std::string(resource) + " not found"};
}

ApiError duplicate_email(const store::EmailConflict& conflict) {
  ApiError error(ErrorKind::kDuplicateEmail, "A contact with this email already exists");
  error.conflicting_id = conflict.existing_id.value;
  return error;
}

}  // namespace leadline::api
