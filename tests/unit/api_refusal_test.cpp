// ApiHandler::render_refusal: the HTTP layer's own refusals and the last-resort 500 share the
// API's error envelope and its X-Request-Id rule (echo a sane client id, else generate one).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "api/api_handler.hpp"
#include "auth/authenticator.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "store/store.hpp"
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
  http::Response refuse(unsigned status, std::string_view reason, const http::Request* head) {
    http::Response response;
    handler_.render_refusal(status, reason, head, response);
    return response;
  }

  unit_test::TempDir dir_;
  std::unique_ptr<store::Store> store_ =
      store::open_store("sqlite:" + (dir_.path() / "leadline.db").string());
  auth::Authenticator authenticator_{*store_, {}};
  auth::SlidingWindowLimiter limiter_{auth::RateLimitPolicy{}};
  auth::UsageRecorder usage_{*store_, std::chrono::milliseconds(1000)};
  ApiHandler handler_{*store_, authenticator_, limiter_, usage_};
};

TEST_F(ApiRefusalTest, EchoesAnAcceptableClientRequestIdFromTheHead) {
  http::Request head = request("POST", "/api/v1/external/leads");
  head.headers.push_back({"x-request-id", "trace-42.A_b"});
  const http::Response response = refuse(413, "request body larger than 1 MiB", &head);
  EXPECT_EQ(response.status, 413u);
  EXPECT_EQ(header(response, "X-Request-Id"), "trace-42.A_b");
  EXPECT_EQ(error_sentence(response), "request body larger than 1 MiB");
}

TEST_F(ApiRefusalTest, GeneratesAnIdWithoutAHeadOrForAnUnacceptableOne) {
  http::Request head = request("GET", "/");
  head.headers.push_back({"X-Request-Id", std::string_view("has space")});
  const std::string replaced = header(refuse(400, "malformed HTTP request", &head), "X-Request-Id");
  EXPECT_NE(replaced, "has space");
  EXPECT_EQ(replaced.rfind("req_", 0), 0u) << replaced;
  const std::string generated =
      header(refuse(431, "request headers too large", nullptr), "X-Request-Id");
  EXPECT_EQ(generated.rfind("req_", 0), 0u) << generated;
}

// A 500 says only "internal error" and the request id, which is also the header's value.
TEST_F(ApiRefusalTest, InternalErrorNamesItsRequestId) {
  http::Request head = request("GET", "/api/v1/external/leads");
  head.headers.push_back({"X-Request-Id", "abc"});
  const http::Response response = refuse(500, "internal error", &head);
  EXPECT_EQ(error_sentence(response), "internal error (request id abc)");
  EXPECT_EQ(header(response, "X-Request-Id"), "abc");
}

}  // namespace
}  // namespace leadline::api
