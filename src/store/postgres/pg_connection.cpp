// Connection, prepared-statement cache, results and transaction guard over libpq.
#include "store/postgres/pg_connection.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>

#include "store/store.hpp"

namespace leadline::store::postgres {

namespace {

// Type OIDs of pg_type, stable across PostgreSQL versions.
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt4Oid = 23;
constexpr Oid kInt2Oid = 21;
constexpr Oid kFloat8Oid = 701;

// A hung network should not hang a request forever; the URL may set its own.
constexpr const char* kConnectTimeoutSeconds = "10";

std::string trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Connection-class failures (08...), the server shutting down or starting (57P01..57P03):
// the database is unavailable rather than the statement wrong.
bool is_unavailable_state(const std::string& sqlstate) {
  return sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" ||
         sqlstate == "57P03";
}

[[noreturn]] void fail(PGconn* conn, const PGresult* result, std::string_view doing) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state ? state : "";
  std::string message = trimmed(result ? PQresultErrorMessage(result) : nullptr);
  if (message.empty()) message = trimmed(PQerrorMessage(conn));
  if (PQstatus(conn) == CONNECTION_BAD || is_unavailable_state(sqlstate)) {
    throw StoreUnavailable("database unavailable: " + message);
  }
  throw PgError(std::string(doing) + ": " + message, sqlstate);
}

bool succeeded(const PGresult* r) {
  const ExecStatusType status = PQresultStatus(r);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

template <class T>
T parse_number(const char* text, int length, std::string_view what) {
  T value{};
  const auto [end, ec] = std::from_chars(text, text + length, value);
  if (ec != std::errc() || end != text + length) {
    throw std::runtime_error("unexpected " + std::string(what) + " value from PostgreSQL: " +
                             std::string(text, static_cast<std::size_t>(length)));
  }
  return value;
}

template <class T>
std::string number_text(T v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

void ignore_notice(void*, const char*) {}

}  // namespace

Params& Params::text(std::string_view v) {
  // Text parameters travel NUL-terminated; PostgreSQL text cannot hold NUL anyway.
  if (v.find('\0') != std::string_view::npos) {
    throw std::invalid_argument("PostgreSQL text cannot contain NUL characters");
  }
  values_.emplace_back(std::string(v));
  return *this;
}

Params& Params::int64(std::int64_t v) {
  values_.emplace_back(number_text(v));
  return *this;
}

Params& Params::real(double v) {
  // Shortest text that reads back as the same double.
  values_.emplace_back(number_text(v));
  return *this;
}

Params& Params::null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

Params& Params::opt_text(const std::optional<std::string>& v) {
  return v ? text(*v) : null();
}

Params& Params::opt_real(const std::optional<double>& v) {
  return v ? real(*v) : null();
}

Params& Params::value(const SqlValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return int64(*i);
  if (const auto* d = std::get_if<double>(&v)) return real(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return text(*s);
  return null();
}

void ResultDeleter::operator()(pg_result* r) const {
  PQclear(r);
}

int Result::rows() const {
  return PQntuples(result_.get());
}

int Result::columns() const {
  return PQnfields(result_.get());
}

std::int64_t Result::affected() const {
  const char* n = PQcmdTuples(result_.get());
  if (!n || !*n) return 0;
  return parse_number<std::int64_t>(n, static_cast<int>(std::strlen(n)), "row count");
}

bool Result::is_null(int row, int col) const {
  return PQgetisnull(result_.get(), row, col) != 0;
}

std::string Result::text(int row, int col) const {
  return std::string(PQgetvalue(result_.get(), row, col),
                     static_cast<std::size_t>(PQgetlength(result_.get(), row, col)));
}

std::int64_t Result::int64(int row, int col) const {
  return parse_number<std::int64_t>(PQgetvalue(result_.get(), row, col),
                                    PQgetlength(result_.get(), row, col), "integer");
}

double Result::real(int row, int col) const {
  return parse_number<double>(PQgetvalue(result_.get(), row, col),
                              PQgetlength(result_.get(), row, col), "double precision");
}

std::optional<std::string> Result::opt_text(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return text(row, col);
}

std::optional<double> Result::opt_real(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return real(row, col);
}

std::optional<std::int64_t> Result::opt_int64(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return int64(row, col);
}

SqlValue Result::value(int row, int col) const {
  if (is_null(row, col)) return std::monostate{};
  switch (PQftype(result_.get(), col)) {
    case kInt8Oid:
    case kInt4Oid:
    case kInt2Oid:
      return int64(row, col);
    case kFloat8Oid:
      return real(row, col);
    default:
      return text(row, col);
  }
}

Connection::Connection(const std::string& conninfo) {
  // Later entries win: the URL (dbname, expanded) may override the timeout, but the client
  // encoding is always UTF-8, which is what every string in leadline is.
  const char* keys[] = {"connect_timeout", "application_name", "dbname", "client_encoding",
                        nullptr};
  const char* values[] = {kConnectTimeoutSeconds, "leadline", conninfo.c_str(), "UTF8", nullptr};
  conn_ = PQconnectdbParams(keys, values, 1);
  if (!conn_) throw StoreUnavailable("database unavailable: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = trimmed(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw StoreUnavailable("database unavailable: " + message);
  }
  // Notices ("... already exists, skipping") are not errors and must not reach stderr.
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  // A cached generic plan cannot tell a rare search needle (trigram index) from a common one
  // (sort index, filtered), so every execution of a prepared statement is planned with its
  // values. Best effort: an engine without this setting keeps its own default.
  PQclear(PQexec(conn_, "SET plan_cache_mode = force_custom_plan"));
}

Connection::~Connection() {
  PQfinish(conn_);
}

void Connection::exec(const std::string& sql) {
  PGresult* raw = PQexec(conn_, sql.c_str());
  Result result(raw);
  if (!raw || !succeeded(raw)) fail(conn_, raw, "executing \"" + sql.substr(0, 60) + "\"");
}

Result Connection::query(const std::string& sql, const Params& params) {
  auto found = prepared_.find(sql);
  if (found == prepared_.end()) {
    std::string name = "leadline_" + std::to_string(prepared_.size() + 1);
    PGresult* raw = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
    Result prepared(raw);
    if (!raw || !succeeded(raw)) fail(conn_, raw, "preparing \"" + sql.substr(0, 80) + "\"");
    found = prepared_.emplace(sql, std::move(name)).first;
  }
  std::vector<const char*> values;
  values.reserve(params.values().size());
  for (const auto& v : params.values()) values.push_back(v ? v->c_str() : nullptr);
  PGresult* raw = PQexecPrepared(conn_, found->second.c_str(), static_cast<int>(values.size()),
                                 values.data(), nullptr, nullptr, 0);
  Result result(raw);
  if (!raw || !succeeded(raw)) fail(conn_, raw, "running \"" + sql.substr(0, 80) + "\"");
  return result;
}

bool Connection::broken() const {
  return PQstatus(conn_) != CONNECTION_OK;
}

bool Connection::in_transaction() const {
  const PGTransactionStatusType status = PQtransactionStatus(conn_);
  return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
}

Transaction::Transaction(Connection& conn, Kind kind) : conn_(conn) {
  // Explicit levels: a server whose default_transaction_isolation is SERIALIZABLE must not
  // change what a conflicting insert's follow-up SELECT sees.
  conn_.exec(kind == Kind::kWrite ? "BEGIN ISOLATION LEVEL READ COMMITTED"
                                  : "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
}

Transaction::~Transaction() {
  if (!open_ || conn_.broken() || !conn_.in_transaction()) return;
  try {
    conn_.exec("ROLLBACK");
  } catch (const std::exception&) {
    // The pool drops a connection left inside a transaction, which ends it on the server.
  }
}

void Transaction::commit() {
  open_ = false;
  conn_.exec("COMMIT");
}

}  // namespace leadline::store::postgres
