// HMAC over the three parts fed in turn (no concatenated copy of the body), with OpenSSL's EVP_MAC
// so nothing deprecated in OpenSSL 3 is used.
#include "webhooks/signature.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <memory>
#include <stdexcept>

#include "webhooks/base64.hpp"

namespace leadline::webhooks {

namespace {

struct MacDeleter {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
  void operator()(EVP_MAC_CTX* ctx) const { EVP_MAC_CTX_free(ctx); }
};

void update(EVP_MAC_CTX* ctx, std::string_view part) {
  if (EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(part.data()), part.size()) != 1) {
    throw std::runtime_error("HMAC-SHA256 update failed");
  }
}

std::string hmac_sha256(std::string_view key, std::string_view id, std::string_view timestamp,
                        std::string_view body) {
  // Fetched once per process: EVP_MAC_fetch looks the algorithm up in the provider tables, and the
  // fetched object may be shared by threads (each call below has its own context).
  static const std::unique_ptr<EVP_MAC, MacDeleter> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!mac) throw std::runtime_error("OpenSSL has no HMAC");
  const std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx(EVP_MAC_CTX_new(mac.get()));
  if (!ctx) throw std::runtime_error("could not allocate an HMAC context");
  char digest_name[] = "SHA256";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
      OSSL_PARAM_construct_end()};
  // OpenSSL refuses a null key pointer even with length 0; an empty key is still a valid HMAC key.
  static const unsigned char kEmpty = 0;
  const auto* key_bytes =
      key.empty() ? &kEmpty : reinterpret_cast<const unsigned char*>(key.data());
  if (EVP_MAC_init(ctx.get(), key_bytes, key.size(), params) != 1) {
    throw std::runtime_error("HMAC-SHA256 init failed");
  }
  update(ctx.get(), id);
  update(ctx.get(), ".");
  update(ctx.get(), timestamp);
  update(ctx.get(), ".");
  update(ctx.get(), body);
  unsigned char out[EVP_MAX_MD_SIZE];
  std::size_t out_length = 0;
  if (EVP_MAC_final(ctx.get(), out, &out_length, sizeof out) != 1) {
    throw std::runtime_error("HMAC-SHA256 final failed");
  }
  return std::string(reinterpret_cast<const char*>(out), out_length);
}

}  // namespace

std::string sign(std::string_view secret_bytes, std::string_view msg_id, std::int64_t unix_seconds,
                 std::string_view body) {
  const std::string timestamp = std::to_string(unix_seconds);
  return "v1," + base64_encode(hmac_sha256(secret_bytes, msg_id, timestamp, body));
}

std::string signature_header(const std::vector<std::string>& secret_bytes_newest_first,
                             std::string_view msg_id, std::int64_t unix_seconds,
                             std::string_view body) {
  std::string header;
  for (const auto& secret : secret_bytes_newest_first) {
    if (!header.empty()) header += ' ';
    header += sign(secret, msg_id, unix_seconds, body);
  }
  return header;
}

}  // namespace leadline::webhooks
