// Records every response the black-box suites receive, so `make test` can check each one
// against docs/openapi.yaml (tools/openapi/check-responses.mjs) after the suites have run.
#pragma once

#include <string_view>

#include "support/http_client.hpp"

namespace leadline_test {

// With LEADLINE_CONTRACT_LOG_DIR set, appends one JSON line (method, path, status,
// content_type, headers, body) to DIR/responses-PID.jsonl; without it, does nothing.
void record_for_contract_check(std::string_view method, std::string_view target,
                               const HttpResponse& response);

}  // namespace leadline_test
