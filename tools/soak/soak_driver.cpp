// soak_driver: a bounded-concurrency mixed read/write load against a running `leadline serve`
// for a fixed duration. Reports requests, errors and latency percentiles per interval and the
// server's resident memory (VmRSS) after the warm-up and at the end. Exit status: 0 when there
// were no errors (429s are counted apart) and RSS grew at most --max-rss-growth percent after
// the warm-up; 1 on errors; 2 on memory growth; 3 on bad usage or an unreachable server.
//
//   soak_driver --port P --key KEY [--pid PID] [--host 127.0.0.1] [--seconds 600]
//               [--concurrency 8] [--interval 60] [--warmup 30] [--max-rss-growth 5]
//               [--summary FILE]

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

namespace soak {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kBase = "/api/v1/external";

struct Options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string key;
  long pid = -1;
  int seconds = 600;
  int concurrency = 8;
  int interval = 60;
  int warmup = 30;
  double max_rss_growth = 5.0;
  std::string summary_file;
};

struct Reply {
  unsigned status = 0;  // 0: transport failure
  std::string body;
  std::string failure;
};

// One keep-alive HTTP/1.1 connection with a per-request deadline.
class Connection {
 public:
  Connection(std::string host, unsigned short port) : host_(std::move(host)), port_(port) {}

  Reply request(http::verb method, const std::string& target, const std::string& key,
                const std::optional<std::string>& body) {
    Reply reply;
    if (!stream_) {
      stream_ = std::make_unique<beast::tcp_stream>(io_);
      boost::system::error_code ec;
      stream_->expires_after(std::chrono::seconds(10));
      stream_->async_connect(tcp::endpoint(asio::ip::make_address(host_), port_),
                             [&](boost::system::error_code e) { ec = e; });
      run();
      if (ec) {
        stream_.reset();
        reply.failure = "connect: " + ec.message();
        return reply;
      }
    }
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, host_);
    req.set(http::field::authorization, "Bearer " + key);
    req.set(http::field::user_agent, "leadline-soak");
    if (body) {
      req.set(http::field::content_type, "application/json");
      req.body() = *body;
      req.prepare_payload();
    }
    boost::system::error_code write_ec;
    boost::system::error_code read_ec;
    http::response<http::string_body> res;
    stream_->expires_after(std::chrono::seconds(10));
    http::async_write(*stream_, req,
                      [&](boost::system::error_code e, std::size_t) { write_ec = e; });
    http::async_read(*stream_, buffer_, res,
                     [&](boost::system::error_code e, std::size_t) { read_ec = e; });
    run();
    if (write_ec || read_ec) {
      reply.failure = (write_ec ? "write: " + write_ec.message() : "read: " + read_ec.message());
      close();
      return reply;
    }
    reply.status = res.result_int();
    reply.body = std::move(res.body());
    if (!res.keep_alive()) close();
    return reply;
  }

 private:
  void run() {
    io_.restart();
    io_.run();
  }
  void close() {
    boost::system::error_code ignored;
    if (stream_) stream_->socket().close(ignored);
    stream_.reset();
    buffer_.clear();
  }

  std::string host_;
  unsigned short port_;
  asio::io_context io_;
  std::unique_ptr<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
};

// Latencies and counters of the running interval, plus whole-run totals.
class Stats {
 public:
  void record(std::string_view op, unsigned status, std::chrono::microseconds latency,
              const std::string& detail) {
    std::lock_guard lock(mu_);
    latencies_.push_back(static_cast<std::uint32_t>(latency.count()));
    ++requests_;
    ++by_op_[std::string(op)];
    if (status == 429) {
      ++rate_limited_;
    } else if (!detail.empty()) {
      ++errors_;
      if (errors_ <= 20) std::cerr << "error: " << op << ": " << detail << '\n';
    }
  }

  struct Interval {
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t rate_limited = 0;
    double p50_ms = 0;
    double p99_ms = 0;
    double max_ms = 0;
  };

  // Closes the running interval and returns its figures.
  Interval take() {
    std::vector<std::uint32_t> lat;
    Interval out;
    {
      std::lock_guard lock(mu_);
      lat.swap(latencies_);
      out.requests = requests_ - mark_requests_;
      out.errors = errors_ - mark_errors_;
      out.rate_limited = rate_limited_ - mark_rate_limited_;
      mark_requests_ = requests_;
      mark_errors_ = errors_;
      mark_rate_limited_ = rate_limited_;
    }
    if (!lat.empty()) {
      std::sort(lat.begin(), lat.end());
      auto at = [&](double q) {
        std::size_t i = static_cast<std::size_t>(q * static_cast<double>(lat.size() - 1));
        return lat[i] / 1000.0;
      };
      out.p50_ms = at(0.50);
      out.p99_ms = at(0.99);
      out.max_ms = lat.back() / 1000.0;
    }
    return out;
  }

