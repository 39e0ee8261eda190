// webhook_latency: commit-to-first-attempt latency of leadline's webhook deliveries.
//
// One process is both the API client and the webhook receiver, so every time stamp comes from
// the same steady clock. It listens on 127.0.0.1 (a free port), registers that URL as a webhook
// endpoint (POST /webhooks), then sends POST /leads one at a time on one keep-alive connection,
// `--interval-ms` apart, each lead carrying a probe token in need_summary. For every probe it
// records when the request was sent and when the 201 arrived (the commit acknowledged); the
// receiver records when the delivery's request (headers and body) had arrived and finds the
// token in the body. Latency = receiver arrival - client's 201 arrival (and, second column,
// - request sent). A delivery may arrive before the 201 does (the workers are woken at commit,
// before the answer is written), which gives a negative value; it is kept as measured.
//
//   webhook_latency --port API_PORT --key KEY [--count 300] [--interval-ms 20]
//                   [--wait-ms 15000] [--events lead.created]
//
// Prints one line per column, `name n p50 p90 p99 max` in ms, and `received N/M`; exits 1 when
// a POST failed or a delivery did not arrive within --wait-ms after the last POST.
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Probe {
  Clock::time_point sent{};
  Clock::time_point acked{};
  std::optional<Clock::time_point> arrived;
  int deliveries = 0;
};

std::mutex probes_mutex;
std::vector<Probe> probes;
std::string run_tag;
std::atomic<int> unmatched{0};

// The receiver: one thread per connection (the workers keep a few connections alive).
void serve_connection(tcp::socket socket) {
  beast::flat_buffer buffer;
  beast::error_code ec;
  while (true) {
    http::request<http::string_body> req;
    http::read(socket, buffer, req, ec);
    if (ec) return;
    const Clock::time_point now = Clock::now();
    const std::string& body = req.body();
    const std::string marker = "probe " + run_tag + " #";
    const auto at = body.find(marker);
    if (at == std::string::npos) {
      ++unmatched;
    } else {
      const std::size_t n = std::strtoul(body.c_str() + at + marker.size(), nullptr, 10);
      const std::lock_guard lock(probes_mutex);
      if (n < probes.size()) {
        if (!probes[n].arrived) probes[n].arrived = now;
        ++probes[n].deliveries;
      } else {
        ++unmatched;
      }
    }
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.keep_alive(req.keep_alive());
    res.content_length(0);
    http::write(socket, res, ec);
    if (ec || !req.keep_alive()) return;
  }
}

struct Api {
  Api(asio::io_context& i, tcp::endpoint a, std::string k) : io(i), at(a), key(std::move(k)) {}
  asio::io_context& io;
  tcp::endpoint at;
  std::string key;
  tcp::socket socket{io};
  beast::flat_buffer buffer;

  void connect() {
    socket = tcp::socket(io);
    socket.connect(at);
    socket.set_option(tcp::no_delay(true));
  }

  http::response<http::string_body> call(http::verb verb, const std::string& target,
                                         const std::string& body) {
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::authorization, "Bearer " + key);
    req.set(http::field::content_type, "application/json");
    req.keep_alive(true);
    req.body() = body;
    req.prepare_payload();
    http::write(socket, req);
    http::response<http::string_body> res;
    http::read(socket, buffer, res);
    return res;
  }
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

void report(const char* name, std::vector<double> v) {
  if (v.empty()) {
    std::printf("%s 0 - - - -\n", name);
    return;
  }
  std::sort(v.begin(), v.end());
  auto pct = [&](double p) {
    const std::size_t i =
        std::min(v.size() - 1, static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size())));
    return v[i];
  };
  std::printf("%s %zu %.2f %.2f %.2f %.2f\n", name, v.size(), pct(50), pct(90), pct(99), v.back());
}

}  // namespace

