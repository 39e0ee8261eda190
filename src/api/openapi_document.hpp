// The OpenAPI 3.1 description of this interface (docs/openapi.yaml, bundled to JSON), embedded
// at build time and served at /api/v1/external/openapi.json.
#pragma once

#include <string_view>

namespace leadline::api {

std::string_view openapi_document();

}  // namespace leadline::api
