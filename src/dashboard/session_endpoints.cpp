// Signing in and out, the signed-in user, and choosing a password from a setup link.
#include <boost/json/object.hpp>

#include "api/body_fields.hpp"
#include "api/envelope.hpp"
#include "api/resource_support.hpp"
#include "auth/password_hash.hpp"
#include "auth/secret_token.hpp"
#include "dashboard/dashboard_call.hpp"
#include "dashboard/session_cookie.hpp"
#include "dashboard/sign_in.hpp"
#include "domain/password_rule.hpp"

namespace leadline::dashboard {

namespace {

constexpr std::size_t kMaxEmailLength = 254;
constexpr std::string_view kSetupLinkInvalid =
    "this setup link is invalid, used or expired: ask an operator for a new one "
    "(leadline users reset)";

void write_session(api::JsonWriter& w, const domain::DashboardUser& user,
                   std::string_view session_token) {
  w.begin_object()
      .key("user")
      .begin_object()
      .field("id", user.id.value)
      .field("email", user.email)
      .field("name", user.name)
      .field("workspace_id", user.workspace_id.value)
      .end_object()
      .field("csrf_token", auth::csrf_token_for(session_token))
      .end_object();
}

// A new session id at every sign-in (no fixation), stored only as its hash; a session the
// browser still had ends.
api::Outcome start_session(DashboardCall& call, const domain::DashboardUser& user) {
  if (call.session != nullptr) call.db.sessions().end(auth::secret_token_hash(call.session->token));
  const std::string token = auth::generate_secret_token();
  call.db.sessions().create(user.id, auth::secret_token_hash(token));
  call.response.headers.emplace_back("Set-Cookie", session_cookie_header(token, call.origin.https));
  api::respond_data(call.response, api::Success::kOk,
                    [&](api::JsonWriter& w) { write_session(w, user, token); });
  return api::kAnswered;
}

// A string member, present, at most `max` bytes; the password is taken as sent (no trimming).
api::Decoded<std::string> secret_field(const boost::json::object& body, std::string_view name,
                                       std::size_t max) {
  const auto* member = body.if_contains(name);
  if (member == nullptr || !member->is_string()) {
    return api::BadRequest{std::string(name) + " is required and must be a string"};
  }
  const auto& text = member->get_string();
  if (text.size() > max) {
    return api::BadRequest{std::string(name) + " must be at most " + std::to_string(max) +
                           " bytes"};
  }
  return std::string(text);
}

api::Outcome sign_in(DashboardCall& call) {
  auto body = api::json_body(call.request);
  if (auto* e = api::failed(body)) return api::ApiError(*e);
  const auto& object = api::value(body);
  if (auto e = api::body::reject_unknown_fields(object, {"email", "password"})) return *e;
  auto email = secret_field(object, "email", kMaxEmailLength);
  if (auto* e = api::failed(email)) return api::ApiError(*e);
  // Four bytes per character at most: longer cannot pass the password rule.
  auto password = secret_field(object, "password", 4 * domain::kPasswordMaxLength);
  if (auto* e = api::failed(password)) return api::ApiError(*e);

  auto checked = check_sign_in(call.db, api::value(email), api::value(password));
  if (auto* e = std::get_if<api::ApiError>(&checked)) return std::move(*e);
  return start_session(call, std::get<domain::DashboardUser>(checked));
}

api::Outcome sign_out(DashboardCall& call) {
  call.db.sessions().end(auth::secret_token_hash(call.session->token));
  call.response.headers.emplace_back("Set-Cookie",
                                     cleared_session_cookie_header(call.origin.https));
  api::respond_data(call.response, api::Success::kOk, [](api::JsonWriter& w) {
    w.begin_object().field("signed_out", true).end_object();
  });
  return api::kAnswered;
}

}  // namespace

api::Outcome session_endpoint(DashboardCall& call) {
  const std::string_view method = call.request.method;
  if (method == "POST") return sign_in(call);
  if (call.session == nullptr) {
    return api::ApiError(api::ErrorKind::kNotSignedIn, "not signed in");
  }
  if (method == "DELETE") return sign_out(call);
  api::respond_data(call.response, api::Success::kOk, [&](api::JsonWriter& w) {
    write_session(w, call.session->user, call.session->token);
  });
  return api::kAnswered;
}

api::Outcome setup_endpoint(DashboardCall& call) {
  auto body = api::json_body(call.request);
  if (auto* e = api::failed(body)) return api::ApiError(*e);
  const auto& object = api::value(body);
  if (auto e = api::body::reject_unknown_fields(object, {"token", "password"})) return *e;
  auto token = secret_field(object, "token", auth::kSecretTokenLength);
  if (auto* e = api::failed(token)) return api::ApiError(*e);
  auto password = secret_field(object, "password", 4 * domain::kPasswordMaxLength);
  if (auto* e = api::failed(password)) return api::ApiError(*e);
  if (auto rule = domain::check_password(api::value(password))) {
    return api::ApiError(api::BadRequest{*rule});
  }
  if (!auth::looks_like_secret_token(api::value(token))) {
    return api::ApiError(api::ErrorKind::kStateRefuses, std::string(kSetupLinkInvalid));
  }
  const auto user = call.db.users().finish_setup(auth::secret_token_hash(api::value(token)),
                                                 auth::hash_password(api::value(password)));
  if (!user) return api::ApiError(api::ErrorKind::kStateRefuses, std::string(kSetupLinkInvalid));
  return start_session(call, *user);
}

}  // namespace leadline::dashboard
