// Fuzzes the two values a synchronising client sends: bytes -> parse_idempotency_key and
// parse_record_timestamp, checking each accepts exactly its rule and changes nothing it accepts.
#include <string>
#include <string_view>

#include "domain/idempotency_key.hpp"
#include "domain/timestamp.hpp"
#include "fuzz_check.hpp"

using namespace leadline;

namespace {

// The rule, written out independently of the parser: 1 to 255 bytes, each 0x21..0x7E.
bool follows_key_rule(std::string_view text) {
  if (text.empty() || text.size() > 255) return false;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x21 || byte > 0x7E) return false;
  }
  return true;
}

void check_idempotency_key(std::string_view text) {
  const auto key = domain::parse_idempotency_key(text);
  FUZZ_CHECK(key.has_value() == follows_key_rule(text), "the key rule and the parser disagree");
  if (key) FUZZ_CHECK(key->value == text, "an accepted key is not the header's value");
}

void check_record_timestamp(std::string_view text) {
  const auto strict = domain::parse_record_timestamp(text);
  const auto general = domain::parse_iso8601(text);
  if (strict) {
    // Exactly the record format: what it accepts, records write back unchanged.
    FUZZ_CHECK(domain::format_iso8601(*strict) == text,
               "an accepted record timestamp does not format back to its text");
    FUZZ_CHECK(general.has_value(), "parse_iso8601 refuses a record timestamp");
    FUZZ_CHECK(*general == *strict, "parse_iso8601 reads another time from a record timestamp");
  } else if (general) {
    // And nothing in that format is refused: a text the general parser reads and that is the
    // formatting of its own value is a record timestamp.
    FUZZ_CHECK(domain::format_iso8601(*general) != text, "a text in the record format was refused");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  check_idempotency_key(text);
  check_record_timestamp(text);
  return 0;
}
