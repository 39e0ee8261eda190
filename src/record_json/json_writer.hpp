// Appends JSON text straight into a response body: no intermediate DOM on the hot path.
// The caller drives the structure; the writer handles commas, escaping and number format.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/timestamp.hpp"

namespace leadline::record_json {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // `k` is written as is: field names are constants of this code base, never client text.
  // Inline and in one append, so that a literal name is copied with its length known.
  JsonWriter& key(std::string_view k) {
    char buf[kMaxInlineKey + 4];
    if (k.size() > kMaxInlineKey) return long_key(k);
    std::size_t n = 0;
    if (need_comma_) buf[n++] = ',';
    buf[n++] = '"';
    std::memcpy(buf + n, k.data(), k.size());
    n += k.size();
    buf[n++] = '"';
    buf[n++] = ':';
    out_.append(buf, n);
    need_comma_ = false;
    return *this;
  }

  JsonWriter& string(std::string_view s);
  JsonWriter& number(std::int64_t n);
  JsonWriter& number(double d);
  JsonWriter& boolean(bool b);
  JsonWriter& null();
  // Already-serialized JSON (e.g. stored metadata or attachments).
  JsonWriter& raw(std::string_view json);
  // An ISO 8601 UTC timestamp string, written in place.
  JsonWriter& timestamp(domain::Timestamp t);

  JsonWriter& optional_string(const std::optional<std::string>& s) {
    return s ? string(*s) : null();
  }
  JsonWriter& optional_number(const std::optional<double>& d) { return d ? number(*d) : null(); }
  JsonWriter& strings(const std::vector<std::string>& items);

  // key + value shorthands
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  JsonWriter& value(std::string_view s) { return string(s); }
  JsonWriter& value(const std::string& s) { return string(s); }
  JsonWriter& value(const char* s) { return string(s); }
  JsonWriter& value(std::int64_t n) { return number(n); }
  JsonWriter& value(int n) { return number(static_cast<std::int64_t>(n)); }
  JsonWriter& value(double d) { return number(d); }
  JsonWriter& value(bool b) { return boolean(b); }
  JsonWriter& value(const std::optional<std::string>& s) { return optional_string(s); }
  JsonWriter& value(const std::optional<double>& d) { return optional_number(d); }
  JsonWriter& value(const std::vector<std::string>& v) { return strings(v); }
  JsonWriter& value(domain::Timestamp t) { return timestamp(t); }
  JsonWriter& value(const std::optional<domain::Timestamp>& t) {
    return t ? timestamp(*t) : null();
  }
  JsonWriter& value(const std::optional<int>& n) {
    return n ? number(static_cast<std::int64_t>(*n)) : null();
  }

  static constexpr std::size_t kMaxInlineKey = 60;

  void separate();
  JsonWriter& long_key(std::string_view k);

  std::string& out_;
  bool need_comma_ = false;
};

}  // namespace leadline::record_json
