// The public documents beside the API: its OpenAPI description and the human-readable reference
// page (Redoc, rendered in the browser from that same description) with the script it loads.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "api/errors.hpp"
#include "http/request.hpp"

namespace leadline::api {

inline constexpr std::string_view kOpenApiPath = "/api/v1/external/openapi.json";
inline constexpr std::string_view kDocsPath = "/docs";
inline constexpr std::string_view kRedocScriptPath = "/docs/redoc.standalone.js";

struct ReferenceAnswer {
  std::string_view route;  // the document's route label ("/docs")
  Outcome outcome;         // a 405 for methods other than GET and HEAD
};

// Answers `path` when it names one of the documents; nothing, leaving `response` untouched, for
// every other path. The documents need no key and are not rate-limited or counted, like any
// public API reference.
std::optional<ReferenceAnswer> serve_reference(std::string_view path, const http::Request& request,
                                               http::Response& response);

// The route labels serve_reference returns, for metrics known up front.
std::array<std::string_view, 3> reference_routes();

}  // namespace leadline::api