  std::uint64_t requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  std::uint64_t errors() const {
    std::lock_guard lock(mu_);
    return errors_;
  }
  std::uint64_t rate_limited() const {
    std::lock_guard lock(mu_);
    return rate_limited_;
  }
  std::map<std::string, std::uint64_t> by_op() const {
    std::lock_guard lock(mu_);
    return by_op_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::uint32_t> latencies_;
  std::uint64_t requests_ = 0;
  std::uint64_t errors_ = 0;
  std::uint64_t rate_limited_ = 0;
  std::uint64_t mark_requests_ = 0;
  std::uint64_t mark_errors_ = 0;
  std::uint64_t mark_rate_limited_ = 0;
  std::map<std::string, std::uint64_t> by_op_;
};

// Ids of the demo workspace's records: read (get-one) and, for conversations, patched.
struct SeedIds {
  std::vector<std::string> leads;
  std::vector<std::string> contacts;
  std::vector<std::string> conversations;
};

std::string url_encode(std::string_view value) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

template <typename T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& items) {
  return items[rng() % items.size()];
}

// One client: a connection, its own created records, and the operation mix.
class Worker {
 public:
  Worker(int index, const Options& options, const SeedIds& seed, Stats& stats)
      : index_(index),
        options_(options),
        seed_(seed),
        stats_(stats),
        rng_(0x50a4ULL * static_cast<std::uint64_t>(index + 1)),
        conn_(options.host, options.port) {}

  void run(const std::atomic<bool>& stop) {
    while (!stop.load(std::memory_order_relaxed)) step();
  }

 private:
  struct Owned {
    bool lead = true;
    std::string id;
  };

  // Sends one request and records it; returns the parsed body on the expected status.
  std::optional<json::value> call(std::string_view op, http::verb method, const std::string& target,
                                  unsigned expected,
                                  const std::optional<std::string>& body = std::nullopt) {
    auto start = Clock::now();
    Reply r = conn_.request(method, std::string(kBase) + target, options_.key, body);
    auto latency = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    std::string detail;
    std::optional<json::value> parsed;
    if (r.status == 0) {
      detail = "transport failure on " + target + ": " + r.failure;
    } else if (r.status != 429) {
      boost::system::error_code ec;
      json::value v = json::parse(r.body, ec);
      if (r.status != expected || ec) {
        detail = std::to_string(r.status) + " on " + std::string(http::to_string(method)) + " " +
                 target + ": " + r.body.substr(0, 300);
      } else {
        parsed = std::move(v);
      }
    }
    stats_.record(op, r.status, latency, detail);
    return parsed;
  }

  void step() {
    int roll = static_cast<int>(rng_() % 100);
    if (roll < 20) return list_leads();
    if (roll < 32) return list_contacts();
    if (roll < 38) return list_conversations();
    if (roll < 56) return get_one();
    if (roll < 74) return owned_.size() >= kOwnedCap ? remove() : create();
    if (roll < 90) return owned_.empty() ? create() : patch();
    if (roll < 92) return patch_conversation();
    return owned_.empty() ? create() : remove();
  }

  std::string search_term() {
    static const std::vector<std::string> kTerms = {"mü", "son", "a", "labs", "soak", "nomatch-zz",
                                                    "é",  "o'c", "%", "NORD", "w3",   "tech"};
    return pick(rng_, kTerms);
  }

  // A list with random options, following the cursor for up to three pages.
  void list(std::string_view op, const std::string& resource, std::string query) {
    std::string target = "/" + resource + "?" + query;
    for (int page = 0; page < 3; ++page) {
      auto v = call(op, http::verb::get, target, 200);
      if (!v) return;
      const json::object& pagination = v->as_object().at("pagination").as_object();
      if (!pagination.at("has_more").as_bool() || rng_() % 2 == 0) return;
      target = "/" + resource + "?" + query +
               "&cursor=" + url_encode(pagination.at("next_cursor").as_string());
    }
  }

  std::string common_query(const std::vector<std::string>& sorts) {
    static const std::vector<std::string> kLimits = {"5", "10", "20", "50", "100"};
    static const std::vector<std::string> kDirections = {"", ":asc", ":desc"};
    std::string q = "limit=" + pick(rng_, kLimits);
    q += "&sort=" + pick(rng_, sorts) + pick(rng_, kDirections);
    if (rng_() % 3 == 0) q += "&search=" + url_encode(search_term());
    return q;
  }

