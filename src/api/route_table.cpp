// Exact path matches only: a trailing slash or a sub-path is another (unknown) path.
#include "api/route_table.hpp"

namespace leadline::api {

std::optional<Route> find_route(std::string_view path) {
  if (path.substr(0, kBasePath.size()) != kBasePath) return std::nullopt;
  const std::string_view rest = path.substr(kBasePath.size());
  if (rest == "/leads") return Route{Resource::kLeads, "leads", "GET, POST, PATCH, DELETE"};
  if (rest == "/contacts")
    return Route{Resource::kContacts, "contacts", "GET, POST, PATCH, DELETE"};
  if (rest == "/conversations")
    return Route{Resource::kConversations, "conversations", "GET, PATCH"};
  return std::nullopt;
}

bool method_allowed(const Route& route, std::string_view method) {
  if (method == "GET" || method == "PATCH") return true;
  if (method == "POST" || method == "DELETE") return route.resource != Resource::kConversations;
  return false;
}

std::string_view route_template(const Route& route) {
  switch (route.resource) {
    case Resource::kLeads:
      return "/api/v1/external/leads";
    case Resource::kContacts:
      return "/api/v1/external/contacts";
    case Resource::kConversations:
      break;
  }
  return "/api/v1/external/conversations";
}

std::array<std::string_view, 3> route_templates() {
  return {"/api/v1/external/leads", "/api/v1/external/contacts", "/api/v1/external/conversations"};
}

}  // namespace leadline::api
