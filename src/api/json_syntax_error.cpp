// Boost.JSON reports where it stopped and a coarse error code ("syntax error"); what the grammar
// wanted there is recovered by re-reading the valid prefix before that byte, which is cheap next
// to the parse and keeps Boost.JSON's internal state out of it.
#include "api/json_syntax_error.hpp"

#include <string>
#include <vector>

namespace leadline::api {

namespace {

enum class Want { kValue, kValueOrClose, kKeyOrClose, kKey, kColon, kCommaOrClose, kNothing };
enum class Token { kNone, kString, kNumber, kLiteral };

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The grammar's position after a prefix: the containers open, what comes next, and the token
// the prefix ends inside of, if any.
struct Position {
  std::vector<char> open;  // '{' or '['
  Want want = Want::kValue;
  Token token = Token::kNone;
  bool in_key = false;
  bool after_backslash = false;
  int hex_digits_left = 0;
  unsigned escaped_unit = 0;  // the \u escape being read
  // The last escape was a high surrogate (\uD800-\uDBFF): a low one (\uDC00-\uDFFF) must follow.
  bool after_high_surrogate = false;
  char last = 0;        // last byte of the number being read
  std::string literal;  // the true, false or null being read

  void value_done() { want = open.empty() ? Want::kNothing : Want::kCommaOrClose; }

  void string_byte(char c) {
    if (after_backslash) {
      after_backslash = false;
      if (c == 'u') {
        hex_digits_left = 4;
        escaped_unit = 0;
      } else {
        after_high_surrogate = false;
      }
      return;
    }
    if (hex_digits_left > 0) {
      const auto byte = static_cast<unsigned char>(c);
      const unsigned digit = is_digit(c) ? byte - '0' : (byte | 0x20u) - 'a' + 10;
      escaped_unit = escaped_unit * 16 + digit;
      if (--hex_digits_left == 0) {
        after_high_surrogate = escaped_unit >= 0xD800 && escaped_unit < 0xDC00;
      }
      return;
    }
    if (c == '\\') {
      after_backslash = true;
      return;
    }
    after_high_surrogate = false;
    if (c == '"') {
      token = Token::kNone;
      if (in_key) {
        want = Want::kColon;
      } else {
        value_done();
      }
    }
  }

  void structural_byte(char c) {
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
      case '\n':
        return;
      case '{':
        open.push_back('{');
        want = Want::kKeyOrClose;
        return;
      case '[':
        open.push_back('[');
        want = Want::kValueOrClose;
        return;
      case '}':
      case ']':
        if (!open.empty()) open.pop_back();
        value_done();
        return;
      case ',':
        want = !open.empty() && open.back() == '{' ? Want::kKey : Want::kValue;
        return;
      case ':':
        want = Want::kValue;
        return;
      case '"':
        token = Token::kString;
        in_key = want == Want::kKey || want == Want::kKeyOrClose;
        return;
      default:
        break;
    }
    last = c;
    if (c == '-' || is_digit(c)) {
      token = Token::kNumber;
    } else {
      token = Token::kLiteral;
      literal = c;
    }
  }

  void byte(char c) {
    if (token == Token::kString) return string_byte(c);
    if (token == Token::kNumber) {
      if (is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        last = c;
        return;
      }
      token = Token::kNone;
      value_done();
    } else if (token == Token::kLiteral) {
      if (c >= 'a' && c <= 'z') {
        literal += c;
        return;
      }
      token = Token::kNone;
      value_done();
    }
    structural_byte(c);
  }
};

std::string inside_string(const Position& at, std::string_view text, std::size_t offset) {
  if (at.hex_digits_left > 0) return "expected a hexadecimal digit in the \\u escape";
  if (at.after_high_surrogate) {
    return "expected a \\u escape of a low surrogate (\\uDC00 to \\uDFFF) after the high one";
  }
  if (at.after_backslash) return "expected an escape after '\\' (one of \" \\ / b f n r t u)";
  if (offset < text.size() && static_cast<unsigned char>(text[offset]) < 0x20) {
    return "expected the control character to be escaped in a string (as \\n, \\t or \\u0000)";
  }
  return at.in_key ? "expected the closing '\"' of the key"
                   : "expected the closing '\"' of the string";
}

std::string inside_number(const Position& at) {
  if (at.last == '-') return "expected a digit after '-'";
  if (at.last == '.') return "expected a digit after '.'";
  return "expected a digit in the exponent";
}

std::string inside_literal(const Position& at) {
  for (const std::string_view word : {"true", "false", "null"}) {
    if (word.starts_with(at.literal)) return "expected '" + std::string(word) + "'";
  }
  return "expected a JSON value";
}

}  // namespace

std::string expected_at(std::string_view text, std::size_t offset) {
  Position at;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) at.byte(text[i]);
  // A number or literal that ends where the parser stopped may be complete ("1", "true"): then
  // what follows it was wrong.
  const bool complete_literal =
      at.literal == "true" || at.literal == "false" || at.literal == "null";
  if ((at.token == Token::kNumber && is_digit(at.last)) ||
      (at.token == Token::kLiteral && complete_literal)) {
    at.token = Token::kNone;
    at.value_done();
  }
  const char next = offset < text.size() ? text[offset] : '\0';
  switch (at.token) {
    case Token::kString:
      return inside_string(at, text, offset);
    case Token::kNumber:
      return inside_number(at);
    case Token::kLiteral:
      return inside_literal(at);
    case Token::kNone:
      break;
  }
  switch (at.want) {
    case Want::kValue:
      if (at.open.empty()) return "expected '{'";
      // A trailing comma ("[1,]") is the most common way to get here.
      return next == ']' ? "expected a JSON value (no ',' before ']')" : "expected a JSON value";
    case Want::kValueOrClose:
      return "expected a JSON value or ']'";
    case Want::kKeyOrClose:
      return "expected a key in double quotes or '}'";
    case Want::kKey:
      return next == '}' ? "expected a key in double quotes (no ',' before '}')"
                         : "expected a key in double quotes";
    case Want::kColon:
      return "expected ':'";
    case Want::kCommaOrClose:
      return at.open.back() == '{' ? "expected ',' or '}'" : "expected ',' or ']'";
    case Want::kNothing:
      break;
  }
  return "expected nothing after the JSON value";
}

}  // namespace leadline::api