int main(int argc, char** argv) {
  int api_port = 0, count = 300, interval_ms = 20, wait_ms = 15000;
  std::string key, events = "lead.created";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--port") api_port = std::atoi(v.c_str());
    else if (a == "--key") key = v;
    else if (a == "--count") count = std::atoi(v.c_str());
    else if (a == "--interval-ms") interval_ms = std::atoi(v.c_str());
    else if (a == "--wait-ms") wait_ms = std::atoi(v.c_str());
    else if (a == "--events") events = v;
    else {
      std::cerr << "webhook_latency: unknown option " << a << "\n";
      return 2;
    }
  }
  if (api_port <= 0 || key.empty() || count <= 0) {
    std::cerr << "usage: webhook_latency --port API_PORT --key KEY [--count N] [--interval-ms MS]"
                 " [--wait-ms MS] [--events TYPE]\n";
    return 2;
  }
  run_tag = std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 1000000007);
  probes.resize(static_cast<std::size_t>(count));

  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const unsigned short hook_port = acceptor.local_endpoint().port();
  std::thread accept_thread([&] {
    while (true) {
      beast::error_code ec;
      tcp::socket s(io);
      acceptor.accept(s, ec);
      if (ec) return;
      s.set_option(tcp::no_delay(true), ec);
      std::thread(serve_connection, std::move(s)).detach();
    }
  });

  Api api(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(api_port)),
          key);
  int failures = 0;
  try {
    api.connect();
    const std::string hook = "{\"url\":\"http://127.0.0.1:" + std::to_string(hook_port) +
                             "/latency\",\"events\":[\"" + events + "\"],\"description\":\"webhook_latency\"}";
    auto res = api.call(http::verb::post, "/api/v1/external/webhooks", hook);
    if (res.result_int() != 201) {
      std::cerr << "webhook_latency: POST /webhooks answered " << res.result_int() << ": "
                << res.body() << "\n";
      return 1;
    }
    auto next = Clock::now();
    for (int n = 0; n < count; ++n) {
      std::this_thread::sleep_until(next);
      next += std::chrono::milliseconds(interval_ms);
      const std::string body =
          "{\"visitor_name\":\"Latency " + run_tag + " " + std::to_string(n) +
          "\",\"visitor_email\":\"latency." + run_tag + "." + std::to_string(n) +
          "@bench.example.net\",\"pipeline_stage\":\"new\",\"need_summary\":\"probe " + run_tag +
          " #" + std::to_string(n) + " end\",\"source\":\"bench\"}";
      const auto sent = Clock::now();
      auto r = api.call(http::verb::post, "/api/v1/external/leads", body);
      const auto acked = Clock::now();
      {
        const std::lock_guard lock(probes_mutex);
        probes[static_cast<std::size_t>(n)].sent = sent;
        probes[static_cast<std::size_t>(n)].acked = acked;
      }
      if (r.result_int() != 201) {
        ++failures;
        std::cerr << "webhook_latency: POST /leads answered " << r.result_int() << ": " << r.body()
                  << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "webhook_latency: " << e.what() << "\n";
    return 1;
  }

  // Wait for the stragglers.
  const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
  int received = 0;
  while (true) {
    {
      const std::lock_guard lock(probes_mutex);
      received = static_cast<int>(
          std::count_if(probes.begin(), probes.end(), [](const Probe& p) { return p.arrived.has_value(); }));
    }
    if (received == count || Clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  std::vector<double> from_ack, from_send, request_ms;
  int duplicates = 0;
  {
    const std::lock_guard lock(probes_mutex);
    for (const Probe& p : probes) {
      request_ms.push_back(ms(p.acked - p.sent));
      if (p.deliveries > 1) duplicates += p.deliveries - 1;
      if (!p.arrived) continue;
      from_ack.push_back(ms(*p.arrived - p.acked));
      from_send.push_back(ms(*p.arrived - p.sent));
    }
  }
  std::printf("# name n p50_ms p90_ms p99_ms max_ms\n");
  report("from_201", from_ack);
  report("from_send", from_send);
  report("post_round_trip", request_ms);
  std::printf("received %d/%d duplicates %d unmatched %d post_failures %d\n", received, count,
              duplicates, unmatched.load(), failures);
  std::fflush(stdout);
  std::_Exit(received == count && failures == 0 ? 0 : 1);  // receiver threads are left running
}
