// ApiHandler::render_refusal: the HTTP layer's own refusals and the last-resort 500 share the
// API's error envelope and its X-Request-Id rule (echo a sane client id, else generate one).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "api/api_handler.hpp"
#include "auth/authenticator.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "store/store.hpp"

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

class ApiRefusalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "leadline-refusal-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    store_ = store::open_store("sqlite:" + (dir_ / "leadline.db").string());
    authenticator_ = std::make_unique<auth::Authenticator>(*store_, std::vector<auth::IpRange>{});
    limiter_ = std::make_unique<auth::SlidingWindowLimiter>(auth::RateLimitPolicy{});
    usage_ = std::make_unique<auth::UsageRecorder>(*store_, std::chrono::milliseconds(1000));
    handler_ = std::make_unique<ApiHandler>(*store_, *authenticator_, *limiter_, *usage_);
  }
  void TearDown() override {
    handler_.reset();
    usage_.reset();
    limiter_.reset();
    authenticator_.reset();
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  http::Response refuse(unsigned status, std::string_view reason, const http::Request* head) {
    http::Response response;
    handler_->render_refusal(status, reason, head, response);
    return response;
  }

  std::filesystem::path dir_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<auth::Authenticator> authenticator_;
  std::unique_ptr<auth::SlidingWindowLimiter> limiter_;
  std::unique_ptr<auth::UsageRecorder> usage_;
  std::unique_ptr<ApiHandler> handler_;
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
