// Hostile clients at the connection level: slowloris heads and bodies, silent and idle
// connections, clients that pipeline and never read, truncated bodies, oversized or ambiguous
// framing, pipelining order, and thousands of idle connections against --max-connections. The
// servers run with short timeouts (the --*-timeout-ms flags, validated here too) so that every
// timeout shows within a second or two.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/fixture.hpp"
#include "support/raw_socket.hpp"

namespace leadline_test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kShortTimeout = 1000ms;
// Far beyond kShortTimeout and well below the 10 s / 30 s defaults: a connection still open
// at this point was not cut off by the shortened timeout.
constexpr auto kCutOffDeadline = 6000ms;

// Resident memory of a process in KiB (0 when unreadable).
long resident_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

std::string get_head(const std::string& target, const std::string& key,
                     const std::string& extra = "") {
  std::string head = "GET " + target + " HTTP/1.1\r\nHost: leadline\r\n";
  if (!key.empty()) head += "Authorization: Bearer " + key + "\r\n";
  return head + extra + "\r\n";
}

std::string post_request(const std::string& target, const std::string& key, const std::string& body,
                         const std::string& extra = "") {
  return "POST " + target + " HTTP/1.1\r\nHost: leadline\r\nAuthorization: Bearer " + key +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + extra + "\r\n" + body;
}

class HostileClientsTest : public ApiTest {
 public:
  static void SetUpTestSuite() {
    start_suite_server({"--rate-limit", "1000000/60s", "--header-timeout-ms", "1000",
                        "--body-timeout-ms", "1000", "--write-timeout-ms", "1000",
                        "--idle-timeout-ms", "1500"});
  }

 protected:
  RawSocket raw(int receive_buffer = 0) {
    return RawSocket(server().host(), server().port(), receive_buffer);
  }
  std::string path(const std::string& rest) const { return std::string(kBase) + rest; }
};

// A client that sends `bytes` one at a time, and what became of it.
struct Trickle {
  Trickle(std::string b, RawSocket s) : bytes(std::move(b)), socket(std::move(s)) {}
  std::string bytes;
  RawSocket socket;
  std::size_t sent = 0;
  bool closed = false;
  std::string received;
};

