// Timestamps are Unix milliseconds inside the service and ISO 8601 UTC with milliseconds outside.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::domain {

struct Timestamp {
  std::int64_t unix_ms = 0;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

Timestamp now();

// "YYYY-MM-DDTHH:MM:SS.mmmZ".
std::string format_iso8601(Timestamp t);
void append_iso8601(std::string& out, Timestamp t);
// The same written to `out`, which has room for kIso8601MaxSize characters; returns how many.
inline constexpr std::size_t kIso8601MaxSize = 40;
std::size_t write_iso8601(char* out, Timestamp t);

// Accepts "YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)"; fractions beyond milliseconds are truncated.
std::optional<Timestamp> parse_iso8601(std::string_view text);

// Exactly the record format "YYYY-MM-DDTHH:MM:SS.mmmZ" (upper-case T and Z, three fraction
// digits), as records show their timestamps; what a list filter by time accepts.
std::optional<Timestamp> parse_record_timestamp(std::string_view text);

}  // namespace leadline::domain
