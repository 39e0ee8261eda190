// Each input is hashed whole, over a context kept per thread. The digest is fetched once: with
// EVP_sha256() OpenSSL 3 looks the algorithm up by name in the provider tables on every call,
// which cost more than hashing an API key on every request.
#include "auth/sha256_hex.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace leadline::auth {

namespace {

const EVP_MD* sha256_md() {
  static const std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(
      EVP_MD_fetch(nullptr, "SHA256", nullptr), &EVP_MD_free);
  if (!md) throw std::runtime_error("OpenSSL has no SHA-256");
  return md.get();
}

// One digest context per thread, initialised again for each input: EVP_Digest would allocate
// and free a context (and the provider's state within it) on every call, once per request.
EVP_MD_CTX* thread_context() {
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                                 &EVP_MD_CTX_free);
  if (!ctx) throw std::runtime_error("OpenSSL could not allocate a digest context");
  return ctx.get();
}

}  // namespace

std::array<unsigned char, 32> sha256(std::string_view data) {
  std::array<unsigned char, 32> digest{};
  unsigned int length = 0;
  EVP_MD_CTX* ctx = thread_context();
  if (EVP_DigestInit_ex2(ctx, sha256_md(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx, data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, digest.data(), &length) != 1 || length != digest.size()) {
    throw std::runtime_error("SHA-256 digest failed");
  }
  return digest;
}

std::string sha256_hex(std::string_view data) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto digest = sha256(data);
  std::string hex;
  hex.reserve(digest.size() * 2);
  for (const unsigned char byte : digest) {
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 0x0F]);
  }
  return hex;
}

}  // namespace leadline::auth
