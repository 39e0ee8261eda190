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

Connection::Connection(const std::string& conninfo, std::optional<int> write_shard)
    : write_shard_(write_shard) {
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
  // Best effort: leadline's statements are short, and compiling one with JIT, or starting
  // parallel workers for it, costs more than it saves. A generic plan's estimate, made for a
  // LIMIT it cannot see, crossed jit_above_cost (10 ms of compiling per contacts page at 100k
  // contacts) and made a conversations page a parallel one (48 ms instead of 3 ms at 20k
  // conversations: BENCHMARKS.md, "Fifteenth round"). An engine without them runs as it does.
  PQclear(PQexec(conn_, "SET jit = off; SET max_parallel_workers_per_gather = 0"));
  // Best effort: a session without it raises the pid's shard, as before migration 0014.
  if (write_shard_) {
    PQclear(PQexec(conn_, ("SET leadline.write_shard = " + std::to_string(*write_shard_)).c_str()));
  }
  // Best effort: an engine without plan_cache_mode plans as it does.
  PGresult* mode = PQexec(conn_, "SET plan_cache_mode = force_generic_plan");
  if (mode == nullptr || PQresultStatus(mode) != PGRES_COMMAND_OK) plans_ = Plans::kUnsettable;
  PQclear(mode);
  if (PQenterPipelineMode(conn_) == 0) fail(conn_, nullptr, "entering pipeline mode");
}

Connection::~Connection() {
  PQfinish(conn_);
}

void Connection::execute_script(const std::string& sql) {
  // Several statements in one string need the simple query protocol, which a pipeline lacks.
  sync_now();
  PQexitPipelineMode(conn_);
  PGresult* raw = PQexec(conn_, sql.c_str());
  const std::unique_ptr<PGresult, void (*)(PGresult*)> owned(raw, PQclear);
  const bool ok = raw && succeeded(raw);
  if (PQenterPipelineMode(conn_) == 0) fail(conn_, nullptr, "entering pipeline mode");
  if (!ok) fail(conn_, raw, "executing \"" + sql.substr(0, 60) + "\"");
}

const Connection::Prepared& Connection::statement_name(std::string_view sql) {
  auto found = prepared_.find(sql);
  if (found != prepared_.end()) return *found;
  // Prepared in the same round trip as its first use; known once the server accepted it.
  std::string name = "leadline_" + std::to_string(++statements_named_);
  const std::string numbered = number_placeholders(sql);
  if (PQsendPrepare(conn_, name.c_str(), numbered.c_str(), 0, nullptr) == 0) {
    fail(conn_, nullptr, "preparing \"" + std::string(sql.substr(0, 80)) + "\"");
  }
  owed_.push_back({Owed::Kind::kPrepare, {}});
  preparing_.emplace_back(sql);
  return *prepared_.emplace(std::string(sql), std::move(name)).first;
}

void Connection::send_prepared(std::string_view sql, const sql::Params& params, Owed::Kind kind) {
  const auto& [text, name] = statement_name(sql);
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
  if (PQsendQueryPrepared(conn_, name.c_str(), static_cast<int>(values.size()),
                          param_values_.data(), nullptr, nullptr, 0) == 0) {
    fail(conn_, nullptr, "running \"" + std::string(sql.substr(0, 80)) + "\"");
  }
  // The prepared statement's key outlives the caller's text, for a failure read later.
  owed_.push_back({kind, text});
}

void Connection::send_statement(std::string_view sql, const sql::Params& params, Owed::Kind kind,
                                sql::Planning planning) {
  if (check_) {
    // Planned either way: a key's lookup by id has one plan for every value.
    const auto check = std::move(*check_);
    check_.reset();
    send_prepared(check.first, check.second, Owed::Kind::kCheck);
    // Its text is gone once this call returns, and so is the need to name it.
    owed_.back().sql = "the request's check";
  }
  use_plans(planning);
  send_prepared(sql, params, kind);
}

