// The route table.
#include "api/routes.hpp"

namespace leadline::api {

namespace {

constexpr std::array kRoutes{
    Route{"/api/v1/external/leads", "GET, POST, PATCH, DELETE", &handle_leads},
    Route{"/api/v1/external/contacts", "GET, POST, PATCH, DELETE", &handle_contacts},
    Route{"/api/v1/external/conversations", "GET, PATCH", &handle_conversations},
};

}  // namespace

const Route* find_route(std::string_view path) {
  for (const Route& route : kRoutes) {
    if (route.path == path) return &route;
  }
  return nullptr;
}

bool method_allowed(const Route& route, std::string_view method) {
  // Methods are upper-case tokens; one that is a prefix of another ("GET" of "GETX") must not
  // match, so each entry of the list is compared whole.
  std::string_view rest = route.allow;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    if (entry == method) return true;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  }
  return false;
}

std::string unknown_path_message(std::string_view path) {
  const std::string_view prefix = "no endpoint at this path; ";
  if (path != kBasePath && !path.starts_with(std::string(kBasePath) + "/")) {
    return std::string(prefix) + "the API lives under " + std::string(kBasePath);
  }
  const std::string_view rest = path.substr(kBasePath.size());
  for (const Route& route : kRoutes) {
    const std::string_view collection = route.path.substr(kBasePath.size());  // "/leads"
    if (!rest.starts_with(collection) || rest.size() == collection.size() ||
        rest[collection.size()] != '/') {
      continue;
    }
    if (rest.size() == collection.size() + 1) {
      return std::string(prefix) + "send " + std::string(route.path) +
             " without the trailing slash";
    }
    // The REST habit, /leads/<id>: ids travel in the query. Every collection's name is its
    // record's name plus an s.
    const std::string_view record = collection.substr(1, collection.size() - 2);
    return std::string(prefix) + "to address one " + std::string(record) + ", send " +
           std::string(route.path) + "?id=<id>";
  }
  return std::string(prefix) + "the endpoints are " + std::string(kRoutes[0].path) + ", " +
         std::string(kRoutes[1].path) + " and " + std::string(kRoutes[2].path);
}

std::array<std::string_view, 3> route_templates() {
  return {kRoutes[0].path, kRoutes[1].path, kRoutes[2].path};
}

}  // namespace leadline::api
