// Structure and separators here; strings and doubles are written by json_text, as every JSON
// producer of leadline writes them.
#include "record_json/json_writer.hpp"

#include <charconv>

#include "json_text/json_text.hpp"

namespace leadline::record_json {

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

JsonWriter& JsonWriter::long_key(std::string_view k) {
  separate();
  out_.push_back('"');
  out_.append(k);
  out_.append("\":", 2);
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::timestamp(domain::Timestamp t) {
  // Separator, quotes and digits in one append.
  char buf[domain::kIso8601MaxSize + 3];
  std::size_t n = 0;
  if (need_comma_) buf[n++] = ',';
  need_comma_ = true;
  buf[n++] = '"';
  n += domain::write_iso8601(buf + n, t);
  buf[n++] = '"';
  out_.append(buf, n);
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  separate();
  json_text::append_string(out_, s);
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
  json_text::append_number(out_, d);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  separate();
  out_.append(b ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_.append("null", 4);
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

}  // namespace leadline::record_json
