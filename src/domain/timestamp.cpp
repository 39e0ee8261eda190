// Civil-date conversion after Howard Hinnant's days_from_civil, so no time zone database is used.
#include "domain/timestamp.hpp"

#include <chrono>
#include <cstdio>

namespace leadline::domain {

namespace {

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

Timestamp now() {
  using namespace std::chrono;
  return {duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()};
}

namespace {

// `value` in exactly `width` decimal digits, zero-padded; returns the end.
char* write_digits(char* out, unsigned value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return out + width;
}

}  // namespace

std::size_t write_iso8601(char* out, Timestamp t) {
  std::int64_t ms = t.unix_ms;
  std::int64_t days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
  std::int64_t rem = ms - days * 86400000;
  std::int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  // Written digit by digit into one buffer: this runs twice per record in every list page, and
  // snprintf's format parsing cost more than the rest of the record's JSON.
  if (y < 0 || y > 9999) {
    const int n =
        std::snprintf(out, kIso8601MaxSize, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                      static_cast<long long>(y), m, d, static_cast<long long>(rem / 3600000),
                      static_cast<long long>(rem / 60000 % 60),
                      static_cast<long long>(rem / 1000 % 60), static_cast<long long>(rem % 1000));
    return static_cast<std::size_t>(n);
  }
  char* p = write_digits(out, static_cast<unsigned>(y), 4);
  *p++ = '-';
  p = write_digits(p, m, 2);
  *p++ = '-';
  p = write_digits(p, d, 2);
  *p++ = 'T';
  p = write_digits(p, static_cast<unsigned>(rem / 3600000), 2);
  *p++ = ':';
  p = write_digits(p, static_cast<unsigned>(rem / 60000 % 60), 2);
  *p++ = ':';
  p = write_digits(p, static_cast<unsigned>(rem / 1000 % 60), 2);
  *p++ = '.';
  p = write_digits(p, static_cast<unsigned>(rem % 1000), 3);
  *p++ = 'Z';
  return static_cast<std::size_t>(p - out);
}

void append_iso8601(std::string& out, Timestamp t) {
  char buf[kIso8601MaxSize];
  out.append(buf, write_iso8601(buf, t));
}

std::string format_iso8601(Timestamp t) {
  std::string s;
  append_iso8601(s, t);
  return s;
}

std::optional<Timestamp> parse_iso8601(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month) ||
      s[7] != '-' || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !digits(s, 11, 2, hour) || s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':' ||
      !digits(s, 17, 2, second)) {
    return std::nullopt;
  }
  static constexpr unsigned kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || static_cast<unsigned>(day) > kDays[month - 1] ||
      hour > 23 || minute > 59 || second > 59) {
    return std::nullopt;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) return std::nullopt;
  std::size_t pos = 19;
  std::int64_t millis = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (n < 3) millis = millis * 10 + (s[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0 || n > 9) return std::nullopt;
    for (std::size_t k = n; k < 3; ++k) millis *= 10;
  }
  std::int64_t offset_min = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !digits(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset_min = (oh * 60 + om) * (s[pos] == '+' ? 1 : -1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const std::int64_t days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_min * 60;
  return Timestamp{secs * 1000 + millis};
}

std::optional<Timestamp> parse_record_timestamp(std::string_view text) {
  // The strict shape first; the general parser then checks the calendar.
  if (text.size() != 24 || text[10] != 'T' || text[19] != '.' || text[23] != 'Z') {
    return std::nullopt;
  }
  for (const std::size_t i : {20, 21, 22}) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  return parse_iso8601(text);
}

}  // namespace leadline::domain
