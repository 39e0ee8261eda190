// A key is compared byte for byte, so nothing is trimmed or folded: what breaks the rule is
// refused rather than guessed at.
#include "domain/idempotency_key.hpp"

#include <algorithm>

namespace leadline::domain {

std::optional<IdempotencyKey> parse_idempotency_key(std::string_view header_value) {
  if (header_value.empty() || header_value.size() > kMaxIdempotencyKeyLength) return std::nullopt;
  const bool printable = std::all_of(header_value.begin(), header_value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x21 && byte <= 0x7E;
  });
  if (!printable) return std::nullopt;
  return IdempotencyKey{std::string(header_value)};
}

}  // namespace leadline::domain
