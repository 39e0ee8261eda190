// The external interface's paths and the methods each accepts.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::api {

enum class Resource { kLeads, kContacts, kConversations };

struct Route {
  Resource resource;
  std::string_view name;   // "leads", used in usage endpoint labels
  std::string_view allow;  // value of the Allow header
};

inline constexpr std::string_view kBasePath = "/api/v1/external";

// The route of an exact path, nothing for unknown paths.
std::optional<Route> find_route(std::string_view path);

bool method_allowed(const Route& route, std::string_view method);

// The route's path as logs and metrics name it, "/api/v1/external/leads": the same for every
// record, since ids travel in the query.
std::string_view route_template(const Route& route);

// Every route template, for metric labels known up front.
std::array<std::string_view, 3> route_templates();

// The 404 sentence for a path without a route: it says what to send instead when the path is
// under kBasePath (most often an id put in the path, as REST habit has it).
std::string unknown_path_message(std::string_view path);

}  // namespace leadline::api
