// Splits the query at '&' and '=', decodes each part with Boost.URL (percent escapes, '+' as a
// space, as HTML forms and the clients imitating them write it) and applies the API's rules.
#include "api/query_params.hpp"

#include <boost/url/encoding_opts.hpp>
#include <boost/url/pct_string_view.hpp>

#include "domain/unicode_text.hpp"

namespace leadline::api {

namespace {

// Nothing when a '%' is not followed by two hex digits.
std::optional<std::string> form_decode(std::string_view encoded) {
  const auto escaped = boost::urls::make_pct_string_view(encoded);
  if (!escaped) return std::nullopt;
  return escaped->decode(boost::urls::encoding_opts(/*space_as_plus=*/true));
}

}  // namespace

Decoded<QueryParams> QueryParams::parse(std::string_view query) {
  QueryParams params;
  // Split by hand: boost::urls::parse_query refuses bytes RFC 3986 keeps out of a query (raw
  // UTF-8, '"', '|', '[', ...) that Beast passes through and the API has always accepted.
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto name = form_decode(pair.substr(0, eq));
    auto value =
        form_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
    if (!name || !value) return BadRequest{"query string has a malformed percent-encoding"};
    if (!domain::is_valid_utf8(*name) || !domain::is_valid_utf8(*value)) {
      return BadRequest{"query string is not valid UTF-8"};
    }
    if (params.has(*name)) {
      return BadRequest{"query parameter '" + *name + "' must not be given more than once"};
    }
    params.items_.emplace_back(std::move(*name), std::move(*value));
  }
  return params;
}

std::optional<std::string_view> QueryParams::get(std::string_view name) const {
  for (const auto& [k, v] : items_) {
    if (k == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<BadRequest> QueryParams::reject_unknown(
    std::initializer_list<std::string_view> allowed, std::string_view context) const {
  for (const auto& [k, v] : items_) {
    bool known = false;
    for (auto a : allowed) known = known || a == k;
    if (!known) {
      std::string msg = "unknown query parameter '" + k + "'";
      if (!context.empty()) msg.append(" ").append(context);
      return BadRequest{std::move(msg)};
    }
  }
  return std::nullopt;
}

}  // namespace leadline::api
