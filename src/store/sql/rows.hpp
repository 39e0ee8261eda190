// The rows of one statement as the shared query code reads them, whichever engine ran it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/sql/value.hpp"

namespace leadline::store::sql {

// An engine's cursor over a statement's result. The connection that ran the statement owns it
// and gets it back through release() when the Rows reading it goes away.
class RowCursor {
 public:
  // Moves to the next row; false after the last.
  virtual bool next() = 0;
  virtual int columns() const = 0;
  virtual bool is_null(int col) const = 0;
  virtual std::int64_t int64(int col) const = 0;
  virtual double real(int col) const = 0;
  // Valid until next() or release().
  virtual std::string_view text(int col) const = 0;
  // Typed by what the engine stored: integers, reals, text, or null.
  virtual Value value(int col) const = 0;
  virtual void release() = 0;

 protected:
  ~RowCursor() = default;
};

// Move-only handle on a cursor; reads stay valid while it lives.
class Rows {
 public:
  explicit Rows(RowCursor& cursor) : cursor_(&cursor) {}
  ~Rows() {
    if (cursor_) cursor_->release();
  }
  Rows(Rows&& other) noexcept : cursor_(other.cursor_) { other.cursor_ = nullptr; }
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  Rows& operator=(Rows&&) = delete;

  bool next() { return cursor_->next(); }
  int columns() const { return cursor_->columns(); }
  bool is_null(int col) const { return cursor_->is_null(col); }
  std::int64_t int64(int col) const { return cursor_->int64(col); }
  double real(int col) const { return cursor_->real(col); }
  std::string text(int col) const { return std::string(cursor_->text(col)); }
  std::string_view text_view(int col) const { return cursor_->text(col); }
  Value value(int col) const { return cursor_->value(col); }

  std::optional<std::string> opt_text(int col) const {
    if (is_null(col)) return std::nullopt;
    return text(col);
  }
  // Into a string that keeps its capacity, for records refilled from row to row.
  void text_into(int col, std::string& out) const { out.assign(text_view(col)); }
  void opt_text_into(int col, std::optional<std::string>& out) const {
    if (is_null(col)) {
      out.reset();
    } else if (out) {
      out->assign(text_view(col));
    } else {
      out.emplace(text_view(col));
    }
  }
  std::optional<double> opt_real(int col) const {
    if (is_null(col)) return std::nullopt;
    return real(col);
  }
  std::optional<std::int64_t> opt_int64(int col) const {
    if (is_null(col)) return std::nullopt;
    return int64(col);
  }

 private:
  RowCursor* cursor_;
};

}  // namespace leadline::store::sql
