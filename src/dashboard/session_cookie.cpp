#include "dashboard/session_cookie.hpp"

namespace leadline::dashboard {

namespace {

std::string with_attributes(std::string cookie, bool secure) {
  cookie += "; Path=/dashboard; HttpOnly; SameSite=Strict";
  if (secure) cookie += "; Secure";
  return cookie;
}

}  // namespace

std::optional<std::string_view> session_cookie(const http::Request& request) {
  // "a=1; b=2" (RFC 6265 section 5.4); the first cookie of our name wins.
  std::string_view rest = request.header("Cookie");
  while (!rest.empty()) {
    const std::size_t end = rest.find(';');
    std::string_view pair = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    if (pair.substr(0, equals) == kSessionCookieName) {
      std::string_view value = pair.substr(equals + 1);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
      return value;
    }
  }
  return std::nullopt;
}

std::string session_cookie_header(std::string_view token, bool secure) {
  std::string cookie(kSessionCookieName);
  cookie.append("=").append(token);
  return with_attributes(std::move(cookie), secure);
}

std::string cleared_session_cookie_header(bool secure) {
  std::string cookie(kSessionCookieName);
  cookie.append("=; Max-Age=0");
  return with_attributes(std::move(cookie), secure);
}

}  // namespace leadline::dashboard
