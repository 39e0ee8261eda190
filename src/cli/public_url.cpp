// Parsing with Boost.URL, so IPv6 literals, ports and what may follow them are read as browsers
// read them.
#include "cli/public_url.hpp"

#include <boost/url/parse.hpp>

#include "cli/setting_sources.hpp"
#include "domain/host_name.hpp"

namespace leadline::cli {

namespace urls = boost::urls;

OptionSpec public_url_option() {
  return {.name = "public-url",
          .value_name = "URL",
          .help = std::string("where users reach the server, the base of the setup link: "
                              "http(s)://HOST[:PORT] (env LEADLINE_PUBLIC_URL, default ") +
                  kDefaultPublicUrl + ")"};
}

std::optional<std::string> parse_public_url(std::string_view text) {
  // An absolute URI has no fragment: "#…" fails here already.
  const auto url = urls::parse_absolute_uri(text);
  if (!url) return std::nullopt;
  if (url->scheme_id() != urls::scheme::http && url->scheme_id() != urls::scheme::https) {
    return std::nullopt;
  }
  if (!url->has_authority() || url->has_userinfo() || url->has_query()) return std::nullopt;
  if (!url->encoded_path().empty() && url->encoded_path() != "/") return std::nullopt;
  // port_number() is 0 for an empty port, port 0 and a port beyond 65535: none is reachable.
  if (url->has_port() && url->port_number() == 0) return std::nullopt;
  switch (url->host_type()) {
    case urls::host_type::ipv4:
    case urls::host_type::ipv6:
      break;
    case urls::host_type::name:
      if (!domain::is_host_name(url->encoded_host())) return std::nullopt;
      break;
    default:
      return std::nullopt;
  }
  std::string base(text);
  if (base.ends_with('/')) base.pop_back();
  return base;
}

Result<std::string> resolve_public_url(const ParsedArguments& args) {
  const auto given = flag_or_env(args, "public-url", "LEADLINE_PUBLIC_URL");
  if (!given) return std::string(kDefaultPublicUrl);
  auto base = parse_public_url(given->value);
  if (!base) {
    return given->must_be(
        "an http:// or https:// URL of a host and an optional port, without path, query or "
        "fragment");
  }
  return *base;
}

}  // namespace leadline::cli
