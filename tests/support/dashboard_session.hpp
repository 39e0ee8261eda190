// The browser's side of the dashboard for the black-box suites: a one-cookie jar holding the
// session cookie, the session's CSRF token, and requests sent the way the dashboard's own script
// sends them (cookie always, X-CSRF-Token on state changes) — or deliberately without them. Plus
// Set-Cookie parsing for the cookie-attribute checks and the operator's `users add`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "support/http_client.hpp"

namespace leadline_test {

inline constexpr const char* kSessionCookieName = "leadline_session";
inline constexpr const char* kSignInFailure = "Incorrect e-mail or password";

// One Set-Cookie header: the cookie and its attributes (names lower-cased, as RFC 6265 compares
// them; an attribute without '=' maps to "").
struct SetCookie {
  std::string name;
  std::string value;
  std::map<std::string, std::string> attributes;

  bool has(std::string_view attribute) const;
  std::string attribute(std::string_view name) const;  // "" when absent
};

std::optional<SetCookie> parse_set_cookie(std::string_view header);
// Every Set-Cookie of the response naming the session cookie.
std::vector<SetCookie> session_cookies_set(const HttpResponse& response);

// What a state-changing request carries as X-CSRF-Token.
enum class Csrf { kSession, kNone };

class DashboardSession {
 public:
  DashboardSession(const std::string& host, unsigned short port);

  // POST /dashboard/api/session. A 200 puts its cookie in the jar and keeps its csrf_token;
  // any other answer leaves the jar as it was.
  HttpResponse sign_in(const std::string& email, const std::string& password,
                       const Headers& extra = {});
  // DELETE /dashboard/api/session with the token. The jar keeps the old cookie, so a test can
  // show that it no longer opens anything.
  HttpResponse sign_out(const Headers& extra = {});

  // METHOD /dashboard/api/<path> ("keys", "webhooks?id=…") with the jar's cookie; a method other
  // than GET and HEAD carries the session's X-CSRF-Token unless `csrf` is kNone. `extra` headers
  // come last (an Origin, a Sec-Fetch-Site, another X-CSRF-Token).
  HttpResponse api(std::string_view method, const std::string& path,
                   std::optional<boost::json::value> body = std::nullopt, const Headers& extra = {},
                   Csrf csrf = Csrf::kSession);
  HttpResponse get(const std::string& path, const Headers& extra = {});
  HttpResponse post(const std::string& path, std::optional<boost::json::value> body = std::nullopt,
                    const Headers& extra = {});
  // GET of any path (a page such as "/dashboard/keys") with the jar's cookie.
  HttpResponse page(const std::string& path, const Headers& extra = {});

  // This server's origin as a browser names it: "http://127.0.0.1:PORT".
  std::string origin() const;
  // The session id in the jar ("" when none) and the CSRF token of the last sign-in.
  const std::string& cookie() const { return cookie_; }
  const std::string& csrf_token() const { return csrf_; }
  // Puts another cookie value in the jar (a stale one, another instance's), keeping the token.
  void use_cookie(std::string value) { cookie_ = std::move(value); }
  void set_csrf_token(std::string token) { csrf_ = std::move(token); }

  HttpClient& client() { return client_; }

 private:
  Headers with_cookie(const Headers& extra) const;

  std::string host_;
  unsigned short port_;
  HttpClient client_;
  std::string cookie_;
  std::string csrf_;
};

// `leadline users add --workspace WS --email E --name N --password-stdin --json --db DB_URL`;
// returns the JSON it printed (the user, setup_url null).
boost::json::object add_dashboard_user(const std::string& db_url, const std::string& workspace,
                                       const std::string& email, const std::string& password,
                                       const std::string& name = "Dashboard User");

}  // namespace leadline_test
