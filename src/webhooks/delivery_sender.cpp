// The SSRF defence has three layers, because a check on the URL alone is undone by DNS: (1) the
// host is resolved here with getaddrinfo at every attempt and every address is checked against
// the policy (one blocked address fails the attempt, so a name cannot mix a public and a private
// address and hope for the private one); (2) curl is pinned to exactly those addresses with
// CURLOPT_RESOLVE, so it does not resolve a second time (DNS rebinding); (3) the socket callback
// checks the address actually being connected once more, against the policy and against the
// checked set, and refuses anything else. Proxies from the environment are turned off, since a
// proxy would be the one to connect. Redirects are never followed.
#include "webhooks/delivery_sender.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "webhooks/response_excerpt.hpp"
#include "webhooks/retry_schedule.hpp"
#include "webhooks/signature.hpp"
#include "webhooks/url_port.hpp"
#include "webhooks/webhook_url.hpp"

namespace leadline::webhooks {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kExcerptBytes = 1024;
// Beyond the excerpt the body is read and thrown away so that the connection stays reusable, but
// only up to this much: past it the receiver is streaming for nothing, and hanging up is cheaper
// than reading on until the timeout. The answer's status still counts.
constexpr std::size_t kReadLimit = 64 * 1024;

// What the callbacks of one transfer write into.
struct Transfer {
  const AddressPolicy* policy = nullptr;
  const std::vector<auth::IpAddress>* checked = nullptr;
  std::string kept;
  std::size_t received = 0;
  bool hung_up = false;  // the body went past kReadLimit
  std::optional<std::string> retry_after;
  std::optional<std::string> refused;  // why the socket callback refused a connection
};

std::string address_text(const auth::IpAddress& ip) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(ip.v4 ? AF_INET : AF_INET6, ip.bytes.data(), text, sizeof text);
  return text;
}

std::string blocked_sentence(const auth::IpAddress& ip, std::string_view range) {
  return "address " + address_text(ip) + " is in the blocked range " + std::string(range);
}

// IPv4-mapped IPv6 addresses become IPv4, as auth::parse_ip does, so the same address compares
// equal whichever family getaddrinfo or curl hands it in.
std::optional<auth::IpAddress> from_sockaddr(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    auth::IpAddress ip{.v4 = true};
    const auto* in = reinterpret_cast<const sockaddr_in*>(address);
    std::memcpy(ip.bytes.data(), &in->sin_addr, 4);
    return ip;
  }
  if (address->sa_family == AF_INET6) {
    auth::IpAddress ip{.v4 = false};
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(address);
    std::memcpy(ip.bytes.data(), &in6->sin6_addr, 16);
    static constexpr std::uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(ip.bytes.data(), kMapped, sizeof kMapped) == 0) {
      auth::IpAddress v4{.v4 = true};
      std::memcpy(v4.bytes.data(), ip.bytes.data() + 12, 4);
      return v4;
    }
    return ip;
  }
  return std::nullopt;
}

struct Resolution {
  std::vector<auth::IpAddress> addresses;
  std::optional<std::string> error;
};

// Every address the host resolves to, each checked; the first blocked one fails the attempt.
Resolution resolve_checked(const std::string& host, bool numeric, const AddressPolicy& policy) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_protocol = IPPROTO_TCP;
  if (numeric) hints.ai_flags = AI_NUMERICHOST;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) {
    return {{}, "could not resolve host " + host};
  }
  const std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, &freeaddrinfo);
  Resolution out;
  for (const addrinfo* entry = found; entry; entry = entry->ai_next) {
    const auto ip = from_sockaddr(entry->ai_addr);
    if (!ip) continue;
    if (const auto range = policy.blocked_range(*ip)) return {{}, blocked_sentence(*ip, *range)};
    if (std::find(out.addresses.begin(), out.addresses.end(), *ip) == out.addresses.end()) {
      out.addresses.push_back(*ip);
    }
  }
  if (out.addresses.empty()) out.error = "could not resolve host " + host;
  return out;
}

// "host:port:addr1,[v6addr],..." for CURLOPT_RESOLVE.
std::string pin_entry(const std::string& host_port, const std::vector<auth::IpAddress>& addresses) {
  std::string entry = host_port + ":";
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    if (i > 0) entry += ',';
    const std::string text = address_text(addresses[i]);
    entry += addresses[i].v4 ? text : "[" + text + "]";
  }
  return entry;
}

