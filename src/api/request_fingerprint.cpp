// Canonical JSON after the spirit of RFC 8785 (JCS): a client that rebuilds its request from
// the same data, in another key order or with other spacing, is recognised as repeating it.
#include "api/request_fingerprint.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cmath>
#include <optional>
#include <vector>

namespace leadline::api {

namespace {

// Integers are exact in a double up to 2^53: within that, an integral double is written as the
// integer it equals.
constexpr double kExactIntegerLimit = 9007199254740992.0;

void append_canonical(std::string& out, const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& object = v.get_object();
      std::vector<const boost::json::key_value_pair*> members;
      members.reserve(object.size());
      for (const auto& member : object) members.push_back(&member);
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->key() < b->key(); });
      out.push_back('{');
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0) out.push_back(',');
        out += boost::json::serialize(boost::json::string_view(members[i]->key()));
        out.push_back(':');
        append_canonical(out, members[i]->value());
      }
      out.push_back('}');
      return;
    }
    case boost::json::kind::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& element : v.get_array()) {
        if (!first) out.push_back(',');
        first = false;
        append_canonical(out, element);
      }
      out.push_back(']');
      return;
    }
    case boost::json::kind::double_: {
      const double d = v.get_double();
      if (std::trunc(d) == d && std::fabs(d) < kExactIntegerLimit) {
        out += std::to_string(static_cast<std::int64_t>(d));
        return;
      }
      out += boost::json::serialize(v);
      return;
    }
    default:
      // Strings, integers, booleans and null have one serialization each.
      out += boost::json::serialize(v);
  }
}

std::string hex_sha256(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

}  // namespace

std::optional<std::string> canonical_json(std::string_view body) {
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(body, ec);
  if (ec) return std::nullopt;
  std::string out;
  out.reserve(body.size());
  append_canonical(out, v);
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
  return hex_sha256(text);
}

}  // namespace leadline::api
