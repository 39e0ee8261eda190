// ApiHandler::render_refusal: the HTTP layer's own refusals and the last-resort 500 share the
// API's error envelope, its one table of statuses, and its X-Request-Id rule (echo a sane client
// id, else generate one).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "api/api_handler.hpp"
#include "api/errors.hpp"
#include "auth/authenticator.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "store/database.hpp"
#include "temp_dir.hpp"

namespace leadline::api {
namespace {

std::string header(const http::Response& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return {};
}

http::Request request(std::string_view method, std::string_view target) {
  http::Request r;
  r.method = method;
  r.target = target;
  return r;
}

std::string error_sentence(const http::Response& response) {
  const auto body = boost::json::parse(response.body).as_object();
  EXPECT_EQ(body.at("success"), false);
  return std::string(body.at("error").as_string());
}

// Members go in dependency order, so they are destroyed handler first, directory last.
class ApiRefusalTest : public ::testing::Test {
 protected:
  http::Response refuse(http::RefusalKind kind, const http::Request* head, std::size_t limit = 0) {
    http::Response response;
    handler_.render_refusal({kind, limit}, head, response);
    return response;
  }

  unit_test::TempDir dir_;
  std::unique_ptr<store::Database> db_ =
      store::open_database("sqlite:" + (dir_.path() / "leadline.db").string());
  auth::Authenticator authenticator_{
      [this](std::string_view hash) { return db_->keys().find_by_hash(hash); }, {}};
  auth::SlidingWindowLimiter limiter_{auth::RateLimitPolicy{}};
  auth::UsageRecorder usage_{[](const std::vector<domain::UsageDelta>&) {},
                             std::chrono::milliseconds(1000)};
  ApiHandler handler_{*db_, authenticator_, limiter_, usage_};
};

TEST_F(ApiRefusalTest, EchoesAnAcceptableClientRequestIdFromTheHead) {
  http::Request head = request("POST", "/api/v1/external/leads");
  head.headers.push_back({"x-request-id", "trace-42.A_b"});
  const http::Response response = refuse(http::RefusalKind::kBodyTooLarge, &head, 1048576);
  EXPECT_EQ(response.status, 413u);
  EXPECT_EQ(header(response, "X-Request-Id"), "trace-42.A_b");
  EXPECT_EQ(error_sentence(response), "request body is larger than the limit of 1048576 bytes");
}

TEST_F(ApiRefusalTest, GeneratesAnIdWithoutAHeadOrForAnUnacceptableOne) {
  http::Request head = request("GET", "/");
  head.headers.push_back({"X-Request-Id", std::string_view("has space")});
  const std::string replaced =
      header(refuse(http::RefusalKind::kMalformedRequest, &head), "X-Request-Id");
  EXPECT_NE(replaced, "has space");
  EXPECT_EQ(replaced.rfind("req_", 0), 0u) << replaced;
  const std::string generated =
      header(refuse(http::RefusalKind::kHeadersTooLarge, nullptr, 16384), "X-Request-Id");
  EXPECT_EQ(generated.rfind("req_", 0), 0u) << generated;
}

// A 500 says only "internal error" and the request id, which is also the header's value.
TEST_F(ApiRefusalTest, InternalErrorNamesItsRequestId) {
  http::Request head = request("GET", "/api/v1/external/leads");
  head.headers.push_back({"X-Request-Id", "abc"});
  const http::Response response = refuse(http::RefusalKind::kHandlerFailed, &head);
  EXPECT_EQ(error_sentence(response), "internal error (request id abc)");
  EXPECT_EQ(header(response, "X-Request-Id"), "abc");
}

// Every refusal of the HTTP layer gets its status and its sentence from the one table.
TEST_F(ApiRefusalTest, EachRefusalHasItsStatusAndSentence) {
  struct Case {
    http::RefusalKind kind;
    std::size_t limit;
    unsigned status;
    std::string sentence;
  };
  for (const Case& c : std::vector<Case>{
           {http::RefusalKind::kMalformedRequest, 0, 400, "malformed HTTP request"},
           {http::RefusalKind::kHeadersTooLarge, 16384, 431,
            "request header fields are larger than the limit of 16384 bytes"},
           {http::RefusalKind::kBodyTooLarge, 1048576, 413,
            "request body is larger than the limit of 1048576 bytes"},
           {http::RefusalKind::kOverConnectionLimit, 0, 503, "server is at its connection limit"},
       }) {
    const http::Response response = refuse(c.kind, nullptr, c.limit);
    EXPECT_EQ(response.status, c.status) << c.sentence;
    EXPECT_EQ(error_sentence(response), c.sentence);
    EXPECT_TRUE(response.close) << c.sentence;
  }
}

// The table's headers: the challenge of a 401, the Allow of a 405, the Retry-After of a 429 and
// of an outage, the conflicting id of a duplicate e-mail in the body.
TEST(ErrorTableTest, KindsAddTheirHeadersAndBody) {
  http::Response r401;
  render_error({ErrorKind::kInvalidCredentials, "invalid or revoked API key"}, r401);
  EXPECT_EQ(r401.status, 401u);
  EXPECT_EQ(header(r401, "WWW-Authenticate"), "Bearer");

  http::Response r405;
  render_error(method_not_allowed("PUT", "GET, PATCH"), r405);
  EXPECT_EQ(r405.status, 405u);
  EXPECT_EQ(header(r405, "Allow"), "GET, PATCH");
  EXPECT_EQ(error_sentence(r405), "method PUT is not allowed here; allowed: GET, PATCH");

  ApiError limited(ErrorKind::kRateLimited, "rate limit exceeded");
  limited.retry_after_s = 17;
  http::Response r429;
  render_error(limited, r429);
  EXPECT_EQ(r429.status, 429u);
  EXPECT_EQ(header(r429, "Retry-After"), "17");

  http::Response r503;
  render_error(database_unavailable("req_1"), r503);
  EXPECT_EQ(r503.status, 503u);
  EXPECT_EQ(header(r503, "Retry-After"), "1");
  EXPECT_EQ(error_sentence(r503), "database unavailable (request id req_1); retry shortly");

  ApiError duplicate(ErrorKind::kDuplicateEmail, "A contact with this email already exists");
  duplicate.conflicting_id = "0190-id";
  http::Response r409;
  render_error(duplicate, r409);
  EXPECT_EQ(r409.status, 409u);
  EXPECT_EQ(boost::json::parse(r409.body).at("data").at("id"), "0190-id");

  http::Response r400;
  render_error(BadRequest{"limit must be an integer"}, r400);
  EXPECT_EQ(r400.status, 400u);
  EXPECT_TRUE(r400.headers.empty());
}

}  // namespace
}  // namespace leadline::api
