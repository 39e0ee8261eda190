// EVP_EncodeBlock and EVP_DecodeBlock do the arithmetic; what they do not do is checked here:
// EVP_DecodeBlock skips white space around the text, accepts '=' where it should not, and counts
// the padding as zero bytes of output, so the alphabet and the padding are checked first and the
// padding's bytes are dropped after.
#include "webhooks/base64.hpp"

#include <openssl/evp.h>

namespace leadline::webhooks {

namespace {

bool in_alphabet(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  // EVP_EncodeBlock takes an int length; secrets, signatures and excerpts are tiny.
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()),
                                      static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0 || text.size() > 1 << 20) return std::nullopt;
  if (text.empty()) return std::string{};
  std::size_t padding = 0;
  if (text.back() == '=') ++padding;
  if (text.size() >= 2 && text[text.size() - 2] == '=') ++padding;
  for (std::size_t i = 0; i < text.size() - padding; ++i) {
    if (!in_alphabet(text[i])) return std::nullopt;
  }
  std::string out(3 * (text.size() / 4), '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(text.data()),
                                      static_cast<int>(text.size()));
  if (written < 0 || static_cast<std::size_t>(written) != out.size()) return std::nullopt;
  out.resize(out.size() - padding);
  // Stray bits in the last character ("QR==" beside the canonical "QQ==") decode to the same
  // bytes; only the canonical spelling is accepted, so a secret has one written form.
  if (base64_encode(out) != text) return std::nullopt;
  return out;
}

}  // namespace leadline::webhooks
