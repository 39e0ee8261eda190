// Connection, prepared-statement cache, results and transaction guard over libpq.
#include "store/postgres/pg_connection.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>

#include "store/engine.hpp"
#include "store/postgres/postgres_dialect.hpp"

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

// One row of COPY's text format: values separated by tabs, \N for null, and backslash, tab,
// newline and carriage return escaped inside text.
void append_copy_row(std::string& out, const sql::Params& row) {
  bool first = true;
  for (const sql::Value& v : row.values()) {
    if (!first) out.push_back('\t');
    first = false;
    if (const auto* t = std::get_if<std::string>(&v)) {
      for (const char c : *t) {
        switch (c) {
          case '\0':
            throw std::invalid_argument("PostgreSQL text cannot contain NUL characters");
          case '\\':
            out.append("\\\\");
            break;
          case '\t':
            out.append("\\t");
            break;
          case '\n':
            out.append("\\n");
            break;
          case '\r':
            out.append("\\r");
            break;
          default:
            out.push_back(c);
        }
      }
    } else if (const auto* n = std::get_if<std::int64_t>(&v)) {
      out.append(number_text(*n));
    } else if (const auto* d = std::get_if<double>(&v)) {
      out.append(number_text(*d));
    } else {
      out.append("\\N");
    }
  }
  out.push_back('\n');
}

void ignore_notice(void*, const char*) {}

}  // namespace

// A statement's result, all rows in memory, every value in text form, read row by row.
class Connection::Result final : public sql::RowCursor {
 public:
  explicit Result(Connection& owner) : owner_(owner) {}
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  ~Result() { PQclear(result_); }

  void reset(PGresult* result) {
    PQclear(result_);
    result_ = result;
    row_ = -1;
  }

  // Rows a DELETE / UPDATE / INSERT touched.
  std::int64_t affected() const {
    const char* n = PQcmdTuples(result_);
    if (!n || !*n) return 0;
    return parse_number<std::int64_t>(n, static_cast<int>(std::strlen(n)), "row count");
  }

  bool next() override { return ++row_ < PQntuples(result_); }
  int columns() const override { return PQnfields(result_); }
  bool is_null(int col) const override { return PQgetisnull(result_, row_, col) != 0; }
  std::int64_t int64(int col) const override {
    return parse_number<std::int64_t>(PQgetvalue(result_, row_, col),
                                      PQgetlength(result_, row_, col), "integer");
  }
  double real(int col) const override {
    return parse_number<double>(PQgetvalue(result_, row_, col), PQgetlength(result_, row_, col),
                                "double precision");
  }
  std::string_view text(int col) const override {
    return {PQgetvalue(result_, row_, col),
            static_cast<std::size_t>(PQgetlength(result_, row_, col))};
  }
  // Typed by the column's type: bigint and integer as integers, double precision as reals.
  sql::Value value(int col) const override {
    if (is_null(col)) return std::monostate{};
    switch (PQftype(result_, col)) {
      case kInt8Oid:
      case kInt4Oid:
      case kInt2Oid:
        return int64(col);
      case kFloat8Oid:
        return real(col);
      default:
        return std::string(text(col));
    }
  }
  void release() override {
    reset(nullptr);
    owner_.free_results_.push_back(this);
  }

 private:
  Connection& owner_;
  PGresult* result_ = nullptr;
  int row_ = -1;
};

std::string number_placeholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int number = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {
      // Copied through the closing quote; a doubled quote inside is an escaped one.
      const std::size_t close = sql.find(c, i + 1);
      const std::size_t stop = close == std::string_view::npos ? sql.size() : close + 1;
      out.append(sql.substr(i, stop - i));
      i = stop - 1;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      const std::size_t eol = sql.find('\n', i);
      const std::size_t stop = eol == std::string_view::npos ? sql.size() : eol;
      out.append(sql.substr(i, stop - i));
      i = stop - 1;
    } else if (c == '?') {
      out += '$';
      out += std::to_string(++number);
    } else {
      out += c;
    }
  }
  return out;
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

void Connection::execute_script(const std::string& sql) {
  PGresult* raw = PQexec(conn_, sql.c_str());
  const bool ok = raw && succeeded(raw);
  if (!ok) {
    const std::unique_ptr<PGresult, void (*)(PGresult*)> owned(raw, PQclear);
    fail(conn_, raw, "executing \"" + sql.substr(0, 60) + "\"");
  }
  PQclear(raw);
}

const std::string& Connection::statement_name(std::string_view sql) {
  auto found = prepared_.find(sql);
  if (found != prepared_.end()) return found->second;
  std::string name = "leadline_" + std::to_string(prepared_.size() + 1);
  const std::string numbered = number_placeholders(sql);
  PGresult* raw = PQprepare(conn_, name.c_str(), numbered.c_str(), 0, nullptr);
  const std::unique_ptr<PGresult, void (*)(PGresult*)> prepared(raw, PQclear);
  if (!raw || !succeeded(raw)) {
    fail(conn_, raw, "preparing \"" + std::string(sql.substr(0, 80)) + "\"");
  }
  return prepared_.emplace(std::string(sql), std::move(name)).first->second;
}

