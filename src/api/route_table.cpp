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

}  // namespace leadline::api
