// Layout before base64url: version(1) | SHA-256(binding)[0..8) | values | id | HMAC[0..16).
// The binding digest makes a cursor from another query or workspace fail to decode; the HMAC
// makes any altered character fail.
#include "api/cursor_codec.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <memory>
#include <stdexcept>

#include "api/base64url.hpp"
#include "auth/sha256_hex.hpp"
#include "domain/uuid.hpp"

namespace leadline::api {

namespace {

constexpr unsigned char kVersion = 1;
constexpr std::size_t kBindingBytes = 8;
constexpr std::size_t kMacBytes = 16;
constexpr std::size_t kMaxCursorLength = 4096;

enum Tag : unsigned char { kNull = 0, kInt = 1, kReal = 2, kText = 3 };

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 7; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

bool get_u64(std::string_view in, std::size_t& pos, std::uint64_t& v) {
  if (pos + 8 > in.size()) return false;
  v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(in[pos + i]);
  pos += 8;
  return true;
}

std::string binding_digest(std::string_view binding) {
  const auto digest = auth::sha256(binding);
  return std::string(reinterpret_cast<const char*>(digest.data()), kBindingBytes);
}

struct MacDeleter {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
  void operator()(EVP_MAC_CTX* ctx) const { EVP_MAC_CTX_free(ctx); }
};

// HMAC-SHA256 under `secret`. OpenSSL's one-shot HMAC() looks up HMAC and SHA-256 by name on
// every call, which cost more than the rest of a list page's cursor; here each thread keeps a
// context keyed once, which a later init without a key starts over with the same key.
std::string mac(std::string_view secret, std::string_view data) {
  static const std::unique_ptr<EVP_MAC, MacDeleter> hmac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!hmac) throw std::runtime_error("OpenSSL has no HMAC");
  thread_local std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx;
  thread_local std::string ctx_secret;
  const auto* data_bytes = reinterpret_cast<const unsigned char*>(data.data());
  bool ok;
  if (ctx && ctx_secret == secret) {
    ok = EVP_MAC_init(ctx.get(), nullptr, 0, nullptr) == 1;
  } else {
    ctx.reset(EVP_MAC_CTX_new(hmac.get()));
    if (!ctx) throw std::runtime_error("could not allocate an HMAC context");
    char digest_name[] = "SHA256";
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
        OSSL_PARAM_construct_end()};
    // OpenSSL refuses a null key pointer even with length 0.
    static const unsigned char kEmpty = 0;
    const auto* key =
        secret.empty() ? &kEmpty : reinterpret_cast<const unsigned char*>(secret.data());
    ok = EVP_MAC_init(ctx.get(), key, secret.size(), params) == 1;
    ctx_secret = ok ? std::string(secret) : std::string();
    if (!ok) ctx.reset();
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  std::size_t len = 0;
  ok = ok && EVP_MAC_update(ctx.get(), data_bytes, data.size()) == 1 &&
       EVP_MAC_final(ctx.get(), out, &len, sizeof out) == 1;
  if (!ok) throw std::runtime_error("HMAC-SHA256 failed");
  return std::string(reinterpret_cast<const char*>(out), kMacBytes);
}

BadRequest invalid() {
  return BadRequest{
      "cursor is invalid: pass next_cursor unchanged, with the same sort, filters and search"};
}

}  // namespace

std::string CursorCodec::encode(const store::KeysetPosition& position,
                                std::string_view binding) const {
  std::string raw;
  raw.push_back(static_cast<char>(kVersion));
  raw.append(binding_digest(binding));
  raw.push_back(static_cast<char>(position.values.size()));
  for (const auto& v : position.values) {
    if (std::holds_alternative<std::monostate>(v)) {
      raw.push_back(static_cast<char>(kNull));
    } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
      raw.push_back(static_cast<char>(kInt));
      put_u64(raw, static_cast<std::uint64_t>(*i));
    } else if (const auto* d = std::get_if<double>(&v)) {
      raw.push_back(static_cast<char>(kReal));
      std::uint64_t bits;
      std::memcpy(&bits, d, sizeof bits);
      put_u64(raw, bits);
    } else {
      const auto& s = std::get<std::string>(v);
      raw.push_back(static_cast<char>(kText));
      put_u64(raw, s.size());
      raw.append(s);
    }
  }
  raw.append(position.id);
  raw.append(mac(secret_, raw));
  return base64url_encode(raw);
}

Decoded<store::KeysetPosition> CursorCodec::decode(std::string_view cursor,
                                                   std::string_view binding) const {
  if (cursor.size() > kMaxCursorLength) return invalid();
  auto raw = base64url_decode(cursor);
  if (!raw || raw->size() < 1 + kBindingBytes + 1 + 36 + kMacBytes) return invalid();
  const std::string_view body(raw->data(), raw->size() - kMacBytes);
  const std::string expected = mac(secret_, body);
  if (CRYPTO_memcmp(expected.data(), raw->data() + body.size(), kMacBytes) != 0) return invalid();
  if (static_cast<unsigned char>(body[0]) != kVersion) return invalid();
  if (body.substr(1, kBindingBytes) != binding_digest(binding)) return invalid();

  store::KeysetPosition position;
  std::size_t pos = 1 + kBindingBytes;
  const auto count = static_cast<unsigned char>(body[pos++]);
  if (count > 4) return invalid();
  for (unsigned k = 0; k < count; ++k) {
    if (pos >= body.size()) return invalid();
    const auto tag = static_cast<unsigned char>(body[pos++]);
    std::uint64_t u = 0;
    switch (tag) {
      case kNull:
        position.values.emplace_back(std::monostate{});
        break;
      case kInt:
        if (!get_u64(body, pos, u)) return invalid();
        position.values.emplace_back(static_cast<std::int64_t>(u));
        break;
      case kReal: {
        if (!get_u64(body, pos, u)) return invalid();
        double d;
        std::memcpy(&d, &u, sizeof d);
        position.values.emplace_back(d);
        break;
      }
      case kText:
        if (!get_u64(body, pos, u) || u > body.size() - pos) return invalid();
        position.values.emplace_back(std::string(body.substr(pos, u)));
        pos += u;
        break;
      default:
        return invalid();
    }
  }
  auto id = domain::parse_uuid(body.substr(pos));
  if (!id) return invalid();
  position.id = std::move(*id);
  return position;
}

}  // namespace leadline::api
