// Webhook endpoint secrets: "whsec_" and the standard base64 of the secret bytes, as the
// Standard Webhooks specification writes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::webhooks {

// Raw secret bytes from "whsec_<standard base64 of 24..64 bytes>"; nullopt when malformed.
std::optional<std::string> decode_secret(std::string_view whsec);

// "whsec_" + standard base64 of 32 bytes from OpenSSL RAND_bytes.
std::string generate_secret();

}  // namespace leadline::webhooks
