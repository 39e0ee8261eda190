// Canonical JSON after the spirit of RFC 8785 (JCS): a client that rebuilds its request from
// the same data, in another key order or with other spacing, is recognised as repeating it.
#include "api/request_fingerprint.hpp"

#include <algorithm>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cmath>
#include <optional>
#include <vector>

#include "auth/sha256_hex.hpp"
#include "record_json/json_writer.hpp"

namespace leadline::api {

namespace {

// Integers are exact in a double up to 2^53: within that, an integral double is written as the
// integer it equals.
constexpr double kExactIntegerLimit = 9007199254740992.0;

void write_canonical(record_json::JsonWriter& w, const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& object = v.get_object();
      std::vector<const boost::json::key_value_pair*> members;
      members.reserve(object.size());
      for (const auto& member : object) members.push_back(&member);
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->key() < b->key(); });
      w.begin_object();
      for (const auto* member : members) {
        w.key(member->key());
        write_canonical(w, member->value());
      }
      w.end_object();
      return;
    }
    case boost::json::kind::array:
      w.begin_array();
      for (const auto& element : v.get_array()) write_canonical(w, element);
      w.end_array();
      return;
    case boost::json::kind::string:
      w.string(v.get_string());
      return;
    case boost::json::kind::int64:
      w.number(v.get_int64());
      return;
    case boost::json::kind::uint64:
      // Only above INT64_MAX (smaller ones parse as int64): one spelling each.
      w.raw(std::to_string(v.get_uint64()));
      return;
    case boost::json::kind::double_: {
      const double d = v.get_double();
      if (std::trunc(d) == d && std::fabs(d) < kExactIntegerLimit) {
        w.number(static_cast<std::int64_t>(d));
      } else {
        w.number(d);
      }
      return;
    }
    case boost::json::kind::bool_:
      w.boolean(v.get_bool());
      return;
    case boost::json::kind::null:
      w.null();
      return;
  }
}

}  // namespace

std::optional<std::string> canonical_json(std::string_view body) {
  // Request bodies are small: parsed into a buffer on the stack, without an allocation each.
  unsigned char buffer[4096];
  boost::json::monotonic_resource resource(buffer, sizeof buffer);
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(body, ec, &resource);
  if (ec) return std::nullopt;
  std::string out;
  out.reserve(body.size());
  record_json::JsonWriter w(out);
  write_canonical(w, v);
  return out;
}

std::string request_fingerprint(std::string_view method, std::string_view path,
                                std::string_view query, std::string_view body) {
  // NUL cannot occur in a method, path or query, so the parts cannot run into each other; the
  // tag tells a JSON body from raw bytes that happen to read the same.
  std::string text;
  text.reserve(method.size() + path.size() + query.size() + body.size() + 8);
  text.append(method).push_back('\0');
  text.append(path).push_back('\0');
  text.append(query).push_back('\0');
  if (auto canonical = canonical_json(body)) {
    text.append("json").push_back('\0');
    text += *canonical;
  } else {
    text.append("raw").push_back('\0');
    text.append(body);
  }
  return auth::sha256_hex(text);
}

}  // namespace leadline::api
