// The external interface's paths and the methods each accepts.
#pragma once

#include <optional>
#include <string_view>

namespace leadline::api {

enum class Resource { kLeads, kContacts, kConversations };

struct Route {
  Resource resource;
  std::string_view name;   // "leads", used in usage endpoint labels
  std::string_view allow;  // value of the Allow header
};

inline constexpr std::string_view kBasePath = "/api/v1/external";
inline constexpr std::string_view kOpenApiPath = "/api/v1/external/openapi.json";

// The route of an exact path, nothing for unknown paths.
std::optional<Route> find_route(std::string_view path);

bool method_allowed(const Route& route, std::string_view method);

}  // namespace leadline::api
