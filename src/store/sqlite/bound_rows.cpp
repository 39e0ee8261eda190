// The bound_rows virtual table: eponymous, read-only, one scan of the bound vector in order.
// Text is handed to SQLite without a copy (SQLITE_STATIC): the vector outlives the statement's
// run, and the insert copies each value into its record.
#include "store/sqlite/bound_rows.hpp"

#include <sqlite3.h>

#include <stdexcept>
#include <vector>

#include "store/sql/params.hpp"

namespace leadline::store::sqlite {

namespace {

using Rows = std::vector<sql::Params>;

// Wider than any record table leadline inserts into in bulk (a lead with its rowid: 18).
constexpr int kColumns = 32;
// The hidden column that takes the pointer: bound_rows(?) is bound_rows WHERE source = ?.
constexpr int kSourceColumn = kColumns;

struct Cursor {
  sqlite3_vtab_cursor base{};
  const Rows* rows = nullptr;
  std::size_t at = 0;
};

std::string declaration() {
  std::string sql = "CREATE TABLE x(";
  for (int i = 0; i < kColumns; ++i) sql.append("c").append(std::to_string(i)).append(", ");
  return sql.append("source HIDDEN)");
}

int connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(db, declaration().c_str());
  if (rc != SQLITE_OK) return rc;
  auto* table = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (table == nullptr) return SQLITE_NOMEM;
  *table = {};
  *out = table;
  return SQLITE_OK;
}

int disconnect(sqlite3_vtab* table) {
  sqlite3_free(table);
  return SQLITE_OK;
}

// The only plan: the source given. Without it there is nothing to read.
int best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn == kSourceColumn && c.op == SQLITE_INDEX_CONSTRAINT_EQ && c.usable) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 1;
      return SQLITE_OK;
    }
  }
  return SQLITE_CONSTRAINT;
}

int open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) Cursor;
  if (cursor == nullptr) return SQLITE_NOMEM;
  *out = &cursor->base;
  return SQLITE_OK;
}

Cursor& cursor_of(sqlite3_vtab_cursor* base) {
  return *reinterpret_cast<Cursor*>(base);
}

int close(sqlite3_vtab_cursor* base) {
  delete &cursor_of(base);
  return SQLITE_OK;
}

int filter(sqlite3_vtab_cursor* base, int, const char*, int argc, sqlite3_value** argv) {
  Cursor& cursor = cursor_of(base);
  cursor.rows = argc == 1
                    ? static_cast<const Rows*>(sqlite3_value_pointer(argv[0], kBoundRowsPointer))
                    : nullptr;
  cursor.at = 0;
  return SQLITE_OK;
}

int next(sqlite3_vtab_cursor* base) {
  ++cursor_of(base).at;
  return SQLITE_OK;
}

int eof(sqlite3_vtab_cursor* base) {
  const Cursor& cursor = cursor_of(base);
  return cursor.rows == nullptr || cursor.at >= cursor.rows->size();
}

int column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  const Cursor& cursor = cursor_of(base);
  const auto& values = (*cursor.rows)[cursor.at].values();
  if (col >= static_cast<int>(values.size())) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const sql::Value& v = values[static_cast<std::size_t>(col)];
  if (const auto* t = std::get_if<std::string>(&v)) {
    sqlite3_result_text64(ctx, t->data(), t->size(), SQLITE_STATIC, SQLITE_UTF8);
  } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
    sqlite3_result_int64(ctx, *i);
  } else if (const auto* d = std::get_if<double>(&v)) {
    sqlite3_result_double(ctx, *d);
  } else {
    sqlite3_result_null(ctx);
  }
  return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(cursor_of(base).at);
  return SQLITE_OK;
}

// Eponymous only (no xCreate): bound_rows exists on every connection, never in a schema.
sqlite3_module bound_rows_module() {
  sqlite3_module m{};
  m.xConnect = connect;
  m.xBestIndex = best_index;
  m.xDisconnect = disconnect;
  m.xDestroy = disconnect;
  m.xOpen = open;
  m.xClose = close;
  m.xFilter = filter;
  m.xNext = next;
  m.xEof = eof;
  m.xColumn = column;
  m.xRowid = rowid;
  return m;
}

}  // namespace

void register_bound_rows(sqlite3* db) {
  static const sqlite3_module module = bound_rows_module();
  const int rc = sqlite3_create_module_v2(db, "bound_rows", &module, nullptr, nullptr);
  if (rc != SQLITE_OK) throw std::runtime_error("registering bound_rows failed");
}

std::string select_bound_rows(std::size_t width) {
  if (width > kColumns) throw std::invalid_argument("a bulk insert takes at most 32 columns");
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < width; ++i) {
    sql.append(i == 0 ? "c" : ", c").append(std::to_string(i));
  }
  return sql.append(" FROM bound_rows(?)");
}

}  // namespace leadline::store::sqlite
