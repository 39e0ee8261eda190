// Two passes over a (bounded, <= 1 MiB) body: a SAX pass that rejects what Boost.JSON would
// silently accept (duplicate keys, non-finite numbers), then the DOM parse.
#include "api/json_body.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "api/json_syntax_error.hpp"
#include "domain/unicode_text.hpp"

namespace leadline::api {

namespace json = boost::json;

namespace {

constexpr std::size_t kMaxDepth = 64;

struct StrictnessCheck {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  std::vector<std::set<std::string>> objects;
  std::string key;
  std::string problem;

  bool fail(json::error_code& ec, std::string why) {
    problem = std::move(why);
    ec = json::error::syntax;
    return false;
  }

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_array_begin(json::error_code&) { return true; }
  bool on_array_end(std::size_t, json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) {
    objects.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) {
    objects.pop_back();
    return true;
  }
  bool on_string_part(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_string(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    key.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code& ec) {
    key.append(s.data(), s.size());
    const bool fresh = objects.back().insert(key).second;
    if (!fresh) return fail(ec, "duplicate key '" + key + "'");
    key.clear();
    return true;
  }
  bool on_number_part(json::string_view, json::error_code&) { return true; }
  bool on_int64(std::int64_t, json::string_view, json::error_code&) { return true; }
  bool on_uint64(std::uint64_t, json::string_view, json::error_code&) { return true; }
  bool on_double(double d, json::string_view, json::error_code& ec) {
    if (!std::isfinite(d)) return fail(ec, "a number out of range");
    return true;
  }
  bool on_bool(bool, json::error_code&) { return true; }
  bool on_null(json::error_code&) { return true; }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

json::parse_options strict_options() {
  json::parse_options opt;
  opt.max_depth = kMaxDepth;
  opt.allow_comments = false;
  opt.allow_trailing_commas = false;
  opt.allow_invalid_utf8 = false;
  return opt;
}

// Where the text stopped being JSON and what was expected there. `offset` is how many bytes the
// parser consumed, which is the offset of the first byte it could not take.
std::string located(std::string_view text, std::size_t offset, const json::error_code& ec) {
  std::string what;
  if (ec == json::error::illegal_leading_surrogate ||
      ec == json::error::illegal_trailing_surrogate) {
    what = "expected a UTF-16 surrogate pair (\\uD800 to \\uDBFF, then \\uDC00 to \\uDFFF)";
  } else {
    what = expected_at(text, offset);
  }
  if (offset >= text.size()) what += ", but the request body ends there";
  return "request body is not valid JSON at byte " + std::to_string(offset) + ": " + what;
}

std::string describe(std::string_view text, std::size_t offset, const json::error_code& ec) {
  if (ec == json::error::too_deep) {
    return "request body is not valid JSON: nested more than 64 levels deep";
  }
  if (ec == json::error::exponent_overflow) {
    return "request body is not valid JSON: a number out of range";
  }
  return located(text, offset, ec);
}

bool holds_invalid_utf8(const json::value& v) {
  if (v.is_string()) {
    return !domain::is_valid_utf8(std::string_view(v.get_string().data(), v.get_string().size()));
  }
  if (v.is_array()) {
    for (const auto& item : v.get_array()) {
      if (holds_invalid_utf8(item)) return true;
    }
  }
  if (v.is_object()) {
    for (const auto& member : v.get_object()) {
      if (!domain::is_valid_utf8(std::string_view(member.key().data(), member.key().size())) ||
          holds_invalid_utf8(member.value())) {
        return true;
      }
    }
  }
  return false;
}

// Like every other 400 about a field, the one for invalid UTF-8 names the field when the body is
// otherwise a JSON object (the lenient parse is only for finding it; nothing parsed is used).
std::string invalid_utf8_problem(std::string_view text) {
  const std::string whole = "request body is not valid UTF-8";
  json::parse_options lenient = strict_options();
  lenient.allow_invalid_utf8 = true;
  json::error_code ec;
  const json::value v = json::parse(json::string_view(text.data(), text.size()), ec, {}, lenient);
  if (ec || !v.is_object()) return whole;
  for (const auto& member : v.get_object()) {
    const std::string_view key(member.key().data(), member.key().size());
    if (!domain::is_valid_utf8(key)) return whole + " (in a field name)";
    if (holds_invalid_utf8(member.value())) return std::string(key) + " is not valid UTF-8";
  }
  return whole;
}

}  // namespace

Decoded<json::object> parse_json_object(std::string_view text) {
  const json::parse_options options = strict_options();
  if (!domain::is_valid_utf8(text)) return BadRequest{invalid_utf8_problem(text)};
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return BadRequest{"request body must be a JSON object"};
  }
  {
    json::basic_parser<StrictnessCheck> sax(options);
    json::error_code ec;
    const std::size_t consumed = sax.write_some(false, text.data(), text.size(), ec);
    if (ec) {
      const std::string& problem = sax.handler().problem;
      if (!problem.empty()) return BadRequest{"request body is not acceptable JSON: " + problem};
      return BadRequest{describe(text, consumed, ec)};
    }
    // The parser stops after one complete value (and the white space after it): whatever is
    // left is a second value or garbage.
    if (consumed < text.size()) {
      return BadRequest{describe(text, consumed, json::error::extra_data)};
    }
  }
  json::error_code ec;
  json::value v = json::parse(json::string_view(text.data(), text.size()), ec, {}, options);
  // Defensive only: the pass above has taken the same text with the same options.
  if (ec) return BadRequest{"request body is not valid JSON: " + ec.message()};
  if (!v.is_object()) return BadRequest{"request body must be a JSON object"};
  return std::move(v.as_object());
}

}  // namespace leadline::api
