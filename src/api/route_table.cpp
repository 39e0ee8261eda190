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

std::string unknown_path_message(std::string_view path) {
  const std::string_view prefix = "no endpoint at this path; ";
  if (path != kBasePath && !path.starts_with(std::string(kBasePath) + "/")) {
    return std::string(prefix) + "the API lives under " + std::string(kBasePath);
  }
  const std::string_view rest = path.substr(kBasePath.size());
  for (const std::string_view route : route_templates()) {
    const std::string_view collection = route.substr(kBasePath.size());  // "/leads"
    if (!rest.starts_with(collection) || rest.size() == collection.size() ||
        rest[collection.size()] != '/') {
      continue;
    }
    if (rest.size() == collection.size() + 1) {
      return std::string(prefix) + "send " + std::string(route) + " without the trailing slash";
    }
    // "/leads" -> "lead": every collection's name is its record's name plus an s.
    const std::string_view record = collection.substr(1, collection.size() - 2);
    return std::string(prefix) + "to address one " + std::string(record) + ", send " +
           std::string(route) + "?id=<id>";
  }
  const auto routes = route_templates();
  return std::string(prefix) + "the endpoints are " + std::string(routes[0]) + ", " +
         std::string(routes[1]) + " and " + std::string(routes[2]);
}

}  // namespace leadline::api
