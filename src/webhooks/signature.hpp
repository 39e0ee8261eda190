// The Standard Webhooks signature of one attempt: HMAC-SHA256 over "<id>.<timestamp>.<body>",
// and the webhook-signature header that carries one signature per live secret.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace leadline::webhooks {

// "v1,<standard base64 of HMAC-SHA256(secret_bytes, id + "." + timestamp + "." + body)>"
std::string sign(std::string_view secret_bytes, std::string_view msg_id, std::int64_t unix_seconds,
                 std::string_view body);

// The webhook-signature header value: one signature per secret, space separated, in the given
// order (newest first).
std::string signature_header(const std::vector<std::string>& secret_bytes_newest_first,
                             std::string_view msg_id, std::int64_t unix_seconds,
                             std::string_view body);

}  // namespace leadline::webhooks
