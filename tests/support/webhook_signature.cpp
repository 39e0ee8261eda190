// OpenSSL implementation of the test-side Standard Webhooks signature.

#include "support/webhook_signature.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace leadline_test {

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  for (char c : text) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '+' || c == '/' || c == '=';
    if (!ok) return std::nullopt;
  }
  std::string out(text.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()),
                          static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock keeps the bytes the padding stands for; drop them.
  std::size_t pad = 0;
  if (text.back() == '=') ++pad;
  if (text.size() >= 2 && text[text.size() - 2] == '=') ++pad;
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
}

std::optional<std::string> webhook_secret_bytes(std::string_view secret) {
  static constexpr std::string_view kPrefix = "whsec_";
  if (secret.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  return base64_decode(secret.substr(kPrefix.size()));
}

std::string webhook_signature(std::string_view secret, std::string_view id,
                              std::string_view timestamp, std::string_view body) {
  auto key = webhook_secret_bytes(secret);
  if (!key) throw std::runtime_error("not a whsec_ secret: " + std::string(secret));
  std::string message;
  message.reserve(id.size() + timestamp.size() + body.size() + 2);
  message.append(id).append(".").append(timestamp).append(".").append(body);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_len = 0;
  if (HMAC(EVP_sha256(), key->data(), static_cast<int>(key->size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac,
           &mac_len) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return "v1," + base64_encode(std::string_view(reinterpret_cast<const char*>(mac), mac_len));
}

std::vector<std::string> signature_entries(std::string_view header) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < header.size()) {
    std::size_t j = header.find(' ', i);
    if (j == std::string_view::npos) j = header.size();
    if (j > i) out.emplace_back(header.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace leadline_test