  void list_leads() {
    static const std::vector<std::string> kStages = {"new",       "qualified", "assigned",
                                                     "contacted", "converted", "lost"};
    std::string q = common_query({"created_at", "updated_at", "lead_score", "visitor_name"});
    if (rng_() % 4 == 0) q += "&stage=" + pick(rng_, kStages);
    list("list leads", "leads", q);
  }

  void list_contacts() {
    static const std::vector<std::string> kTags = {"vip", "soak", "customer", "partner"};
    std::string q = common_query({"created_at", "last_activity", "name", "email"});
    if (rng_() % 4 == 0) q += "&tag=" + pick(rng_, kTags);
    list("list contacts", "contacts", q);
  }

  void list_conversations() {
    static const std::vector<std::string> kStatuses = {"open", "pending", "active", "archived",
                                                       "all"};
    std::string q = common_query({"created_at", "updated_at"});
    if (rng_() % 2 == 0) q += "&status=" + pick(rng_, kStatuses);
    list("list conversations", "conversations", q);
  }

  void get_one() {
    int roll = static_cast<int>(rng_() % 4);
    if (roll == 0 && !owned_.empty()) {
      const Owned& o = pick(rng_, owned_);
      call("get one", http::verb::get, std::string(o.lead ? "/leads" : "/contacts") + "?id=" + o.id,
           200);
    } else if (roll == 1 && !seed_.leads.empty()) {
      call("get one", http::verb::get, "/leads?id=" + pick(rng_, seed_.leads), 200);
    } else if (roll == 2 && !seed_.contacts.empty()) {
      call("get one", http::verb::get, "/contacts?id=" + pick(rng_, seed_.contacts), 200);
    } else if (!seed_.conversations.empty()) {
      call("get one", http::verb::get, "/conversations?id=" + pick(rng_, seed_.conversations), 200);
    }
  }

  std::string unique(std::string_view what) {
    return "soak-w" + std::to_string(index_) + "-" + std::string(what) + "-" +
           std::to_string(++counter_);
  }

  void create() {
    json::object body;
    bool lead = rng_() % 2 == 0;
    std::string u = unique(lead ? "lead" : "contact");
    if (lead) {
      body["visitor_name"] = "Soak " + u;
      body["visitor_email"] = u + "@soak.test";
      body["visitor_company"] = "Soak Tech " + std::to_string(rng_() % 50);
      body["need_summary"] = "Load test record " + u;
      body["tags"] = json::array{"soak", rng_() % 2 == 0 ? "vip" : "trial"};
      body["expected_billing_amount"] = static_cast<double>(rng_() % 100000) / 100.0;
    } else {
      body["first_name"] = "Soak";
      body["last_name"] = u;
      body["email"] = u + "@soak.test";
      body["company_name"] = "Soak Labs " + std::to_string(rng_() % 50);
      body["tags"] = json::array{"soak"};
      body["metadata"] = json::object{{"worker", index_}};
    }
    auto v = call(lead ? "create lead" : "create contact", http::verb::post,
                  lead ? "/leads" : "/contacts", 201, json::serialize(body));
    if (v) owned_.push_back({lead, std::string(v->as_object().at("data").at("id").as_string())});
  }

  void patch() {
    const Owned& o = pick(rng_, owned_);
    json::object body;
    std::string u = unique("patch");
    if (o.lead) {
      static const std::vector<std::string> kStages = {"new", "qualified", "contacted", "lost"};
      body["pipeline_stage"] = pick(rng_, kStages);
      body["need_summary"] = "Patched " + u;
      body["tags"] = json::array{"soak", "patched"};
    } else {
      body["company_name"] = "Patched " + u;
      body["profile_notes"] = "notes " + u;
      body["tags"] = json::array{"soak", rng_() % 2 == 0 ? "customer" : "partner"};
    }
    call(o.lead ? "patch lead" : "patch contact", http::verb::patch,
         std::string(o.lead ? "/leads" : "/contacts") + "?id=" + o.id, 200, json::serialize(body));
  }

  void patch_conversation() {
    if (seed_.conversations.empty()) return;
    static const std::vector<std::string> kStatuses = {"open", "pending", "active", "archived"};
    json::object body;
    body["status"] = pick(rng_, kStatuses);
    body["tags"] = json::array{"soak"};
    call("patch conversation", http::verb::patch,
         "/conversations?id=" + pick(rng_, seed_.conversations), 200, json::serialize(body));
  }

