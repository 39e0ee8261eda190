// Percent-decoding per RFC 3986 with '+' as space (HTML form convention that clients use).
#include "api/query_params.hpp"

#include "domain/unicode_text.hpp"

namespace leadline::api {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      const int hi = hex_digit(in[i + 1]);
      const int lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

Decoded<QueryParams> QueryParams::parse(std::string_view query) {
  QueryParams params;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) {
      if (end == query.size()) break;
      continue;
    }
    const std::size_t eq = pair.find('=');
    auto name = percent_decode(pair.substr(0, eq));
    auto value =
        percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
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