std::string duration_text(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  return std::to_string(d.count()) + " ms";
}

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char a = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (a != prefix[i]) return false;
  }
  return true;
}

// A header value must not end a header line early: the event id is ours, but a CR or LF in it
// would let it write headers of its own.
bool is_header_safe(std::string_view value) {
  return std::all_of(value.begin(), value.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f; });
}

// --- curl callbacks (C linkage-compatible signatures; they never throw) -------------------------

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  if (transfer.kept.size() < kExcerptBytes) {
    transfer.kept.append(data, std::min(n, kExcerptBytes - transfer.kept.size()));
  }
  transfer.received += n;
  if (transfer.received > kReadLimit) {
    transfer.hung_up = true;
    return 0;  // anything but n stops the transfer (CURLE_WRITE_ERROR)
  }
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {
    transfer.retry_after.reset();  // a new response (the final one follows any 1xx)
  } else if (starts_with_ignoring_case(line, "retry-after:")) {
    line.remove_prefix(std::string_view("retry-after:").size());
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    transfer.retry_after = std::string(line);
  }
  return n;
}

curl_socket_t on_open_socket(void* user, curlsocktype purpose, curl_sockaddr* address) {
  auto& transfer = *static_cast<Transfer*>(user);
  if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
  const auto ip = from_sockaddr(&address->addr);
  if (!ip) {
    transfer.refused = "connection to an address of an unknown family refused";
    return CURL_SOCKET_BAD;
  }
  if (const auto range = transfer.policy->blocked_range(*ip)) {
    transfer.refused = blocked_sentence(*ip, *range);
    return CURL_SOCKET_BAD;
  }
  const auto& checked = *transfer.checked;
  if (std::find(checked.begin(), checked.end(), *ip) == checked.end()) {
    transfer.refused = "address " + address_text(*ip) + " was not among the checked addresses";
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

void append(Slist& list, const std::string& line) {
  curl_slist* grown = curl_slist_append(list.get(), line.c_str());
  if (!grown) throw std::bad_alloc();
  (void)list.release();
  list.reset(grown);
}

bool is_tls_error(CURLcode code) {
  switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return true;
    default:
      return false;
  }
}

std::string connect_error(long os_errno) {
  switch (os_errno) {
    case ECONNREFUSED:
      return "connection refused";
    case ENETUNREACH:
      return "network unreachable";
    case EHOSTUNREACH:
      return "host unreachable";
    case ETIMEDOUT:
      return "connection timed out";
    default:
      return "could not connect";
  }
}

std::string with_detail(std::string sentence, const char* detail) {
  if (detail[0] != '\0') sentence += std::string(": ") + detail;
  return sentence;
}

}  // namespace

void init_http_client_library() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw std::runtime_error("curl_global_init failed");
    }
  });
}

DeliverySender::DeliverySender(SenderConfig config) : config_(std::move(config)) {
  // curl_easy_init would initialise the library itself, but not thread-safely.
  init_http_client_library();
  curl_ = curl_easy_init();
  if (!curl_) throw std::runtime_error("curl_easy_init failed");
}

DeliverySender::~DeliverySender() {
  curl_easy_cleanup(static_cast<CURL*>(curl_));
}

