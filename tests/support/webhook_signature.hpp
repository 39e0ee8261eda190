// Standard Webhooks signing, computed on the test side with OpenSSL, to check what leadline
// signs: `v1,<base64 of HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`, where the secret
// bytes are the base64-decoded part of `whsec_...`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace leadline_test {

// Standard base64 (with padding).
std::string base64_encode(std::string_view bytes);
// Standard base64 with padding; nullopt when malformed.
std::optional<std::string> base64_decode(std::string_view text);

// The secret bytes of "whsec_<base64>"; nullopt when the text is not of that form.
std::optional<std::string> webhook_secret_bytes(std::string_view secret);

// "v1,<base64 signature>" of the message with the secret ("whsec_...").
std::string webhook_signature(std::string_view secret, std::string_view id,
                              std::string_view timestamp, std::string_view body);

// The space-separated entries of a webhook-signature header.
std::vector<std::string> signature_entries(std::string_view header);

}  // namespace leadline_test
