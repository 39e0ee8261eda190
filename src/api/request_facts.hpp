// What a request turned out to be beyond its response, filled in by the API handler for the
// request log and the metrics, so that the HTTP layer never learns about keys or workspaces.
#pragma once

#include <string>
#include <string_view>

namespace leadline::api {

struct RequestFacts {
  std::string_view route;    // the route template ("/api/v1/external/leads"); empty: none matched
  std::string request_id;    // as sent in X-Request-Id
  std::string key_id;        // the key's id (never the key) once authenticated, else empty
  std::string workspace_id;  // the key's workspace once authenticated, else empty
  std::string error;         // the failure behind a 500 or 503, or a usage count lost
};

}  // namespace leadline::api
