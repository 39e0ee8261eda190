// Implementation of the events and webhooks fixture.

#include "support/webhook_fixture.hpp"

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace leadline_test {

const KeySet& webhook_endpoint_keys() {
  static const KeySet keys = {"id",          "url",       "events",
                              "description", "enabled",   "disabled_reason",
                              "created_at",  "updated_at"};
  return keys;
}

const KeySet& webhook_delivery_keys() {
  static const KeySet keys = {"id",
                              "webhook_id",
                              "event_id",
                              "event_type",
                              "status",
                              "attempt_count",
                              "next_attempt_at",
                              "last_attempt_at",
                              "last_status_code",
                              "last_error",
                              "created_at"};
  return keys;
}

const KeySet& webhook_attempt_keys() {
  static const KeySet keys = {"attempted_at", "status_code", "duration_ms", "error",
                              "response_excerpt"};
  return keys;
}

std::vector<std::string> WebhookApiTest::webhook_serve_args() {
  return {"--rate-limit",
          "1000000/60s",
          "--webhook-allow-private",
          "127.0.0.0/8",
          "--webhook-allow-http",
          "--webhook-retry-schedule",
          std::to_string(kWebhookFirstRetry.count()) + "ms," +
              std::to_string(kWebhookSecondRetry.count()) + "ms",
          "--webhook-timeout",
          std::to_string(kWebhookTimeout.count()) + "ms"};
}

void WebhookApiTest::SetUpTestSuite() {
  start_webhook_suite_server(webhook_serve_args());
}

void WebhookApiTest::start_webhook_suite_server(std::vector<std::string> args) {
  try {
    start_suite_server(std::move(args));
  } catch (const std::exception& e) {
    // A failure here would make gtest skip every test of the suite, and ctest counts skipped
    // tests as passing; each test's SetUp tries again with these arguments and fails instead.
    std::cerr << "[webhook fixture] the suite's server did not start: " << e.what() << '\n';
  }
}

std::string WebhookApiTest::hook_path(const std::string& name) const {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = "/";
  if (info != nullptr) {
    for (char c : std::string(info->test_suite_name()) + "." + info->name()) {
      path += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ? c : '-';
    }
    path += "/";
  }
  return path + name;
}

json::object WebhookApiTest::create_webhook(const json::object& body,
                                            std::optional<std::string> key) {
  HttpResponse r = post("/webhooks", body, std::move(key));
  if (r.status != 201 || !r.json || !r.data().is_object()) {
    throw std::runtime_error("creating a webhook endpoint failed\n" + r.describe());
  }
  return r.data().as_object();
}

json::object WebhookApiTest::create_webhook_to(const std::string& url, json::array events,
                                               std::optional<std::string> key) {
  return create_webhook(json::object{{"url", url}, {"events", std::move(events)}}, std::move(key));
}

json::object WebhookApiTest::get_webhook(const std::string& id, std::optional<std::string> key) {
  return get_one("webhooks", id, std::move(key));
}

json::object WebhookApiTest::get_delivery(const std::string& id, std::optional<std::string> key) {
  return get_one("webhook-deliveries", id, std::move(key));
}

json::array WebhookApiTest::deliveries(const std::string& query, std::optional<std::string> key) {
  return list_all("webhook-deliveries", query, std::move(key));
}

json::object WebhookApiTest::delivery_of(const std::string& webhook_id, const std::string& event_id,
                                         std::optional<std::string> key) {
  // Deliveries are created with their event, so one short look suffices; a few tries absorb the
  // feed's own visibility delay.
  auto deadline = std::chrono::steady_clock::now() + 3000ms;
  for (;;) {
    json::array found = deliveries("webhook_id=" + webhook_id + "&event_id=" + event_id, key);
    if (!found.empty()) {
      if (found.size() != 1) {
        throw std::runtime_error("more than one delivery of event " + event_id + " to endpoint " +
                                 webhook_id + ": " + json::serialize(found));
      }
      return found[0].as_object();
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no delivery of event " + event_id + " to endpoint " + webhook_id);
    }
    std::this_thread::sleep_for(50ms);
  }
}

json::object WebhookApiTest::wait_delivery(const std::string& delivery_id,
                                           const std::function<bool(const json::object&)>& done,
                                           std::chrono::milliseconds wait) {
  auto deadline = std::chrono::steady_clock::now() + wait;
  json::object d;
  do {
    d = get_delivery(delivery_id);
    if (done(d)) return d;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  return d;
}

json::object WebhookApiTest::wait_webhook(const std::string& webhook_id,
                                          const std::function<bool(const json::object&)>& done,
                                          std::chrono::milliseconds wait) {
  auto deadline = std::chrono::steady_clock::now() + wait;
  json::object w;
  do {
    w = get_webhook(webhook_id);
    if (done(w)) return w;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  return w;
}

json::array WebhookApiTest::events(const std::string& query, std::optional<std::string> key) {
  return list_all("events", query, std::move(key));
}

json::array WebhookApiTest::wait_events(std::size_t n, const std::string& query,
                                        std::optional<std::string> key,
                                        std::chrono::milliseconds wait) {
  auto deadline = std::chrono::steady_clock::now() + wait;
  json::array found;
  do {
    found = events(query, key);
    if (found.size() >= n) return found;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  return found;
}

json::object WebhookApiTest::last_event(const std::string& type, std::optional<std::string> key) {
  json::array found = wait_events(1, "type=" + type, std::move(key));
  if (found.empty()) throw std::runtime_error("no " + type + " event in the feed");
  return found.back().as_object();
}

::testing::AssertionResult is_webhook_of(const ReceivedRequest& request, const json::value& event,
                                         const std::vector<std::string>& secrets) {
  auto fail = [&](const std::string& what) {
    std::string headers;
    for (const auto& [n, v] : request.headers) headers += "  " + n + ": " + v + "\n";
    return ::testing::AssertionFailure()
           << what << "\nrequest: " << request.method << ' ' << request.target << '\n'
           << headers << "body: " << request.body;
  };
  if (!event.is_object() || !event.as_object().contains("id")) return fail("bad expected event");
  const std::string id = str(event.as_object().at("id"));
  if (request.method != "POST") return fail("method is not POST");

  std::string type = request.header("Content-Type");
  std::string media = type.substr(0, type.find(';'));
  while (!media.empty() && media.back() == ' ') media.pop_back();
  for (auto& c : media) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (media != "application/json") return fail("Content-Type is not application/json");

  static const std::string kAgent = "leadline-webhooks/";
  std::string agent = request.header("User-Agent");
  if (agent.rfind(kAgent, 0) != 0 || agent.size() == kAgent.size()) {
    return fail("User-Agent is not leadline-webhooks/<version>");
  }

  if (request.header_values("webhook-id").size() != 1 || request.header("webhook-id") != id) {
    return fail("webhook-id is not the event id " + id);
  }

  std::string ts = request.header("webhook-timestamp");
  if (ts.empty() || ts.size() > 12 || ts.find_first_not_of("0123456789") != std::string::npos) {
    return fail("webhook-timestamp is not Unix seconds");
  }
  long long seconds = std::atoll(ts.c_str());
  long long arrived =
      std::chrono::duration_cast<std::chrono::seconds>(request.arrived_wall.time_since_epoch())
          .count();
  if (seconds < arrived - 60 || seconds > arrived + 60) {
    return fail("webhook-timestamp is not the time of the attempt (arrived at " +
                std::to_string(arrived) + ")");
  }

  if (request.header_values("webhook-signature").size() != 1) {
    return fail("not exactly one webhook-signature header");
  }
  std::vector<std::string> entries = signature_entries(request.header("webhook-signature"));
  if (entries.size() != secrets.size()) {
    return fail("webhook-signature has " + std::to_string(entries.size()) + " entries; expected " +
                std::to_string(secrets.size()));
  }
  for (std::size_t i = 0; i < secrets.size(); ++i) {
    std::string expected = webhook_signature(secrets[i], id, ts, request.body);
    if (entries[i] != expected) {
      return fail("signature " + std::to_string(i + 1) + " is not made with " + secrets[i] +
                  " (expected " + expected + ")");
    }
  }

  boost::system::error_code ec;
  json::value body = json::parse(request.body, ec);
  if (ec) return fail("the body is not JSON");
  if (body != event) return fail("the body is not the event " + json::serialize(event));
  return ::testing::AssertionSuccess();
}

std::vector<ReceivedRequest> with_webhook_id(const std::vector<ReceivedRequest>& requests,
                                             const std::string& id) {
  std::vector<ReceivedRequest> out;
  for (const auto& r : requests) {
    if (r.header("webhook-id") == id) out.push_back(r);
  }
  return out;
}

}  // namespace leadline_test
