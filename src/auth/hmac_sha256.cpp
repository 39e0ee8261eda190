// OpenSSL's one-shot HMAC() looks HMAC and SHA-256 up by name on every call, which cost more than
// the rest of a list page's cursor. So the algorithm is fetched once per process and each thread
// keeps one context, keyed again only when the key changes (a cursor's secret never does; a
// webhook's changes per endpoint); an init without a key starts the same key over.
#include "auth/hmac_sha256.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace leadline::auth {

namespace {

struct MacDeleter {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
  void operator()(EVP_MAC_CTX* ctx) const { EVP_MAC_CTX_free(ctx); }
};

EVP_MAC_CTX* context_keyed_with(std::string_view key) {
  // The fetched algorithm may be shared by threads; contexts may not.
  static const std::unique_ptr<EVP_MAC, MacDeleter> hmac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!hmac) throw std::runtime_error("OpenSSL has no HMAC");
  thread_local std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx;
  thread_local std::string ctx_key;
  if (ctx && ctx_key == key) {
    if (EVP_MAC_init(ctx.get(), nullptr, 0, nullptr) != 1) {
      throw std::runtime_error("HMAC-SHA256 init failed");
    }
    return ctx.get();
  }
  ctx_key.clear();
  ctx.reset(EVP_MAC_CTX_new(hmac.get()));
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
    ctx.reset();
    throw std::runtime_error("HMAC-SHA256 init failed");
  }
  ctx_key.assign(key);
  return ctx.get();
}

}  // namespace

std::array<unsigned char, 32> hmac_sha256(std::string_view key,
                                          std::initializer_list<std::string_view> parts) {
  EVP_MAC_CTX* ctx = context_keyed_with(key);
  for (const std::string_view part : parts) {
    if (EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(part.data()), part.size()) !=
        1) {
      throw std::runtime_error("HMAC-SHA256 update failed");
    }
  }
  std::array<unsigned char, 32> out{};
  std::size_t length = 0;
  if (EVP_MAC_final(ctx, out.data(), &length, out.size()) != 1 || length != out.size()) {
    throw std::runtime_error("HMAC-SHA256 final failed");
  }
  return out;
}

}  // namespace leadline::auth