TEST_F(HostileClientsTest, SlowlorisHeadsAreCutOffAtTheHeaderTimeoutWhileOthersAreServed) {
  // A head of ~400 bytes would take 40 s at this pace: only a timeout counted from its first
  // byte (not re-armed by every byte) ends it early.
  const std::string head =
      get_head(path("/leads"), ws_.rw.key, "X-Padding: " + std::string(250, 'p') + "\r\n");
  std::vector<Trickle> slow;
  for (int i = 0; i < 8; ++i) slow.emplace_back(head, raw());
  RawSocket silent = raw();  // connects and never sends a byte
  bool silent_closed = false;

  const auto start = Clock::now();
  int served = 0;
  while (Clock::now() - start < kCutOffDeadline) {
    bool all_closed = silent_closed;
    for (auto& t : slow) {
      if (t.closed) continue;
      all_closed = false;
      if (t.sent < t.bytes.size() &&
          t.socket.send_some(std::string_view(t.bytes).substr(t.sent, 1)) == 1) {
        ++t.sent;
      }
      if (t.socket.read_some(t.received, 0ms) == RawSocket::ReadStatus::closed) t.closed = true;
    }
    std::string ignored;
    if (!silent_closed && silent.read_some(ignored, 0ms) == RawSocket::ReadStatus::closed) {
      silent_closed = true;
    }
    if (all_closed) break;
    ASSERT_STATUS(get("/leads"), 200u);
    ++served;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(silent_closed) << "a connection that never sent a byte was kept open";
  for (const auto& t : slow) {
    EXPECT_TRUE(t.closed) << "a slowloris client was still connected after "
                          << kCutOffDeadline.count() << " ms, having sent " << t.sent << " bytes";
    EXPECT_LT(t.sent, t.bytes.size());
    EXPECT_EQ(t.received.find("HTTP/1.1 2"), std::string::npos) << t.received;
  }
  EXPECT_GE(served, 5);
  EXPECT_STATUS(get("/leads"), 200u);
}

TEST_F(HostileClientsTest, SlowBodyIsCutOffAtTheBodyTimeout) {
  const std::string body = R"({"visitor_name":")" + std::string(300, 'a') + R"("})";
  Trickle t(post_request(path("/leads"), ws_.rw.key, body), raw());
  // The head goes at once; only the body trickles.
  const std::size_t head_size = t.bytes.find("\r\n\r\n") + 4;
  ASSERT_TRUE(t.socket.send_all(std::string_view(t.bytes).substr(0, head_size)));
  t.sent = head_size;
  const auto start = Clock::now();
  while (!t.closed && Clock::now() - start < kCutOffDeadline) {
    if (t.socket.send_some(std::string_view(t.bytes).substr(t.sent, 1)) == 1) ++t.sent;
    if (t.socket.read_some(t.received, 100ms) == RawSocket::ReadStatus::closed) t.closed = true;
  }
  EXPECT_TRUE(t.closed) << "a slow body was still being read after " << kCutOffDeadline.count()
                        << " ms";
  EXPECT_LT(t.sent, t.bytes.size());
  EXPECT_EQ(t.received.find("HTTP/1.1 2"), std::string::npos) << t.received;
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(HostileClientsTest, ClientThatNeverReadsIsClosedByTheWriteTimeoutAndCostsBoundedMemory) {
  // 100 leads of ~2.5 KB: each page of 100 is about 250 KB of response.
  std::vector<json::value> lines;
  for (int i = 0; i < 100; ++i) {
    lines.push_back(json::object{{"type", "lead"},
                                 {"visitor_name", "Big " + std::to_string(i)},
                                 {"visitor_company", repeat("c", 200)},
                                 {"need_summary", repeat("n", 2000)}});
  }
  import_lines(ws_.id, lines);
  const pid_t pid = server().pid();
  ASSERT_GT(pid, 0);
  const long rss_before = resident_kib(pid);

  // 1,000 pipelined requests: answering them all would mean ~250 MB of responses.
  constexpr int kRequests = 1000;
  std::string pipeline;
  for (int i = 0; i < kRequests; ++i) pipeline += get_head(path("/leads?limit=100"), ws_.rw.key);
  RawSocket hog = raw(4096);
  std::size_t sent = 0;
  for (auto until = Clock::now() + 300ms; sent < pipeline.size() && Clock::now() < until;) {
    std::size_t n = hog.send_some(std::string_view(pipeline).substr(sent));
    sent += n;
    if (n == 0) std::this_thread::sleep_for(20ms);
  }
  ASSERT_GT(sent, 0u);

  // The server keeps serving everyone else while the hog is stuck (well within its 1 s write
  // timeout).
  for (int i = 0; i < 10; ++i) ASSERT_STATUS(get("/leads?limit=5"), 200u);
  const long rss_stuck = resident_kib(pid);
  EXPECT_LT(rss_stuck - rss_before, 64 * 1024)
      << "server memory grew from " << rss_before << " KiB to " << rss_stuck << " KiB";

  // Past the write timeout, the connection is gone: reading now finds the end of the stream
  // (or a reset) after at most what was already in flight, not the rest of the answers.
  std::this_thread::sleep_for(kShortTimeout + 1500ms);
  std::size_t total = 0;
  const bool closed = hog.read_until_closed(10s, nullptr, &total);
  EXPECT_TRUE(closed) << "the server was still sending after " << total << " bytes";
  EXPECT_LT(total, 16u * 1024 * 1024) << "the server kept answering a client that did not read";
  EXPECT_STATUS(get("/leads?limit=5"), 200u);
  EXPECT_TRUE(server().running());
}

TEST_F(HostileClientsTest, TruncatedBodiesNeitherCrashNorHangNorCreate) {
  const std::string body = R"({"visitor_name":"Truncated"})";
  std::string request = post_request(path("/leads"), ws_.rw.key, body);
  // Declare 1000 bytes, send only the real (shorter) body.
  const std::string declared = "Content-Length: " + std::to_string(body.size());
  request.replace(request.find(declared), declared.size(), "Content-Length: 1000");

  {  // then half-close: the server sees the end of the stream mid-body
    RawSocket s = raw();
    ASSERT_TRUE(s.send_all(request));
    s.shutdown_send();
    std::string got;
    EXPECT_TRUE(s.read_until_closed(5s, &got)) << "the server did not close a truncated request";
    EXPECT_EQ(got.find("HTTP/1.1 2"), std::string::npos) << got;
  }
  {  // then reset the connection
    RawSocket s = raw();
    ASSERT_TRUE(s.send_all(request));
    s.close(/*reset=*/true);
  }
  {  // then keep the connection open without sending the rest: the body timeout ends it
    RawSocket s = raw();
    ASSERT_TRUE(s.send_all(request));
    std::string got;
    EXPECT_TRUE(s.read_until_closed(kCutOffDeadline, &got))
        << "a truncated body held its connection past the body timeout";
    EXPECT_EQ(got.find("HTTP/1.1 2"), std::string::npos) << got;
  }
  {  // a declared length with no body at all, then close
    RawSocket s = raw();
    ASSERT_TRUE(s.send_all(request.substr(0, request.find("\r\n\r\n") + 4)));
    s.close();
  }
  EXPECT_TRUE(server().running());
  EXPECT_STATUS(get("/leads"), 200u);
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(HostileClientsTest, OversizedOrAmbiguousFramingIsRefusedCleanlyAndCreatesNothing) {
  // (One huge header and a plain 1.1 MiB body are in http_basics_test.)
  const std::string key = ws_.rw.key;
  const std::string auth = "Authorization: Bearer " + key + "\r\n";
  const std::string post_head = "POST " + path("/leads") + " HTTP/1.1\r\nHost: leadline\r\n" +
                                auth + "Content-Type: application/json\r\n";
  const std::string body = R"({"visitor_name":"Smuggled"})";
  std::string many_headers;
  for (int i = 0; i < 1000; ++i)
    many_headers += "X-H" + std::to_string(i) + ": " + repeat("v", 20) + "\r\n";
  std::string chunked_body;
  for (int i = 0; i < 40; ++i) chunked_body += "10000\r\n" + std::string(65536, 'a') + "\r\n";
  chunked_body += "0\r\n\r\n";
  struct Case {
    std::string name;
    std::string bytes;
    unsigned status;  // 0: any 4xx
  };
  const std::vector<Case> cases = {
      {"many small headers", get_head(path("/leads"), key, many_headers), 431},
      {"huge request target", get_head(path("/leads?search=" + repeat("a", 20000)), key), 431},
      {"huge declared length", post_head + "Content-Length: 99999999999\r\n\r\n", 413},
      {"overflowing length", post_head + "Content-Length: 18446744073709551616\r\n\r\n" + body, 0},
      {"chunked body beyond 1 MiB", post_head + "Transfer-Encoding: chunked\r\n\r\n" + chunked_body,
       413},
      {"two lengths",
       post_head + "Content-Length: " + std::to_string(body.size()) +
           "\r\nContent-Length: " + std::to_string(body.size() + 1) + "\r\n\r\n" + body,
       0},
      {"length and chunked",
       post_head + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n" + "1b\r\n" + body +
           "\r\n0\r\n\r\n",
       0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    RawSocket s = raw();
    s.send_all(c.bytes);  // the server may stop reading early; what matters is its answer
    auto r = s.read_response(10s);
    ASSERT_TRUE(r.has_value()) << "no answer";
    if (c.status != 0) {
      EXPECT_TRUE(is_error(*r, c.status));
    } else {
      EXPECT_GE(r->status, 400u) << r->describe();
      EXPECT_LT(r->status, 500u) << r->describe();
      EXPECT_TRUE(is_error(*r, r->status));
    }
    EXPECT_TRUE(has_json_content_type(*r));
    // Refused framing ends the connection: nothing after it is read as another request.
    std::string rest;
    EXPECT_TRUE(s.read_until_closed(5s, &rest));
    EXPECT_EQ(rest.find("HTTP/1.1"), std::string::npos) << rest;
  }
  EXPECT_EQ(total_count(get("/leads")), 0);
  // A well-framed chunked body is fine.
  std::string chunked = post_head + "Transfer-Encoding: chunked\r\n\r\n";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  chunked += std::string(size) + "\r\n" + body + "\r\n0\r\n\r\n";
  RawSocket s = raw();
  ASSERT_TRUE(s.send_all(chunked));
  auto created = s.read_response(10s);
  ASSERT_TRUE(created.has_value());
  EXPECT_STATUS(*created, 201u);
  EXPECT_TRUE(server().running());
}

TEST_F(HostileClientsTest, PipelinedRequestsAreAnsweredInOrder) {
  const std::string a = str(create_lead({{"visitor_name", "Alpha"}}).at("id"));
  const std::string b = str(create_lead({{"visitor_name", "Beta"}}).at("id"));
  const std::string key = ws_.rw.key;
  auto rid = [](int i) { return "X-Request-Id: pipe-" + std::to_string(i) + "\r\n"; };
  const std::string patch_body = R"({"need_summary":"patched in the pipeline"})";
  std::string pipeline;
  pipeline += get_head(path("/leads?id=" + a), key, rid(1));
  pipeline += post_request(path("/leads"), key, R"({"visitor_name":"Gamma"})", rid(2));
  pipeline += get_head(path("/leads?id=" + b), key, rid(3));
  pipeline += get_head(path("/no-such-endpoint"), "", rid(4));
  pipeline +=
      "PATCH " + path("/leads?id=" + a) + " HTTP/1.1\r\nHost: leadline\r\nAuthorization: Bearer " +
      key +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(patch_body.size()) +
      "\r\n" + rid(5) + "\r\n" + patch_body;
  pipeline += get_head(path("/leads?id=" + a), key, rid(6));
  pipeline += get_head(path("/leads?limit=100"), key, rid(7) + "Connection: close\r\n");
  pipeline += get_head(path("/leads"), key, rid(8));  // after Connection: close: never answered

  RawSocket s = raw();
  ASSERT_TRUE(s.send_all(pipeline));
  std::vector<HttpResponse> responses;
  for (int i = 0; i < 7; ++i) {
    auto r = s.read_response(10s);
    ASSERT_TRUE(r.has_value()) << "response " << i + 1 << " of the pipeline is missing";
    responses.push_back(std::move(*r));
  }
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(responses[i].header("X-Request-Id"), "pipe-" + std::to_string(i + 1))
        << responses[i].describe();
  }
  ASSERT_STATUS(responses[0], 200u);
  EXPECT_EQ(str(responses[0].data().at("visitor_name")), "Alpha");
  ASSERT_STATUS(responses[1], 201u);
  EXPECT_EQ(str(responses[1].data().at("visitor_name")), "Gamma");
  ASSERT_STATUS(responses[2], 200u);
  EXPECT_EQ(str(responses[2].data().at("visitor_name")), "Beta");
  EXPECT_TRUE(is_error(responses[3], 404));
  ASSERT_STATUS(responses[4], 200u);
  ASSERT_STATUS(responses[5], 200u);
  EXPECT_EQ(str(responses[5].data().at("need_summary")), "patched in the pipeline");
  ASSERT_STATUS(responses[6], 200u);
  EXPECT_EQ(total_count(responses[6]), 3);
  std::string rest;
  EXPECT_TRUE(s.read_until_closed(5s, &rest)) << "the connection stayed open after close";
  EXPECT_EQ(rest, "") << "a request after Connection: close was answered";
}

TEST_F(HostileClientsTest, MalformedRequestInAPipelineEndsItAfterTheEarlierAnswers) {
  const std::string key = ws_.rw.key;
  std::string pipeline = get_head(path("/leads"), key, "X-Request-Id: first\r\n") +
                         "THIS IS NOT HTTP\r\n\r\n" + get_head(path("/leads"), key);
  RawSocket s = raw();
  ASSERT_TRUE(s.send_all(pipeline));
  auto first = s.read_response(10s);
  ASSERT_TRUE(first.has_value());
  EXPECT_STATUS(*first, 200u);
  EXPECT_EQ(first->header("X-Request-Id"), "first");
  auto second = s.read_response(10s);
  if (second) {
    EXPECT_TRUE(is_error(*second, 400));
    EXPECT_TRUE(has_json_content_type(*second));
  }
  EXPECT_TRUE(s.read_until_closed(5s)) << "the connection stayed open after malformed HTTP";
  EXPECT_STATUS(get("/leads"), 200u);
}

TEST_F(HostileClientsTest, IdleKeepAliveConnectionsAreClosedAfterTheIdleTimeoutOnly) {
  const std::string request = get_head(path("/leads?limit=1"), ws_.rw.key);
  RawSocket idle = raw();
  RawSocket busy = raw();
  for (RawSocket* s : {&idle, &busy}) {
    ASSERT_TRUE(s->send_all(request));
    auto r = s->read_response(10s);
    ASSERT_TRUE(r.has_value());
    ASSERT_STATUS(*r, 200u);
  }
  // A request every 500 ms keeps `busy` open well past the 1.5 s idle timeout; `idle` is
  // closed meanwhile.
  bool idle_closed = false;
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(500ms);
    ASSERT_TRUE(busy.send_all(request));
    auto r = busy.read_response(10s);
    ASSERT_TRUE(r.has_value()) << "a connection in use was closed after " << (i + 1) * 500 << " ms";
    EXPECT_STATUS(*r, 200u);
    std::string ignored;
    if (idle.read_some(ignored, 0ms) == RawSocket::ReadStatus::closed) idle_closed = true;
  }
  if (!idle_closed) idle_closed = idle.read_until_closed(kCutOffDeadline - 3000ms);
  EXPECT_TRUE(idle_closed) << "an idle keep-alive connection outlived the idle timeout";
}

TEST_F(HostileClientsTest, LimitFlagsAndTheirVariablesAreValidated) {
  const std::string db = "sqlite:" + (scratch_->path() / "flags.db").string();
  struct Case {
    std::vector<std::string> args;
    EnvOverrides env;
    std::string blamed;
  };
  const std::vector<Case> cases = {
      {{"--max-connections", "0"}, {}, "--max-connections"},
      {{"--max-connections", "many"}, {}, "--max-connections"},
      {{"--header-timeout-ms", "-5"}, {}, "--header-timeout-ms"},
      {{"--body-timeout-ms", "1.5"}, {}, "--body-timeout-ms"},
      {{"--idle-timeout-ms", ""}, {}, "--idle-timeout-ms"},
      {{"--write-timeout-ms", "99999999999999999999"}, {}, "--write-timeout-ms"},
      {{}, {{"LEADLINE_MAX_CONNECTIONS", "0"}}, "LEADLINE_MAX_CONNECTIONS"},
      {{}, {{"LEADLINE_HEADER_TIMEOUT_MS", "soon"}}, "LEADLINE_HEADER_TIMEOUT_MS"},
      {{}, {{"LEADLINE_IDLE_TIMEOUT_MS", "0"}}, "LEADLINE_IDLE_TIMEOUT_MS"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.blamed);
    std::vector<std::string> args = {"serve", "--listen", "127.0.0.1:0", "--db", db};
    args.insert(args.end(), c.args.begin(), c.args.end());
    CliOptions options;
    options.env = c.env;
    options.timeout = 10s;
    CliResult r = run_cli(args, options);
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_FALSE(r.timed_out) << r.describe();
    EXPECT_NE(r.err.find(c.blamed), std::string::npos) << r.describe();
  }
  CliResult help = run_cli({"serve", "--help"});
  for (const char* flag : {"--max-connections", "--header-timeout-ms", "--body-timeout-ms",
                           "--idle-timeout-ms", "--write-timeout-ms"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag << "\n" << help.describe();
  }
}

// A server whose connection limit sits just above a few thousand idle connections.
class ConnectionLimitTest : public ApiTest {
 public:
  static void SetUpTestSuite() {
    // The server inherits this process's limit: raise it before starting the server. Each side
    // needs one descriptor per connection plus some for files, pipes and the database.
    constexpr std::size_t kWanted = 2000;
    constexpr std::size_t kSpare = 200;
    const std::size_t limit = raise_open_file_limit(kWanted + kSpare);
    idle_ = limit > kWanted + kSpare ? kWanted : (limit > 2 * kSpare ? limit - kSpare : limit / 4);
    start_suite_server(
        {"--rate-limit", "1000000/60s", "--max-connections", std::to_string(idle_ + 1)});
  }

 protected:
  static inline std::size_t idle_ = 0;
};

TEST_F(ConnectionLimitTest, IdleConnectionsUpToTheLimitAreHeldAndBeyondItGetA503AndClose) {
  ASSERT_GE(idle_, 10u) << "the open-file limit is too low for this test";
  const std::string probe = get_head(std::string(kBase) + "/no-such-endpoint", "");
  // Each idle connection makes one cheap request first, so its admission is certain (a 404,
  // not a 503) and it then sits as an idle keep-alive connection.
  std::vector<RawSocket> idle;
  idle.reserve(idle_);
  for (std::size_t i = 0; i < idle_; ++i) {
    idle.emplace_back(server().host(), server().port());
    ASSERT_TRUE(idle.back().send_all(probe)) << "connection " << i;
    auto r = idle.back().read_response(10s);
    ASSERT_TRUE(r.has_value()) << "no answer on idle connection " << i << " of " << idle_;
    ASSERT_STATUS(*r, 404u);
  }

  // The one slot left serves a fresh client, repeatedly on its kept-alive connection.
  for (int i = 0; i < 3; ++i) ASSERT_STATUS(get("/leads"), 200u);

  // Beyond the limit: a clean 503 with Connection: close, then the end of the stream.
  for (int i = 0; i < 3; ++i) {
    RawSocket extra(server().host(), server().port());
    extra.send_all(get_head(std::string(kBase) + "/leads", ws_.rw.key));
    auto r = extra.read_response(10s);
    ASSERT_TRUE(r.has_value()) << "a connection beyond the limit got no answer";
    EXPECT_TRUE(is_error(*r, 503));
    EXPECT_TRUE(has_json_content_type(*r));
    EXPECT_EQ(r->header("Connection"), "close") << r->describe();
    EXPECT_FALSE(r->header("X-Request-Id").empty()) << r->describe();
    EXPECT_TRUE(extra.read_until_closed(5s)) << "an over-limit connection was kept open";
  }
  // The admitted connections were kept: the oldest idle one still gets answers.
  ASSERT_TRUE(idle.front().send_all(probe));
  auto oldest = idle.front().read_response(10s);
  ASSERT_TRUE(oldest.has_value()) << "the oldest idle connection was dropped";
  EXPECT_STATUS(*oldest, 404u);
  EXPECT_STATUS(get("/leads"), 200u);

  // Closing idle connections frees their slots for new clients.
  for (int i = 0; i < 5; ++i) idle.pop_back();
  bool served = false;
  for (auto until = Clock::now() + 5s; !served && Clock::now() < until;) {
    HttpClient fresh(server().host(), server().port());
    HttpResponse r = fresh.request("GET", std::string(kBase) + "/leads", std::nullopt,
                                   {{"Authorization", "Bearer " + ws_.rw.key}});
    served = r.status == 200;
    if (!served) {
      EXPECT_TRUE(is_error(r, 503));
      std::this_thread::sleep_for(50ms);
    }
  }
  EXPECT_TRUE(served) << "slots of closed connections were not given back";
  EXPECT_TRUE(server().running());
}

}  // namespace
}  // namespace leadline_test
