// Secrets are decoded strictly (canonical base64, 24 to 64 bytes) so that a secret has exactly one
// spelling and a weak or absurd one is refused at creation rather than at signing.
#include "webhooks/webhook_secret.hpp"

#include <openssl/rand.h>

#include <stdexcept>

#include "webhooks/base64.hpp"

namespace leadline::webhooks {

namespace {
constexpr std::string_view kPrefix = "whsec_";
constexpr std::size_t kMinBytes = 24;
constexpr std::size_t kMaxBytes = 64;
constexpr std::size_t kGeneratedBytes = 32;
}  // namespace

std::optional<std::string> decode_secret(std::string_view whsec) {
  if (!whsec.starts_with(kPrefix)) return std::nullopt;
  auto bytes = base64_decode(whsec.substr(kPrefix.size()));
  if (!bytes || bytes->size() < kMinBytes || bytes->size() > kMaxBytes) return std::nullopt;
  return bytes;
}

std::string generate_secret() {
  unsigned char bytes[kGeneratedBytes];
  // A secret that is not random is worse than none: a failing CSPRNG is an error, not a fallback.
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed to produce a webhook secret");
  }
  return std::string(kPrefix) +
         base64_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

}  // namespace leadline::webhooks
