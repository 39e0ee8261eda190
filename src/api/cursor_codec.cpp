// Layout before base64url: version(1) | SHA-256(binding)[0..8) | values | id | HMAC[0..16).
// The binding digest makes a cursor from another query or workspace fail to decode; the HMAC
// makes any altered character fail.
#include "api/cursor_codec.hpp"

#include <openssl/crypto.h>

#include <cstring>

#include "api/base64url.hpp"
#include "auth/hmac_sha256.hpp"
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

// The first kMacBytes of HMAC-SHA256 under `secret`.
std::string mac(std::string_view secret, std::string_view data) {
  const auto digest = auth::hmac_sha256(secret, {data});
  return std::string(reinterpret_cast<const char*>(digest.data()), kMacBytes);
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