Connection::Result& Connection::run(std::string_view sql, const sql::Params& params) {
  const std::string& name = statement_name(sql);
  const auto& values = params.values();
  param_text_.resize(values.size());
  param_values_.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const sql::Value& v = values[i];
    if (const auto* t = std::get_if<std::string>(&v)) {
      // Text parameters travel NUL-terminated; PostgreSQL text cannot hold NUL anyway.
      if (t->find('\0') != std::string::npos) {
        throw std::invalid_argument("PostgreSQL text cannot contain NUL characters");
      }
      param_values_[i] = t->c_str();
    } else if (const auto* n = std::get_if<std::int64_t>(&v)) {
      param_text_[i] = number_text(*n);
      param_values_[i] = param_text_[i].c_str();
    } else if (const auto* d = std::get_if<double>(&v)) {
      // Shortest text that reads back as the same double.
      param_text_[i] = number_text(*d);
      param_values_[i] = param_text_[i].c_str();
    } else {
      param_values_[i] = nullptr;
    }
  }
  PGresult* raw = PQexecPrepared(conn_, name.c_str(), static_cast<int>(values.size()),
                                 param_values_.data(), nullptr, nullptr, 0);
  if (!raw || !succeeded(raw)) {
    const std::unique_ptr<PGresult, void (*)(PGresult*)> failed(raw, PQclear);
    fail(conn_, raw, "running \"" + std::string(sql.substr(0, 80)) + "\"");
  }
  if (free_results_.empty()) {
    results_.push_back(std::make_unique<Result>(*this));
    free_results_.push_back(results_.back().get());
  }
  Result& result = *free_results_.back();
  free_results_.pop_back();
  result.reset(raw);
  return result;
}

sql::Rows Connection::query(std::string_view sql, const sql::Params& params) {
  return sql::Rows(run(sql, params));
}

std::int64_t Connection::execute(std::string_view sql, const sql::Params& params) {
  Result& result = run(sql, params);
  const sql::Rows rows(result);
  return result.affected();
}

std::optional<std::int64_t> Connection::execute_unless_duplicate(std::string_view sql,
                                                                 const sql::Params& params) {
  // A failed statement aborts the whole transaction in PostgreSQL; the savepoint keeps it usable.
  execute_script("SAVEPOINT unique_guard");
  try {
    const std::int64_t changed = execute(sql, params);
    execute_script("RELEASE SAVEPOINT unique_guard");
    return changed;
  } catch (const PgError& e) {
    if (!e.is_unique_violation()) throw;
    execute_script("ROLLBACK TO SAVEPOINT unique_guard");
    execute_script("RELEASE SAVEPOINT unique_guard");
    return std::nullopt;
  }
}

void Connection::insert_rows(std::string_view table, std::string_view columns,
                             const std::vector<sql::Params>& rows) {
  if (rows.empty()) return;
  std::string copy = "COPY ";
  copy.append(table).append(" (").append(columns).append(") FROM STDIN");
  {
    PGresult* raw = PQexec(conn_, copy.c_str());
    const std::unique_ptr<PGresult, void (*)(PGresult*)> started(raw, PQclear);
    if (!raw || PQresultStatus(raw) != PGRES_COPY_IN) fail(conn_, raw, "running \"" + copy + "\"");
  }
  // Sent in pieces of about this size: a few round trips' worth of rows per write, with the
  // buffer's memory bounded whatever the batch.
  constexpr std::size_t kPiece = 256 * 1024;
  std::string data;
  const char* refused = nullptr;
  try {
    for (const sql::Params& row : rows) {
      append_copy_row(data, row);
      if (data.size() >= kPiece) {
        put_copy_data(data);
        data.clear();
      }
    }
    put_copy_data(data);
  } catch (const std::invalid_argument& e) {
    refused = e.what();
  }
  if (PQputCopyEnd(conn_, refused) != 1) fail(conn_, nullptr, "ending \"" + copy + "\"");
  // COPY answers one result, then none; a refused COPY's result names the failure.
  PGresult* raw = PQgetResult(conn_);
  const std::unique_ptr<PGresult, void (*)(PGresult*)> ended(raw, PQclear);
  while (PGresult* more = PQgetResult(conn_)) PQclear(more);
  if (refused != nullptr) throw std::invalid_argument(refused);
  if (!raw || PQresultStatus(raw) != PGRES_COMMAND_OK) fail(conn_, raw, "running \"" + copy + "\"");
}

void Connection::put_copy_data(const std::string& data) {
  if (data.empty()) return;
  if (PQputCopyData(conn_, data.data(), static_cast<int>(data.size())) != 1) {
    fail(conn_, nullptr, "sending COPY data");
  }
}

const sql::Dialect& Connection::dialect() const {
  return postgres_dialect();
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
  conn_.execute_script(kind == Kind::kWrite ? "BEGIN ISOLATION LEVEL READ COMMITTED"
                                            : "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
}

Transaction::~Transaction() {
  if (!open_ || conn_.broken() || !conn_.in_transaction()) return;
  try {
    conn_.execute_script("ROLLBACK");
  } catch (const std::exception&) {
    // The pool drops a connection left inside a transaction, which ends it on the server.
  }
}

void Transaction::commit() {
  open_ = false;
  conn_.execute_script("COMMIT");
}

}  // namespace leadline::store::postgres