  void remove() {
    std::size_t i = rng_() % owned_.size();
    Owned o = owned_[i];
    owned_[i] = owned_.back();
    owned_.pop_back();
    call(o.lead ? "delete lead" : "delete contact", http::verb::delete_,
         std::string(o.lead ? "/leads" : "/contacts") + "?id=" + o.id, 200);
  }

  static constexpr std::size_t kOwnedCap = 150;

  int index_;
  const Options& options_;
  const SeedIds& seed_;
  Stats& stats_;
  std::mt19937_64 rng_;
  Connection conn_;
  std::vector<Owned> owned_;
  std::uint64_t counter_ = 0;
};

// VmRSS of a process in KiB; nullopt when unreadable (no --pid, or the process is gone).
std::optional<long> rss_kib(long pid) {
  if (pid <= 0) return std::nullopt;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return std::nullopt;
}

std::optional<SeedIds> load_seed(const Options& options) {
  Connection conn(options.host, options.port);
  SeedIds seed;
  for (auto [resource, into] :
       {std::pair{"leads", &seed.leads}, std::pair{"contacts", &seed.contacts},
        std::pair{"conversations", &seed.conversations}}) {
    Reply r = conn.request(http::verb::get, std::string(kBase) + "/" + resource + "?limit=100",
                           options.key, std::nullopt);
    if (r.status != 200) {
      std::cerr << "soak_driver: GET /" << resource << " answered "
                << (r.status ? std::to_string(r.status) + " " + r.body : r.failure) << '\n';
      return std::nullopt;
    }
    const json::value page = json::parse(r.body);
    for (const auto& item : page.at("data").as_array()) {
      into->push_back(std::string(item.at("id").as_string()));
    }
  }
  return seed;
}

bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    std::string value = argv[++i];
    if (arg == "--host") {
      o.host = value;
    } else if (arg == "--port") {
      o.port = static_cast<unsigned short>(std::stoi(value));
    } else if (arg == "--key") {
      o.key = value;
    } else if (arg == "--pid") {
      o.pid = std::stol(value);
    } else if (arg == "--seconds") {
      o.seconds = std::stoi(value);
    } else if (arg == "--concurrency") {
      o.concurrency = std::stoi(value);
    } else if (arg == "--interval") {
      o.interval = std::stoi(value);
    } else if (arg == "--warmup") {
      o.warmup = std::stoi(value);
    } else if (arg == "--max-rss-growth") {
      o.max_rss_growth = std::stod(value);
    } else if (arg == "--summary") {
      o.summary_file = value;
    } else {
      return false;
    }
  }
  return o.port != 0 && !o.key.empty() && o.seconds > 0 && o.concurrency > 0 && o.interval > 0 &&
         o.warmup >= 0;
}

