// Fuzzes the request path in-process: raw bytes -> Beast's parser (server limits) -> the real
// ApiHandler on a SQLite store; every answer must be a documented status with a JSON envelope.
#include <unistd.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/json/parse.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/api_handler.hpp"
#include "api/reference_pages.hpp"
#include "auth/api_key.hpp"
#include "auth/authenticator.hpp"
#include "auth/ip_rule.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "fuzz_check.hpp"
#include "http/read_failure.hpp"
#include "http/request_adapter.hpp"
#include "http/server_config.hpp"
#include "store/database.hpp"

using namespace leadline;
namespace beast_http = boost::beast::http;
namespace fs = std::filesystem;

namespace {

// The server's limits (src/http/server_config.hpp) and the direct peer every request comes from;
// the peer is a trusted proxy, so X-Forwarded-For in the input picks the client address.
constexpr std::uint32_t kHeaderLimit = 16 * 1024;
constexpr std::uint64_t kBodyLimit = 1024 * 1024;
constexpr std::string_view kPeer = "127.0.0.1";
constexpr std::size_t kMaxPipelined = 8;
// The database is rebuilt this often so that it does not grow without bound in long runs.
constexpr std::uint64_t kRunsPerWorld = 20'000;

// Placeholders in the corpus, replaced before parsing. The ids are as long as the ids they
// stand for, so a body's Content-Length stays right.
constexpr std::string_view kKey = "KEY_PLACEHOLDER";                 // read + write
constexpr std::string_view kReadOnlyKey = "KEY_RO_PLACEHOLDER";      // read, 10/8 + 2001:db8::/32
constexpr std::string_view kRevokedKey = "KEY_REVOKED_PLACEHOLDER";  // revoked
constexpr std::string_view kLeadId = "LEAD_ID_PLACEHOLDER_________________";
constexpr std::string_view kContactId = "CONTACT_ID_PLACEHOLDER______________";
constexpr std::string_view kConversationId = "CONVERSATION_ID_PLACEHOLDER_________";
constexpr std::string_view kRepId = "REP_ID_PLACEHOLDER__________________";
constexpr std::string_view kAgentId = "AGENT_ID_PLACEHOLDER________________";
constexpr std::string_view kDepartmentId = "DEPARTMENT_ID_PLACEHOLDER___________";
constexpr std::string_view kLeadsCursor = "LEADS_CURSOR_PLACEHOLDER";
constexpr std::string_view kContactsCursor = "CONTACTS_CURSOR_PLACEHOLDER";
constexpr std::string_view kConversationsCursor = "CONVERSATIONS_CURSOR_PLACEHOLDER";
static_assert(kLeadId.size() == 36 && kContactId.size() == 36 && kConversationId.size() == 36 &&
              kRepId.size() == 36 && kAgentId.size() == 36 && kDepartmentId.size() == 36);

constexpr unsigned kDocumentedStatuses[] = {200, 201, 400, 401, 403, 404, 405, 409, 413, 422, 429};

// Where the database lives: tmpfs when there is one (SQLite syncs every commit).
fs::path scratch_root() {
  if (const char* dir = std::getenv("LEADLINE_FUZZ_TMPDIR")) return dir;
  std::error_code ec;
  if (fs::is_directory("/dev/shm", ec) && access("/dev/shm", W_OK) == 0) return "/dev/shm";
  return fs::temp_directory_path();
}

std::string api_key(store::Database& db, const domain::WorkspaceId& ws, std::string name,
                    domain::ScopeSet scopes, std::vector<std::string> allowed_ips) {
  std::string key = auth::generate_api_key();
  db.keys().create({.workspace_id = ws,
                    .name = std::move(name),
                    .prefix = auth::display_prefix(key),
                    .key_hash = auth::hash_api_key(key),
                    .scopes = scopes,
                    .allowed_ips = std::move(allowed_ips)});
  return key;
}

domain::Person person(std::string first, std::string email) {
  domain::Person p;
  p.first_name = std::move(first);
  p.last_name = "Fuzz";
  p.email = std::move(email);
  return p;
}

// A store with one workspace, its people, three records of each kind and three keys, and the
// handler wired as `leadline serve` wires it.
class World {
 public:
  World() {
    std::string pattern = (scratch_root() / "leadline-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::cerr << "fuzz_http_request: cannot create a directory like " << pattern << "\n";
      std::abort();
    }
    dir_ = pattern;
    store_ = store::open_database("sqlite:" + (dir_ / "fuzz.db").string());
    fill();
    authenticator_ = std::make_unique<auth::Authenticator>(
        [db = store_.get()](std::string_view hash) { return db->keys().find_by_hash(hash); },
        std::vector<auth::IpRange>{*auth::parse_ip_range("127.0.0.0/8"),
                                   *auth::parse_ip_range("::1")});
    limiter_ = std::make_unique<auth::SlidingWindowLimiter>(
        auth::RateLimitPolicy{.limit = 1'000'000'000'000, .window_ms = 1000});
    // Flushed when the world is rebuilt or destroyed, not by a timer, so runs replay alike.
    usage_ = std::make_unique<auth::UsageRecorder>(
        [db = store_.get()](const std::vector<domain::UsageDelta>& d) { db->usage().record(d); },
        std::chrono::hours(24));
    handler_ = std::make_unique<api::ApiHandler>(*store_, *authenticator_, *limiter_, *usage_);
    substitutions_.emplace_back(kLeadsCursor, first_page_cursor("leads"));
    substitutions_.emplace_back(kContactsCursor, first_page_cursor("contacts"));
    substitutions_.emplace_back(kConversationsCursor, first_page_cursor("conversations"));
  }

