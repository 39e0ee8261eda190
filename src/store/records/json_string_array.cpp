// A deliberately small JSON reader: the store only ever holds arrays of strings; the strings are
// written by json_text like every other JSON of leadline.
#include "store/records/json_string_array.hpp"

#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "json_text/json_text.hpp"

namespace leadline::store {

namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  // Refills `out`, whose strings keep their capacity.
  void array(std::vector<std::string>& out) {
    std::size_t n = 0;
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++i_;
    } else {
      while (true) {
        if (n == out.size()) out.emplace_back();
        string(out[n++]);
        skip_space();
        const char c = next();
        if (c == ']') break;
        if (c != ',') bad();
      }
    }
    out.resize(n);
    skip_space();
    if (i_ != s_.size()) bad();
  }

 private:
  void string(std::string& out) {
    expect('"');
    out.clear();
    while (true) {
      // Text up to the next quote or escape is copied in one piece.
      std::size_t stop = i_;
      while (stop < s_.size() && s_[stop] != '"' && s_[stop] != '\\') ++stop;
      out.append(s_.data() + i_, stop - i_);
      i_ = stop;
      const char c = next();
      if (c == '"') return;
      const char e = next();
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          domain::append_utf8(out, code_point());
          break;
        default:
          bad();
      }
    }
  }

  // After "\u": one escape, or a surrogate pair written as two.
  char32_t code_point() {
    char32_t cp = hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (next() != '\\' || next() != 'u') bad();
      const char32_t low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) bad();
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      bad();
    }
    return cp;
  }

  char32_t hex4() {
    char32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = next();
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<char32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<char32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<char32_t>(c - 'A' + 10);
      } else {
        bad();
      }
    }
    return v;
  }

  void skip_space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  void expect(char c) {
    skip_space();
    if (next() != c) bad();
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  char next() {
    if (i_ >= s_.size()) bad();
    return s_[i_++];
  }
  [[noreturn]] void bad() const {
    throw std::runtime_error("stored JSON is not an array of strings: " +
                             std::string(s_.substr(0, 80)));
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::string encode_string_array(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    json_text::append_string(out, values[i]);
  }
  out.push_back(']');
  return out;
}

std::vector<std::string> decode_string_array(std::string_view json) {
  std::vector<std::string> out;
  Reader(json).array(out);
  return out;
}

void decode_string_array_into(std::string_view json, std::vector<std::string>& out) {
  Reader(json).array(out);
}

}  // namespace leadline::store
