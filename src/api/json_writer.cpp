// Escaping follows RFC 8259; numbers use the shortest round-trip form (std::to_chars).
#include "api/json_writer.hpp"

#include <cstdint>
#include <cstring>

#include <charconv>
#include <cmath>

namespace leadline::api {

namespace {

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

// True when some byte of `w` is a control character, '"' or '\\' (bit tricks from "Bit
// Twiddling Hacks": a byte below n, a byte equal to c). Most text has none, so whole words are
// skipped at once.
bool word_needs_escape(std::uint64_t w) {
  const std::uint64_t below_space = (w - kOnes * 0x20) & ~w & kHighs;
  const std::uint64_t q = w ^ (kOnes * '"');
  const std::uint64_t b = w ^ (kOnes * '\\');
  const std::uint64_t quote = (q - kOnes) & ~q & kHighs;
  const std::uint64_t backslash = (b - kOnes) & ~b & kHighs;
  return (below_space | quote | backslash) != 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t clean = 0;
  while (clean + 8 <= s.size()) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + clean, 8);
    if (word_needs_escape(w)) break;
    clean += 8;
  }
  std::size_t run = 0;
  for (std::size_t i = clean; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      default:
        out.append("\\u00");
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void JsonWriter::separate() {
  if (need_comma_) out_.push_back(',');
  need_comma_ = true;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_.push_back('{');
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_.push_back('}');
  need_comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_.push_back('[');
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_.push_back(']');
  need_comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  // Keys are field names from this code base: plain ASCII with nothing to escape.
  out_.push_back('"');
  out_.append(k);
  out_.append("\":", 2);
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::timestamp(domain::Timestamp t) {
  separate();
  out_.push_back('"');
  domain::append_iso8601(out_, t);
  out_.push_back('"');
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  separate();
  append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::number(std::int64_t n) {
  separate();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::number(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_.append("null");
    return *this;
  }
  if (d == 0) d = 0;  // -0 is written as 0
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  separate();
  out_.append(b ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_.append("null");
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_.append(json);
  return *this;
}

JsonWriter& JsonWriter::strings(const std::vector<std::string>& items) {
  begin_array();
  for (const auto& s : items) string(s);
  return end_array();
}

}  // namespace leadline::api
