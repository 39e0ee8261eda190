// Status line and header fields of a response; the server, not the handler, decides the framing
// fields.
#include "http/server/response_head.hpp"

#include <strings.h>

// Boost 1.81's boost/core/detail/string_view.hpp uses std::ostream without including it.
#include <ostream>

#include <array>
#include <boost/beast/http/status.hpp>
#include <charconv>

namespace leadline::http {

namespace {

using namespace std::literals;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// Content-Length, Connection and Transfer-Encoding follow from the body and keep-alive decision,
// Content-Type from Response::content_type; handler copies would be sent twice or contradict.
bool is_framing_field(std::string_view name) {
  return iequals(name, "content-length") || iequals(name, "transfer-encoding") ||
         iequals(name, "connection") || iequals(name, "content-type");
}

// CR, LF or NUL in a field would let a handler bug split the response into two.
bool is_safe_field(std::string_view name, std::string_view value) {
  return !name.empty() && name.find_first_of(":\r\n\0 \t"sv) == std::string_view::npos &&
         value.find_first_of("\r\n\0"sv) == std::string_view::npos;
}

void append_number(std::string& out, std::size_t number) {
  std::array<char, 24> digits{};
  auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
  out.append(digits.data(), result.ptr);
}

void append_two_digits(std::string& out, int number) {
  out.push_back(static_cast<char>('0' + number / 10));
  out.push_back(static_cast<char>('0' + number % 10));
}

// A status the handler got wrong is sent as 500 rather than as an unparsable status line.
unsigned valid_status(unsigned status) {
  return status >= 100 && status <= 999 ? status : 500;
}

}  // namespace

bool ResponseHead::sends_body(unsigned status, bool head_request) {
  status = valid_status(status);
  return !head_request && status >= 200 && status != 204 && status != 304;
}

std::string_view ResponseHead::serialize(const Response& response, const ResponseFraming& framing) {
  const unsigned status = valid_status(response.status);
  text_.clear();
  text_ += "HTTP/1.1 ";
  append_number(text_, status);
  text_ += ' ';
  const auto reason =
      boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(status));
  if (!reason.starts_with('<')) text_.append(reason.data(), reason.size());  // "<unknown-status>"
  text_ += "\r\n";

  bool has_date = false;
  for (const auto& [name, value] : response.headers) {
    if (is_framing_field(name) || !is_safe_field(name, value)) continue;
    has_date = has_date || iequals(name, "date");
    text_ += name;
    text_ += ": ";
    text_ += value;
    text_ += "\r\n";
  }
  if (!has_date) append_date();

  if (!response.content_type.empty() && is_safe_field("Content-Type", response.content_type)) {
    text_ += "Content-Type: ";
    text_ += response.content_type;
    text_ += "\r\n";
  }
  // 1xx and 204 must not carry Content-Length; for HEAD and 304 it describes the omitted body.
  if (status >= 200 && status != 204) {
    text_ += "Content-Length: ";
    append_number(text_, response.body.size());
    text_ += "\r\n";
  }
  if (!framing.keep_alive) {
    text_ += "Connection: close\r\n";
  } else if (framing.announce_keep_alive) {
    text_ += "Connection: keep-alive\r\n";
  }
  text_ += "\r\n";
  return text_;
}

void ResponseHead::append_date() {
  const std::time_t now = std::time(nullptr);
  if (now != date_second_) {
    static constexpr std::array<std::string_view, 7> kDays{"Sun", "Mon", "Tue", "Wed",
                                                           "Thu", "Fri", "Sat"};
    static constexpr std::array<std::string_view, 12> kMonths{
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    // IMF-fixdate, spelled out by hand because strftime's names follow the process locale.
    date_.clear();
    date_ += "Date: ";
    date_ += kDays[static_cast<std::size_t>(utc.tm_wday)];
    date_ += ", ";
    append_two_digits(date_, utc.tm_mday);
    date_ += ' ';
    date_ += kMonths[static_cast<std::size_t>(utc.tm_mon)];
    date_ += ' ';
    append_number(date_, static_cast<std::size_t>(utc.tm_year + 1900));
    date_ += ' ';
    append_two_digits(date_, utc.tm_hour);
    date_ += ':';
    append_two_digits(date_, utc.tm_min);
    date_ += ':';
    append_two_digits(date_, utc.tm_sec);
    date_ += " GMT\r\n";
    date_second_ = now;
  }
  text_ += date_;
}

}  // namespace leadline::http
