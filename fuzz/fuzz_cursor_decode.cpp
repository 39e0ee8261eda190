// Fuzzes list cursors: bytes -> CursorCodec::decode (fixed secret and binding) as text or as a
// payload signed here to get past the HMAC; checks the round trip and the canonical base64url.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <cstring>
#include <string>
#include <string_view>

#include "api/base64url.hpp"
#include "api/cursor_codec.hpp"
#include "domain/uuid.hpp"
#include "fuzz_check.hpp"

using namespace leadline;

namespace {

const std::string kSecret(32, 's');
constexpr std::string_view kBinding = "ws|leads|created_at|desc||";

// The codec's framing (see src/api/cursor_codec.cpp): version, binding digest, ..., MAC[0..16).
constexpr char kVersion = 1;
constexpr std::size_t kBindingBytes = 8;
constexpr std::size_t kMacBytes = 16;

std::string binding_digest(std::string_view binding) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(binding.data()), binding.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), kBindingBytes);
}

std::string signed_cursor(std::string raw) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), kSecret.data(), static_cast<int>(kSecret.size()),
       reinterpret_cast<const unsigned char*>(raw.data()), raw.size(), mac, &length);
  raw.append(reinterpret_cast<const char*>(mac), kMacBytes);
  return api::base64url_encode(raw);
}

bool same_value(const store::SortValue& a, const store::SortValue& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<double>(&a)) {
    // Bitwise: NaN payloads and -0.0 must survive the trip unchanged.
    return std::memcmp(x, &std::get<double>(b), sizeof(double)) == 0;
  }
  return a == b;
}

bool same_position(const store::KeysetPosition& a, const store::KeysetPosition& b) {
  if (a.id != b.id || a.values.size() != b.values.size()) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (!same_value(a.values[i], b.values[i])) return false;
  }
  return true;
}

void check_base64url(std::string_view text) {
  const auto bytes = api::base64url_decode(text);
  if (!bytes) return;
  FUZZ_CHECK(api::base64url_encode(*bytes) == text, "base64url accepted a non-canonical text");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  std::string cursor;
  switch (data[0] % 3) {
    case 0:  // cursor text as a client would send it
      cursor.assign(rest);
      check_base64url(rest);
      break;
    case 1:  // values and id after a correct header, correctly signed
      cursor =
          signed_cursor(std::string(1, kVersion) + binding_digest(kBinding) + std::string(rest));
      break;
    default:  // any signed payload, header included
      cursor = signed_cursor(std::string(rest));
      break;
  }

  const api::CursorCodec codec(kSecret);
  auto decoded = codec.decode(cursor, kBinding);
  if (const auto* e = api::failed(decoded)) {
    FUZZ_CHECK(!e->message.empty(), "empty cursor error");
    return 0;
  }
  const auto& position = std::get<store::KeysetPosition>(decoded);
  FUZZ_CHECK(position.values.size() <= 4, "more than four sort values");
  FUZZ_CHECK(domain::parse_uuid(position.id) == position.id, "cursor id is not canonical");

  const std::string again = codec.encode(position, kBinding);
  FUZZ_CHECK(again.size() == cursor.size(), "re-encoding changed the cursor length");
  auto redecoded = codec.decode(again, kBinding);
  FUZZ_CHECK(!api::failed(redecoded), "a re-encoded cursor does not decode");
  FUZZ_CHECK(same_position(std::get<store::KeysetPosition>(redecoded), position),
             "the round trip changed the position");

  // Bound to its query: the same cursor under another binding or secret is refused.
  FUZZ_CHECK(api::failed(codec.decode(cursor, "ws|contacts|created_at|desc||")),
             "a cursor decoded under another binding");
  FUZZ_CHECK(api::failed(api::CursorCodec(std::string(32, 't')).decode(cursor, kBinding)),
             "a cursor decoded under another secret");
  return 0;
}
