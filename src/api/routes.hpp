// The external interface's routes: each exact path, the methods it accepts and the resource
// that answers it. Ids travel in the query (?id=), so a route is the same for every record.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "api/resource_context.hpp"

namespace leadline::api {

inline constexpr std::string_view kBasePath = "/api/v1/external";

struct Route {
  std::string_view path;   // the route template logs and metrics name: "/api/v1/external/leads"
  std::string_view allow;  // the methods, as the Allow header lists them
  Outcome (*handle)(ResourceContext&);  // answers every method in `allow`
  // One record of the collection, for the 404 sentence of a /<collection>/<id> path; empty for
  // an action route (/webhooks/rotate-secret).
  std::string_view record = {};
};

// The route of an exact path (a trailing slash or a sub-path is another, unknown path), or null.
const Route* find_route(std::string_view path);

bool method_allowed(const Route& route, std::string_view method);
// Whether `method` is one of an Allow list ("GET, HEAD, POST"), compared entry by entry.
bool allows_method(std::string_view allow, std::string_view method);

// The 404 sentence for a path no route matches.
std::string unknown_path_message(std::string_view path);

// Every route's path, for metric labels known up front.
std::array<std::string_view, 8> route_templates();

}  // namespace leadline::api