  ~World() {
    handler_.reset();
    usage_.reset();
    limiter_.reset();
    authenticator_.reset();
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  World(const World&) = delete;
  World& operator=(const World&) = delete;

  api::ApiHandler& handler() { return *handler_; }

  std::string substitute(std::string text) const {
    for (const auto& [placeholder, value] : substitutions_) {
      for (std::size_t at = text.find(placeholder); at != std::string::npos;
           at = text.find(placeholder, at + value.size())) {
        text.replace(at, placeholder.size(), value);
      }
    }
    return text;
  }

 private:
  void fill() {
    auto& db = *store_;
    const auto ws = db.workspaces().create("fuzz").id;
    const auto rep = db.workspaces().add_rep(ws, person("Rita", "rita@example.com"));
    const auto agent = db.workspaces().add_agent(ws, person("Alan", "alan@example.com"));
    const auto department = db.workspaces().add_department(ws, "Support");
    const auto read = domain::ScopeSet{}.add(domain::Scope::kRead);
    const auto read_write = domain::ScopeSet{read}.add(domain::Scope::kWrite);
    const std::string revoked = api_key(db, ws, "revoked", read_write, {});
    db.keys().revoke(db.keys().find_by_hash(auth::hash_api_key(revoked))->id);
    // Longest first: no placeholder is part of another, but keep it robust.
    substitutions_.emplace_back(kRevokedKey, revoked);
    substitutions_.emplace_back(
        kReadOnlyKey, api_key(db, ws, "read-only", read, {"10.0.0.0/8", "2001:db8::/32"}));
    substitutions_.emplace_back(kKey, api_key(db, ws, "read-write", read_write, {}));

    std::string lead_id;
    std::string contact_id;
    for (int i = 0; i < 3; ++i) {
      domain::NewLead lead;
      lead.visitor_name = "Visitor " + std::to_string(i);
      lead.visitor_email = "visitor" + std::to_string(i) + "@example.com";
      lead.tags = {"vip"};
      lead_id = db.leads().create(ws, lead).id.value;
      domain::NewContact contact;
      contact.first_name = "Contact " + std::to_string(i);
      contact.email = "contact" + std::to_string(i) + "@example.com";
      contact.metadata_json = R"({"plan":"pro"})";
      contact_id = std::get<domain::Contact>(db.contacts().create(ws, contact)).id.value;
    }
    std::vector<store::ImportItem> items;
    for (int i = 0; i < 3; ++i) {
      domain::NewConversation conversation;
      conversation.source = "widget";
      conversation.tags = {"support"};
      conversation.visitor = domain::NewContact{.first_name = "Guest " + std::to_string(i)};
      conversation.agent_id = domain::AgentId{agent.id};
      conversation.messages.push_back(domain::NewMessage{.sender_type = "visitor",
                                                         .content = "Hello",
                                                         .status = "delivered",
                                                         .created_at = domain::now()});
      items.push_back({.line = i + 1, .record = std::move(conversation)});
    }
    db.imports().apply(ws, items);
    store::ConversationListQuery all;
    all.sort = {store::ConversationSortField::kCreatedAt, store::SortDirection::kDesc};
    const auto conversations = db.conversations().list(ws, all);

    substitutions_.emplace_back(kLeadId, lead_id);
    substitutions_.emplace_back(kContactId, contact_id);
    substitutions_.emplace_back(kConversationId, conversations.items.at(0).id.value);
    substitutions_.emplace_back(kRepId, rep.id);
    substitutions_.emplace_back(kAgentId, agent.id);
    substitutions_.emplace_back(kDepartmentId, department.id.value);
  }

  // next_cursor of the first one-item page of an endpoint in its default order.
  std::string first_page_cursor(std::string_view endpoint) {
    http::Request request;
    const std::string target = "/api/v1/external/" + std::string(endpoint) + "?limit=1";
    const std::string authorization = "Bearer " + substitute(std::string(kKey));
    request.method = "GET";
    request.target = target;
    request.peer_ip = kPeer;
    request.headers.push_back({"Authorization", authorization});
    http::Response response;
    handler_->handle(request, response);
    const auto body = boost::json::parse(response.body);
    const auto& cursor = body.at("pagination").at("next_cursor").as_string();
    return std::string(cursor.data(), cursor.size());
  }

  fs::path dir_;
  std::unique_ptr<store::Database> store_;
  std::unique_ptr<auth::Authenticator> authenticator_;
  std::unique_ptr<auth::SlidingWindowLimiter> limiter_;
  std::unique_ptr<auth::UsageRecorder> usage_;
  std::unique_ptr<api::ApiHandler> handler_;
  std::vector<std::pair<std::string_view, std::string>> substitutions_;
};

std::unique_ptr<World> world;
std::uint64_t runs = 0;
// LEADLINE_FUZZ_VERBOSE=1 prints each request's line and answer, for checking the corpus.
const bool verbose = std::getenv("LEADLINE_FUZZ_VERBOSE") != nullptr;

std::string_view header_of(const http::Response& response, std::string_view name) {
  for (const auto& [n, v] : response.headers) {
    if (n == name) return v;
  }
  return {};
}

// A list page: at most `limit` items of `total_count`, and a next cursor exactly when has_more.
void check_list(const boost::json::object& envelope) {
  if (!envelope.at("data").is_array()) return;
  const auto& items = envelope.at("data").as_array();
  const auto* pagination = envelope.if_contains("pagination");
  FUZZ_CHECK(pagination && pagination->is_object(), "a list without 'pagination'");
  const auto& p = pagination->as_object();
  const auto* has_more = p.if_contains("has_more");
  const auto* next_cursor = p.if_contains("next_cursor");
  const auto* total = p.if_contains("total_count");
  const auto* limit = p.if_contains("limit");
  FUZZ_CHECK(has_more && has_more->is_bool() && next_cursor && total && total->is_int64() &&
                 limit && limit->is_int64(),
             "pagination lacks a field or has the wrong type");
  FUZZ_CHECK(has_more->as_bool() == next_cursor->is_string(),
             "next_cursor is not set exactly when has_more is true");
  FUZZ_CHECK(limit->as_int64() >= 1 && limit->as_int64() <= 100, "pagination.limit out of range");
  FUZZ_CHECK(static_cast<std::int64_t>(items.size()) <= limit->as_int64(), "more items than limit");
  FUZZ_CHECK(static_cast<std::int64_t>(items.size()) <= total->as_int64(),
             "more items than total_count");
}

void check_response(const http::Request& request, const http::Response& response) {
  const bool documented = std::find(std::begin(kDocumentedStatuses), std::end(kDocumentedStatuses),
                                    response.status) != std::end(kDocumentedStatuses);
  if (!documented) {
    std::cerr << "undocumented status " << response.status << " for " << request.method << " "
              << request.target << ": " << response.body << "\n";
  }
  FUZZ_CHECK(documented, "the response status is not one of the documented codes");
  FUZZ_CHECK(!header_of(response, "X-Request-Id").empty(), "no X-Request-Id");
  // The public documents (the OpenAPI JSON, the /docs page and its script) are answered as
  // themselves, not in the envelope; their refusals (405) are envelopes like any other.
  const std::string_view path = request.target.substr(0, request.target.find('?'));
  const auto routes = api::reference_routes();
  const bool document = path == "/docs/" || std::find(routes.begin(), routes.end(), path) !=
                                                routes.end();
  if (document && response.status == 200) {
    FUZZ_CHECK(!response.content_type.empty() && !response.body.empty(), "an empty document");
    return;
  }
  FUZZ_CHECK(response.content_type == "application/json; charset=utf-8", "content type");

  boost::json::error_code ec;
  const auto body = boost::json::parse(response.body, ec);
  if (ec) std::cerr << "invalid JSON body: " << response.body << "\n";
  FUZZ_CHECK(!ec && body.is_object(), "the response body is not a JSON object");
  const auto* success = body.as_object().if_contains("success");
  FUZZ_CHECK(success && success->is_bool(), "the envelope has no boolean 'success'");
  FUZZ_CHECK(success->as_bool() == (response.status < 400), "'success' disagrees with the status");
  if (response.status < 400) {
    FUZZ_CHECK(body.as_object().contains("data"), "a success without 'data'");
    check_list(body.as_object());
  } else {
    const auto* error = body.as_object().if_contains("error");
    FUZZ_CHECK(error && error->is_string() && !error->as_string().empty(),
               "an error without an 'error' sentence");
  }
  if (response.status < 300 || response.status == 409 || response.status == 422) {
    FUZZ_CHECK(!header_of(response, "X-RateLimit-Limit").empty(), "no X-RateLimit-Limit");
  }
  if (response.status == 401) FUZZ_CHECK(!header_of(response, "WWW-Authenticate").empty(), "401");
  if (response.status == 405) FUZZ_CHECK(!header_of(response, "Allow").empty(), "405 w/o Allow");
  if (response.status == 429) FUZZ_CHECK(!header_of(response, "Retry-After").empty(), "429");
}

using Parser = beast_http::request_parser<beast_http::string_body>;

// Parses one request from the front of `input` as the server does and consumes what it used.
// False and no error when the bytes end before a request does (the server would wait or see the
// peer leave); false and the parser's error when it fails.
bool parse_one(Parser& parser, std::string_view& input, boost::beast::error_code& ec) {
  parser.header_limit(kHeaderLimit);
  parser.body_limit(kBodyLimit);
  parser.eager(true);
  while (!parser.is_done()) {
    const std::size_t used = parser.put(boost::asio::buffer(input.data(), input.size()), ec);
    input.remove_prefix(used);
    if (ec == beast_http::error::need_more) {
      ec = {};
      if (used > 0) continue;
      // Everything there is has been given: the peer ends the connection here.
      parser.put_eof(ec);
      if (ec || !parser.is_done()) return false;
    }
    if (ec || used == 0) return false;
  }
  return true;
}

// A request the server refuses itself (malformed, too large) is still rendered by the handler,
// with a status of the contract's.
void check_refusal(const boost::beast::error_code& ec) {
  const auto kind = http::refusal_for(ec);
  if (verbose && ec) std::cerr << "parser: " << ec.message() << "\n";
  if (!kind) return;
  FUZZ_CHECK(*kind == http::RefusalKind::kMalformedRequest ||
                 *kind == http::RefusalKind::kBodyTooLarge ||
                 *kind == http::RefusalKind::kHeadersTooLarge,
             "unexpected refusal kind");
  http::Response response;
  const std::size_t limit =
      *kind == http::RefusalKind::kHeadersTooLarge ? kHeaderLimit : kBodyLimit;
  world->handler().render_refusal({*kind, limit}, nullptr, response);
  FUZZ_CHECK(response.status == 400 || response.status == 413 || response.status == 431,
             "unexpected refusal status");
  boost::json::error_code json_ec;
  const auto body = boost::json::parse(response.body, json_ec);
  FUZZ_CHECK(!json_ec && body.is_object() && body.as_object().contains("error"),
             "a refusal is not a JSON error envelope");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!world || ++runs % kRunsPerWorld == 0) {
    world.reset();
    world = std::make_unique<World>();
    // Destroyed at exit before OpenSSL's own exit handler (registered at its first use, while
    // the first world was filled, so it would run first): that handler frees the key of the
    // per-thread random state the store's writer thread still holds, which LeakSanitizer then
    // reports. Destroying the world joins the thread, whose exit frees its state.
    static const bool destroyed_before_openssl = (std::atexit([] { world.reset(); }) == 0);
    (void)destroyed_before_openssl;
  }
  const std::string text = world->substitute(std::string(fuzz::as_text(data, size)));
  std::string_view input = text;
  http::Request request;
  http::Response response;
  for (std::size_t n = 0; n < kMaxPipelined && !input.empty(); ++n) {
    Parser parser;
    boost::beast::error_code ec;
    if (!parse_one(parser, input, ec)) {
      check_refusal(ec);
      break;
    }
    http::adapt_request(parser.get(), kPeer, request);
    response.reset();
    world->handler().handle(request, response);
    if (verbose) {
      std::cerr << request.method << " " << request.target << " -> " << response.status << " "
                << response.body.substr(0, 160) << "\n";
    }
    check_response(request, response);
    // The server closes after a request that does not keep the connection alive.
    if (!parser.get().keep_alive()) break;
  }
  return 0;
}