// A cached generic plan cannot tell a rare search needle (trigram index) from a common one
// (sort index, filtered): such statements are planned for each execution with their values.
// Every other statement keeps one generic plan, planned once (sql::Planning::kDefault says
// why). The SET travels with the next statement.
void Connection::use_plans(sql::Planning planning) {
  if (planning == sql::Planning::kDefault && per_values_until_commit_) {
    planning = sql::Planning::kPerValues;
  }
  const bool per_values = planning == sql::Planning::kPerValues;
  const Plans wanted = per_values ? Plans::kPerValues : Plans::kOnce;
  const std::string_view command = per_values ? "SET plan_cache_mode = force_custom_plan"
                                              : "SET plan_cache_mode = force_generic_plan";
  if (plans_ != Plans::kUnsettable && plans_ != wanted) {
    send_command(command);
    plans_ = wanted;
  }
}

void Connection::send_command(std::string_view sql) {
  if (PQsendQueryParams(conn_, std::string(sql).c_str(), 0, nullptr, nullptr, nullptr, nullptr,
                        0) == 0) {
    fail(conn_, nullptr, "sending \"" + std::string(sql) + "\"");
  }
  owed_.push_back({Owed::Kind::kCommand, sql});
  if (sql.starts_with("BEGIN")) transaction_open_ = true;
  if (sql == "COMMIT" || sql == "ROLLBACK") {
    transaction_open_ = false;
    per_values_until_commit_ = false;
  }
  // Undoing a transaction undoes a SET within it.
  if (sql == "ROLLBACK" && plans_ != Plans::kUnsettable) plans_ = Plans::kUnknown;
}

void Connection::sync_later() {
  if (PQpipelineSync(conn_) == 0) fail(conn_, nullptr, "ending a round trip");
  owed_.push_back({Owed::Kind::kSync, {}});
}

void Connection::send_now() {
  if (PQsendFlushRequest(conn_) == 0 || PQflush(conn_) != 0) {
    fail(conn_, nullptr, "sending");
  }
}

void Connection::sync_now() {
  if (owed_.empty()) return;
  if (owed_.back().kind != Owed::Kind::kSync) sync_later();
  collect();
}

// Every answer is read even after a failure, so that the connection stays usable; the first
// failure is thrown after. A failed check outranks the statement's own failure, which it may
// have caused.
std::vector<Connection::Result*> Connection::collect() {
  if (owed_.empty() || owed_.back().kind != Owed::Kind::kSync) sync_later();
  std::vector<Result*> rows;
  std::unique_ptr<PGresult, void (*)(PGresult*)> failure(nullptr, PQclear);
  std::string failed_doing;
  bool check_failed = false;
  auto release_rows = [&] {
    for (Result* r : rows) r->release();
  };
  while (!owed_.empty()) {
    const Owed owed = owed_.front();
    owed_.pop_front();
    PGresult* raw = PQgetResult(conn_);
    if (raw == nullptr) {
      release_rows();
      fail(conn_, nullptr, "reading an answer");
    }
    const ExecStatusType status = PQresultStatus(raw);
    if (owed.kind == Owed::Kind::kSync) {
      PQclear(raw);
      continue;
    }
    // The answer of one statement ends with a null result.
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
    std::string doing;
    if (owed.kind == Owed::Kind::kPrepare) {
      // Preparations are answered in the order sent; a refused one is not known after all (and
      // the statements that use it are answered "aborted").
      const std::string text = std::move(preparing_.front());
      preparing_.pop_front();
      if (!succeeded(raw)) {
        prepared_.erase(text);
        doing = "preparing \"" + text.substr(0, 80) + "\"";
      }
    }
    if (status == PGRES_PIPELINE_ABORTED) {
      PQclear(raw);
      continue;
    }
    if (!succeeded(raw)) {
      if (!failure) {
        failure.reset(raw);
        failed_doing = doing.empty() ? "running \"" + std::string(owed.sql.substr(0, 80)) + "\""
                                     : std::move(doing);
      } else {
        PQclear(raw);
      }
      continue;
    }
    if (owed.kind == Owed::Kind::kCheck) {
      check_failed = check_failed || PQntuples(raw) == 0;
      PQclear(raw);
    } else if (owed.kind == Owed::Kind::kRows) {
      rows.push_back(&take_result(raw));
    } else {
      PQclear(raw);
    }
  }
  // A failure undid (or skipped) whatever SET went with it.
  if ((check_failed || failure) && plans_ != Plans::kUnsettable) plans_ = Plans::kUnknown;
  if (check_failed) {
    release_rows();
    throw sql::CheckFailed("check failed");
  }
  if (failure) {
    release_rows();
    fail(conn_, failure.get(), failed_doing);
  }
  return rows;
}

