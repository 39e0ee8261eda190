// The dashboard's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site
// sends it), Path=/dashboard (the API never receives it), Secure when the page came over HTTPS.
// No Max-Age: it ends with the browser, and the server ends it after 30 min idle or 12 h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "http/request.hpp"

namespace leadline::dashboard {

inline constexpr std::string_view kSessionCookieName = "leadline_session";

// The cookie's value from the Cookie header, or nothing.
std::optional<std::string_view> session_cookie(const http::Request& request);

// Set-Cookie values: a new session, and one that makes the browser forget it.
std::string session_cookie_header(std::string_view token, bool secure);
std::string cleared_session_cookie_header(bool secure);

}  // namespace leadline::dashboard
