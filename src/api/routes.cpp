// The route table.
#include "api/routes.hpp"

#include <vector>

namespace leadline::api {

namespace {

constexpr std::array kRoutes{
    Route{"/api/v1/external/leads", "GET, POST, PATCH, DELETE", &handle_leads, "lead"},
    Route{"/api/v1/external/contacts", "GET, POST, PATCH, DELETE", &handle_contacts, "contact"},
    Route{"/api/v1/external/conversations", "GET, PATCH", &handle_conversations, "conversation"},
    Route{"/api/v1/external/events", "GET", &handle_events, "event"},
    Route{"/api/v1/external/webhooks", "GET, POST, PATCH, DELETE", &handle_webhooks, "webhook"},
    Route{"/api/v1/external/webhooks/rotate-secret", "POST", &handle_webhook_rotation},
    Route{"/api/v1/external/webhook-deliveries", "GET", &handle_webhook_deliveries, "delivery"},
    Route{"/api/v1/external/webhook-deliveries/retry", "POST", &handle_webhook_redelivery},
};

}  // namespace

const Route* find_route(std::string_view path) {
  for (const Route& route : kRoutes) {
    if (route.path == path) return &route;
  }
  return nullptr;
}

bool method_allowed(const Route& route, std::string_view method) {
  return allows_method(route.allow, method);
}

bool allows_method(std::string_view allow, std::string_view method) {
  // Methods are upper-case tokens; one that is a prefix of another ("GET" of "GETX") must not
  // match, so each entry of the list is compared whole.
  std::string_view rest = allow;
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
    if (route.record.empty() || !rest.starts_with(collection) || rest.size() == collection.size() ||
        rest[collection.size()] != '/') {
      continue;
    }
    if (rest.size() == collection.size() + 1) {
      return std::string(prefix) + "send " + std::string(route.path) +
             " without the trailing slash";
    }
    // The REST habit, /leads/<id>: ids travel in the query.
    return std::string(prefix) + "to address one " + std::string(route.record) + ", send " +
           std::string(route.path) + "?id=<id>";
  }
  std::vector<std::string_view> collections;
  for (const Route& route : kRoutes) {
    if (!route.record.empty()) collections.push_back(route.path);
  }
  std::string list;
  for (std::size_t i = 0; i < collections.size(); ++i) {
    if (i > 0) list += i + 1 == collections.size() ? " and " : ", ";
    list += collections[i];
  }
  return std::string(prefix) + "the endpoints are " + list;
}

std::array<std::string_view, 8> route_templates() {
  std::array<std::string_view, kRoutes.size()> paths;
  for (std::size_t i = 0; i < kRoutes.size(); ++i) paths[i] = kRoutes[i].path;
  return paths;
}

}  // namespace leadline::api