Connection::Result& Connection::take_result(PGresult* raw) {
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
  send_statement(sql, params, Owed::Kind::kRows);
  return sql::Rows(*collect().front());
}

std::vector<sql::Rows> Connection::query_together(std::vector<sql::Statement> statements) {
  for (const auto& s : statements) {
    send_statement(s.sql, s.params, Owed::Kind::kRows, s.planning);
  }
  std::vector<sql::Rows> out;
  out.reserve(statements.size());
  for (Result* r : collect()) out.emplace_back(*r);
  return out;
}

std::int64_t Connection::execute(std::string_view sql, const sql::Params& params) {
  send_statement(sql, params, Owed::Kind::kRows);
  Result& result = *collect().front();
  const sql::Rows rows(result);
  return result.affected();
}

void Connection::execute_later(std::string_view sql, const sql::Params& params) {
  send_statement(sql, params, Owed::Kind::kCommand);
}

std::optional<std::int64_t> Connection::execute_unless_duplicate(std::string_view sql,
                                                                 const sql::Params& params) {
  // A failed statement aborts the whole transaction in PostgreSQL; the savepoint keeps it
  // usable. Releasing it travels with the next statement.
  send_command("SAVEPOINT unique_guard");
  try {
    const std::int64_t changed = execute(sql, params);
    send_command("RELEASE SAVEPOINT unique_guard");
    return changed;
  } catch (const PgError& e) {
    if (!e.is_unique_violation()) throw;
    send_command("ROLLBACK TO SAVEPOINT unique_guard");
    send_command("RELEASE SAVEPOINT unique_guard");
    return std::nullopt;
  }
}

void Connection::plan_with_values_until_commit() {
  per_values_until_commit_ = plans_ != Plans::kUnsettable;
}

void Connection::check_with_next(std::string_view sql, const sql::Params& params) {
  check_.emplace(std::string(sql), params);
}

bool Connection::drop_unsent_check() {
  const bool had = check_.has_value();
  check_.reset();
  return had;
}

void Connection::insert_rows(std::string_view table, std::string_view columns,
                             const std::vector<sql::Params>& rows) {
  if (rows.empty()) return;
  std::string copy = "COPY ";
  copy.append(table).append(" (").append(columns).append(") FROM STDIN");
  // Each row's foreign-key check is a query of its own, which an import's plans made with
  // values (plan_with_values_until_commit) planned again for every row: an eighth of a COPY's
  // time. A key lookup has one plan for every value.
  use_plans(sql::Planning::kOnce);
  // COPY has no place in a pipeline: what was sent is answered first, and the connection goes
  // back into pipeline mode however the COPY ends.
  sync_now();
  PQexitPipelineMode(conn_);
  struct BackToPipeline {
    pg_conn* conn;
    ~BackToPipeline() { PQenterPipelineMode(conn); }
  } const back_to_pipeline{conn_};
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
  if (!owed_.empty()) return transaction_open_;
  const PGTransactionStatusType status = PQtransactionStatus(conn_);
  return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
}

Transaction::Transaction(Connection& conn, Kind kind) : conn_(conn), kind_(kind) {
  // Explicit levels: a server whose default_transaction_isolation is SERIALIZABLE must not
  // change what a conflicting insert's follow-up SELECT sees.
  conn_.send_command(kind == Kind::kWrite ? "BEGIN ISOLATION LEVEL READ COMMITTED"
                                          : "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
}

Transaction::~Transaction() {
  if (!open_ || conn_.broken() || !conn_.in_transaction()) return;
  try {
    conn_.send_command("ROLLBACK");
    conn_.send_now();
  } catch (const std::exception&) {
    // The pool drops a connection left inside a transaction, which ends it on the server.
  }
}

void Transaction::commit() {
  open_ = false;
  conn_.send_command("COMMIT");
  // A read has nothing to make durable: its answer is read with the next statement's.
  if (kind_ == Kind::kRead) {
    conn_.send_now();
    return;
  }
  try {
    conn_.sync_now();
  } catch (const PgError&) {
    // A statement sent without waiting failed, so the server skipped the COMMIT: the destructor
    // rolls back.
    open_ = true;
    throw;
  }
}

}  // namespace leadline::store::postgres
