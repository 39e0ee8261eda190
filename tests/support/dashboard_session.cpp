// Implementation of the dashboard session helper.

#include "support/dashboard_session.hpp"

#include <cctype>
#include <stdexcept>

#include "support/cli_runner.hpp"

namespace leadline_test {

namespace {

namespace json = boost::json;

constexpr const char* kSessionPath = "/dashboard/api/session";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool changes_state(std::string_view method) {
  return method != "GET" && method != "HEAD";
}

}  // namespace

bool SetCookie::has(std::string_view attribute) const {
  return attributes.contains(lower(attribute));
}

std::string SetCookie::attribute(std::string_view name) const {
  auto it = attributes.find(lower(name));
  return it == attributes.end() ? std::string() : it->second;
}

std::optional<SetCookie> parse_set_cookie(std::string_view header) {
  SetCookie cookie;
  bool first = true;
  while (!header.empty() || first) {
    const std::size_t semicolon = header.find(';');
    const std::string_view part = trimmed(header.substr(0, semicolon));
    header =
        semicolon == std::string_view::npos ? std::string_view{} : header.substr(semicolon + 1);
    const std::size_t equals = part.find('=');
    if (first) {
      if (equals == std::string_view::npos || equals == 0) return std::nullopt;
      cookie.name = std::string(trimmed(part.substr(0, equals)));
      cookie.value = std::string(trimmed(part.substr(equals + 1)));
      first = false;
      continue;
    }
    if (part.empty()) continue;
    if (equals == std::string_view::npos) {
      cookie.attributes[lower(part)] = "";
    } else {
      cookie.attributes[lower(trimmed(part.substr(0, equals)))] =
          std::string(trimmed(part.substr(equals + 1)));
    }
  }
  return cookie;
}

std::vector<SetCookie> session_cookies_set(const HttpResponse& response) {
  std::vector<SetCookie> out;
  for (const auto& header : response.header_values("Set-Cookie")) {
    auto cookie = parse_set_cookie(header);
    if (cookie && cookie->name == kSessionCookieName) out.push_back(std::move(*cookie));
  }
  return out;
}

DashboardSession::DashboardSession(const std::string& host, unsigned short port)
    : host_(host), port_(port), client_(host, port) {
  // The dashboard is outside the OpenAPI document; its answers are not checked against it.
  client_.contract_checked = false;
}

Headers DashboardSession::with_cookie(const Headers& extra) const {
  Headers headers;
  if (!cookie_.empty())
    headers.emplace_back("Cookie", std::string(kSessionCookieName) + "=" + cookie_);
  headers.insert(headers.end(), extra.begin(), extra.end());
  return headers;
}

HttpResponse DashboardSession::sign_in(const std::string& email, const std::string& password,
                                       const Headers& extra) {
  // As the sign-in page sends it: no CSRF token, even from a browser that is signed in already.
  const Headers& headers = extra;
  HttpResponse r = client_.request(
      "POST", kSessionPath, json::serialize(json::object{{"email", email}, {"password", password}}),
      with_cookie(headers));
  if (r.status != 200) return r;
  const auto cookies = session_cookies_set(r);
  if (cookies.size() != 1) {
    throw std::runtime_error("a sign-in answered 200 without exactly one session cookie\n" +
                             r.describe());
  }
  cookie_ = cookies.front().value;
  csrf_ = std::string(r.data().as_object().at("csrf_token").as_string());
  return r;
}

HttpResponse DashboardSession::sign_out(const Headers& extra) {
  return api("DELETE", "session", std::nullopt, extra);
}

HttpResponse DashboardSession::api(std::string_view method, const std::string& path,
                                   std::optional<json::value> body, const Headers& extra,
                                   Csrf csrf) {
  Headers headers;
  if (changes_state(method) && csrf == Csrf::kSession) headers.emplace_back("X-CSRF-Token", csrf_);
  headers.insert(headers.end(), extra.begin(), extra.end());
  std::optional<std::string> text;
  if (body) text = json::serialize(*body);
  return client_.request(method, "/dashboard/api/" + path, std::move(text), with_cookie(headers));
}

HttpResponse DashboardSession::get(const std::string& path, const Headers& extra) {
  return api("GET", path, std::nullopt, extra);
}

HttpResponse DashboardSession::post(const std::string& path, std::optional<json::value> body,
                                    const Headers& extra) {
  return api("POST", path, std::move(body), extra);
}

HttpResponse DashboardSession::page(const std::string& path, const Headers& extra) {
  return client_.request("GET", path, std::nullopt, with_cookie(extra));
}

std::string DashboardSession::origin() const {
  return "http://" + host_ + ":" + std::to_string(port_);
}

json::object add_dashboard_user(const std::string& db_url, const std::string& workspace,
                                const std::string& email, const std::string& password,
                                const std::string& name) {
  CliOptions options;
  options.stdin_data = password + "\n";
  json::value user = run_cli_json({"users", "add", "--workspace", workspace, "--email", email,
                                   "--name", name, "--password-stdin", "--db", db_url},
                                  options);
  if (!user.is_object()) throw std::runtime_error("users add printed no object");
  return user.as_object();
}

}  // namespace leadline_test