std::string fixed(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

int run(const Options& options) {
  auto seed = load_seed(options);
  if (!seed) return 3;
  std::cout << "soak: " << options.seconds << " s, " << options.concurrency
            << " connections, interval " << options.interval << " s, warm-up " << options.warmup
            << " s; demo records: " << seed->leads.size() << " leads, " << seed->contacts.size()
            << " contacts, " << seed->conversations.size() << " conversations\n";
  std::optional<long> rss_initial = rss_kib(options.pid);

  Stats stats;
  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  for (int i = 0; i < options.concurrency; ++i) {
    workers.push_back(std::make_unique<Worker>(i, options, *seed, stats));
    threads.emplace_back([w = workers.back().get(), &stop] { w->run(stop); });
  }

  std::ostringstream table;
  table << "| interval | requests | req/s | errors | 429 | p50 ms | p99 ms | max ms | RSS KiB |\n"
        << "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const auto start = Clock::now();
  const auto end = start + std::chrono::seconds(options.seconds);
  const auto warm = start + std::chrono::seconds(std::min(options.warmup, options.seconds));
  std::optional<long> rss_after_warmup;
  bool warm_sampled = false;
  double worst_p99 = 0;
  auto next = start + std::chrono::seconds(options.interval);
  int interval_no = 0;
  auto last = start;
  while (true) {
    auto wake = std::min(next, end);
    if (!warm_sampled) wake = std::min(wake, warm);
    std::this_thread::sleep_until(wake);
    auto now = Clock::now();
    if (!warm_sampled && now >= warm) {
      rss_after_warmup = rss_kib(options.pid);
      warm_sampled = true;
      std::cout << "soak: warm-up done, server RSS " << rss_after_warmup.value_or(-1) << " KiB\n";
    }
    if (now >= next || now >= end) {
      ++interval_no;
      Stats::Interval iv = stats.take();
      double secs = std::chrono::duration<double>(now - last).count();
      last = now;
      std::optional<long> rss = rss_kib(options.pid);
      worst_p99 = std::max(worst_p99, iv.p99_ms);
      table << "| " << interval_no << " | " << iv.requests << " | "
            << fixed(static_cast<double>(iv.requests) / secs, 0) << " | " << iv.errors << " | "
            << iv.rate_limited << " | " << fixed(iv.p50_ms, 2) << " | " << fixed(iv.p99_ms, 2)
            << " | " << fixed(iv.max_ms, 1) << " | " << rss.value_or(-1) << " |\n";
      std::cout << "soak: interval " << interval_no << ": " << iv.requests << " requests ("
                << fixed(static_cast<double>(iv.requests) / secs, 0) << "/s), " << iv.errors
                << " errors, " << iv.rate_limited << " 429, p50 " << fixed(iv.p50_ms, 2)
                << " ms, p99 " << fixed(iv.p99_ms, 2) << " ms, max " << fixed(iv.max_ms, 1)
                << " ms, server RSS " << rss.value_or(-1) << " KiB" << std::endl;
      next += std::chrono::seconds(options.interval);
      if (options.pid > 0 && !rss) {
        std::cerr << "soak_driver: the server (pid " << options.pid << ") is gone\n";
        break;
      }
    }
    if (now >= end) break;
  }
  stop.store(true);
  for (auto& t : threads) t.join();
  Stats::Interval tail = stats.take();  // requests finished after the last interval closed
  (void)tail;

  std::optional<long> rss_end = rss_kib(options.pid);
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::uint64_t total = stats.requests();
  std::uint64_t errors = stats.errors();
  double growth = 0;
  bool rss_ok = true;
  std::ostringstream summary;
  summary << "duration: " << fixed(elapsed, 0) << " s, connections: " << options.concurrency
          << "\nrequests: " << total << " (" << fixed(static_cast<double>(total) / elapsed, 0)
          << "/s), errors (non-429): " << errors << ", 429: " << stats.rate_limited()
          << "\nworst per-interval p99: " << fixed(worst_p99, 2) << " ms\n";
  if (options.pid > 0) {
    if (rss_end && rss_after_warmup && *rss_after_warmup > 0) {
      growth = 100.0 * static_cast<double>(*rss_end - *rss_after_warmup) /
               static_cast<double>(*rss_after_warmup);
      rss_ok = growth <= options.max_rss_growth;
    } else {
      rss_ok = false;
    }
    summary << "server RSS: " << rss_initial.value_or(-1) << " KiB at start, "
            << rss_after_warmup.value_or(-1) << " KiB after the " << options.warmup
            << " s warm-up, " << rss_end.value_or(-1) << " KiB at the end (" << fixed(growth, 2)
            << "% growth after warm-up, limit " << fixed(options.max_rss_growth, 1) << "%)\n";
  }
  summary << "requests by operation:";
  for (const auto& [op, n] : stats.by_op()) summary << ' ' << op << '=' << n << ';';
  summary << '\n';

  std::cout << "\n" << table.str() << "\n" << summary.str();
  if (!options.summary_file.empty()) {
    std::ofstream out(options.summary_file);
    out << table.str() << "\n" << summary.str();
  }
  if (errors > 0) {
    std::cout << "soak: FAILED: " << errors << " requests failed\n";
    return 1;
  }
  if (!rss_ok) {
    std::cout << "soak: FAILED: server memory grew beyond the limit (or could not be read)\n";
    return 2;
  }
  std::cout << "soak: PASSED\n";
  return 0;
}

}  // namespace
}  // namespace soak

int main(int argc, char** argv) {
  soak::Options options;
  bool ok = false;
  try {
    ok = soak::parse_options(argc, argv, options);
  } catch (const std::exception&) {
    ok = false;
  }
  if (!ok) {
    std::cerr << "usage: soak_driver --port P --key KEY [--pid PID] [--host H] [--seconds N]\n"
                 "       [--concurrency C] [--interval S] [--warmup S] [--max-rss-growth PCT]\n"
                 "       [--summary FILE]\n";
    return 3;
  }
  try {
    return soak::run(options);
  } catch (const std::exception& e) {
    std::cerr << "soak_driver: " << e.what() << '\n';
    return 3;
  }
}