AttemptResult DeliverySender::send(const Attempt& attempt, std::int64_t unix_seconds_now) {
  const auto started = Clock::now();
  AttemptResult result;
  const auto finish = [&](AttemptResult& r) -> AttemptResult {
    r.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    return std::move(r);
  };

  // The URL was checked at registration, but the settings may have changed since (http no longer
  // allowed), so its shape is checked again; its addresses are checked below, after resolving.
  if (auto problem = url_problem(attempt.url, {.allow_http = config_.allow_http})) {
    result.error = std::move(*problem);
    return finish(result);
  }
  if (!is_header_safe(attempt.msg_id)) {
    result.error = "the webhook id contains control characters";
    return finish(result);
  }
  const boost::urls::url_view url = *boost::urls::parse_uri(attempt.url);
  const bool https = url.scheme_id() == boost::urls::scheme::https;
  const std::uint16_t port = *url_port(url.port(), https);  // url_problem checked it
  const auto host_type = url.host_type();
  const bool literal =
      host_type == boost::urls::host_type::ipv4 || host_type == boost::urls::host_type::ipv6;
  const std::string host = host_type == boost::urls::host_type::ipv6
                               ? url.host_ipv6_address().to_string()
                               : std::string(url.host());
  if (host.find('\0') != std::string::npos) {
    result.error = "could not resolve host " + std::string(url.encoded_host());
    return finish(result);
  }

  Resolution resolution = resolve_checked(host, literal, config_.policy);
  if (resolution.error) {
    result.error = std::move(resolution.error);
    return finish(result);
  }
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  const auto remaining = config_.timeout - spent;
  if (remaining <= std::chrono::milliseconds(0)) {
    result.error = "timed out after " + duration_text(config_.timeout);
    return finish(result);
  }

  auto* curl = static_cast<CURL*>(curl_);
  // Every option is set afresh for each attempt; reset keeps the connection cache and the pinned
  // addresses of earlier attempts, which is the point of keeping the handle.
  curl_easy_reset(curl);

  Slist pins;
  const std::string host_port = std::string(url.encoded_host()) + ":" + std::to_string(port);
  if (!literal) {
    // Curl keeps CURLOPT_RESOLVE entries for the handle's life; the previous one is removed so a
    // stale pin never outlives its attempt.
    if (!last_pin_.empty()) append(pins, "-" + last_pin_);
    append(pins, pin_entry(host_port, resolution.addresses));
    last_pin_ = host_port;
  }

  Slist headers;
  append(headers, "Content-Type: application/json");
  append(headers, "webhook-id: " + attempt.msg_id);
  append(headers, "webhook-timestamp: " + std::to_string(unix_seconds_now));
  append(headers,
         "webhook-signature: " + signature_header(attempt.secret_bytes_newest_first, attempt.msg_id,
                                                  unix_seconds_now, attempt.body));
  append(headers, "Expect:");  // no 100-continue round trip before the body

  Transfer transfer;
  transfer.policy = &config_.policy;
  transfer.checked = &resolution.addresses;
  char error_buffer[CURL_ERROR_SIZE] = {};

  curl_easy_setopt(curl, CURLOPT_URL, attempt.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, config_.allow_http ? "http,https" : "https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 0L);
  curl_easy_setopt(curl, CURLOPT_PROXY, "");  // no http_proxy/https_proxy from the environment
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(remaining.count()));
  if (pins) curl_easy_setopt(curl, CURLOPT_RESOLVE, pins.get());
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, &on_open_socket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, attempt.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(attempt.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  if (!config_.user_agent.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERAGENT, config_.user_agent.c_str());
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);

  CURLcode code = curl_easy_perform(curl);
  // The buffers and lists live on this stack frame: the handle must not point at them later.
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(curl, CURLOPT_RESOLVE, nullptr);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  if (code == CURLE_WRITE_ERROR && transfer.hung_up) code = CURLE_OK;

  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status > 0) result.status_code = static_cast<int>(status);
  result.response_excerpt = utf8_excerpt(transfer.kept, transfer.received > transfer.kept.size());
  if ((status == 429 || status == 503) && transfer.retry_after) {
    result.retry_after = parse_retry_after(*transfer.retry_after);
  }

  if (code == CURLE_OK) {
    if (status >= 300 && status < 400) {
      result.error = "redirect (HTTP " + std::to_string(status) + ") not followed";
    } else if (status < 200 || status >= 300) {
      result.error = "HTTP " + std::to_string(status);
    }
  } else if (code == CURLE_OPERATION_TIMEDOUT) {
    result.error = "timed out after " + duration_text(config_.timeout);
  } else if (transfer.refused) {
    result.error = std::move(transfer.refused);
  } else if (code == CURLE_COULDNT_CONNECT) {
    long os_errno = 0;
    curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &os_errno);
    result.error = connect_error(os_errno);
  } else if (code == CURLE_COULDNT_RESOLVE_HOST) {
    result.error = "could not resolve host " + host;
  } else if (is_tls_error(code)) {
    result.error = "TLS error: " +
                   std::string(error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code));
  } else if (code == CURLE_GOT_NOTHING) {
    result.error = "empty reply from server";
  } else {
    result.error = with_detail(curl_easy_strerror(code), error_buffer);
  }
  return finish(result);
}

}  // namespace leadline::webhooks
