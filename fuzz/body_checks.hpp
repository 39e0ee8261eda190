// What every successfully decoded request body must satisfy, whatever the input: the field rules
// hold for the decoded values (valid UTF-8, limits, canonical ids), so the store never sees less.
#pragma once

#include <boost/json/parse.hpp>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "api/decoded.hpp"
#include "api/json_body.hpp"
#include "domain/field_rules.hpp"
#include "domain/records.hpp"
#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"
#include "fuzz_check.hpp"

namespace leadline::fuzz {

inline void check_text(std::string_view s, std::size_t max) {
  FUZZ_CHECK(domain::is_valid_utf8(s), "decoded text is not valid UTF-8");
  FUZZ_CHECK(s.find('\0') == std::string_view::npos, "decoded text contains NUL");
  FUZZ_CHECK(domain::code_point_count(s) <= max, "decoded text is over its limit");
}

inline void check_optional_text(const std::optional<std::string>& s, std::size_t max) {
  if (s) check_text(*s, max);
}

inline void check_required(std::string_view s, std::size_t max) {
  check_text(s, max);
  FUZZ_CHECK(!domain::trim_unicode_space(s).empty(), "required text is blank");
}

inline void check_email(std::string_view s) {
  check_text(s, domain::limits::kEmail);
  const auto again = domain::normalize_email("email", s);
  FUZZ_CHECK(!again.error && again.address == s,
             "a normalized e-mail does not normalize to itself");
}

inline void check_optional_email(const std::optional<std::string>& s) {
  if (s) check_email(*s);
}

inline void check_tags(const domain::Tags& tags) {
  FUZZ_CHECK(tags.size() <= domain::limits::kTagsPerRecord, "too many tags");
  std::set<std::string_view> seen;
  for (const auto& tag : tags) {
    check_required(tag, domain::limits::kTagLength);
    FUZZ_CHECK(seen.insert(tag).second, "duplicate tag after normalization");
  }
  const auto again = domain::normalize_tags("tags", tags);
  FUZZ_CHECK(!again.error && again.tags == tags, "normalized tags do not normalize to themselves");
}

inline void check_amount(double d) {
  FUZZ_CHECK(std::isfinite(d) && d >= 0, "an amount is negative or not finite");
  FUZZ_CHECK(!std::signbit(d), "an amount is negative zero");
}

inline void check_optional_amount(const std::optional<double>& d) {
  if (d) check_amount(*d);
}

inline void check_id(std::string_view id) {
  FUZZ_CHECK(domain::parse_uuid(id) == std::optional<std::string>(std::string(id)),
             "a decoded id is not a canonical lowercase UUID");
}

template <class T, class Check>
void check_update(const domain::FieldUpdate<T>& update, Check&& check) {
  if (!update.present) {
    FUZZ_CHECK(!update.value, "an absent field carries a value");
    return;
  }
  if (update.value) check(*update.value);
}

// Parses a fuzz input the way the API does; nothing when the API would answer 400.
inline std::optional<boost::json::object> parse_body(std::string_view text) {
  auto parsed = api::parse_json_object(text);
  if (const auto* e = api::failed(parsed)) {
    check_message(*e);
    return std::nullopt;
  }
  // What the strict parser accepts, plain Boost.JSON must accept too.
  boost::json::parse_options options;
  options.max_depth = 64;
  boost::json::error_code ec;
  const auto plain =
      boost::json::parse(boost::json::string_view(text.data(), text.size()), ec, {}, options);
  FUZZ_CHECK(!ec && plain.is_object(), "the strict parser accepted what Boost.JSON rejects");
  return std::move(std::get<boost::json::object>(parsed));
}

}  // namespace leadline::fuzz
