// Implementation of the shared assertion helpers.

#include "support/checks.hpp"

#include <ctime>
#include <regex>
#include <stdexcept>

namespace leadline_test {

KeySet keys_of(const json::object& object) {
  KeySet keys;
  for (const auto& kv : object) keys.insert(std::string(kv.key()));
  return keys;
}

KeySet keys_of(const json::value& value) {
  return value.is_object() ? keys_of(value.as_object()) : KeySet{};
}

KeySet key_set(std::initializer_list<std::string> keys) {
  return KeySet(keys);
}

bool is_uuid(std::string_view text) {
  static const std::regex re("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
  return std::regex_match(text.begin(), text.end(), re);
}

bool is_uuid_v7(std::string_view text) {
  static const std::regex re(
      "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  return std::regex_match(text.begin(), text.end(), re);
}

std::int64_t uuid_v7_millis(std::string_view text) {
  std::string hex = std::string(text.substr(0, 8)) + std::string(text.substr(9, 4));
  return static_cast<std::int64_t>(std::stoull(hex, nullptr, 16));
}

bool is_timestamp(std::string_view text) {
  static const std::regex re("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$");
  return std::regex_match(text.begin(), text.end(), re);
}

std::int64_t timestamp_millis(std::string_view text) {
  if (!is_timestamp(text)) throw std::runtime_error("not a timestamp: " + std::string(text));
  std::tm tm{};
  std::string s(text);
  tm.tm_year = std::stoi(s.substr(0, 4)) - 1900;
  tm.tm_mon = std::stoi(s.substr(5, 2)) - 1;
  tm.tm_mday = std::stoi(s.substr(8, 2));
  tm.tm_hour = std::stoi(s.substr(11, 2));
  tm.tm_min = std::stoi(s.substr(14, 2));
  tm.tm_sec = std::stoi(s.substr(17, 2));
  std::int64_t seconds = ::timegm(&tm);
  return seconds * 1000 + std::stoi(s.substr(20, 3));
}

std::string format_timestamp(std::int64_t millis) {
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (tm.tm_year + 1900) % 10000,
                (tm.tm_mon + 1) % 100, tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
                tm.tm_sec % 100, static_cast<int>(millis % 1000));
  return buf;
}

std::int64_t now_millis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string timestamp_from_now(std::chrono::milliseconds offset) {
  return format_timestamp(now_millis() + offset.count());
}

::testing::AssertionResult is_single_envelope(const HttpResponse& response) {
  if (!response.json || !response.json->is_object()) {
    return ::testing::AssertionFailure() << "body is not a JSON object\n" << response.describe();
  }
  const auto& o = response.json->as_object();
  if (keys_of(o) != key_set({"success", "data"})) {
    return ::testing::AssertionFailure() << "envelope members are not exactly {success, data}\n"
                                         << response.describe();
  }
  if (!o.at("success").is_bool() || !o.at("success").as_bool()) {
    return ::testing::AssertionFailure() << "success is not true\n" << response.describe();
  }
  if (!o.at("data").is_object()) {
    return ::testing::AssertionFailure() << "data is not an object\n" << response.describe();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult is_list_envelope(const HttpResponse& response) {
  if (!response.json || !response.json->is_object()) {
    return ::testing::AssertionFailure() << "body is not a JSON object\n" << response.describe();
  }
  const auto& o = response.json->as_object();
  if (keys_of(o) != key_set({"success", "data", "pagination"})) {
    return ::testing::AssertionFailure()
           << "envelope members are not exactly {success, data, pagination}\n"
           << response.describe();
  }
  if (!o.at("success").is_bool() || !o.at("success").as_bool()) {
    return ::testing::AssertionFailure() << "success is not true\n" << response.describe();
  }
  if (!o.at("data").is_array()) {
    return ::testing::AssertionFailure() << "data is not an array\n" << response.describe();
  }
  const auto& p = o.at("pagination");
  if (keys_of(p) != key_set({"has_more", "next_cursor", "total_count", "limit"})) {
    return ::testing::AssertionFailure()
           << "pagination members are not exactly {has_more, next_cursor, total_count, limit}\n"
           << response.describe();
  }
  const auto& po = p.as_object();
  if (!po.at("has_more").is_bool() || !po.at("total_count").is_int64() ||
      !po.at("limit").is_int64()) {
    return ::testing::AssertionFailure() << "pagination member types are wrong\n"
                                         << response.describe();
  }
  bool has_more = po.at("has_more").as_bool();
  const auto& cursor = po.at("next_cursor");
  if (has_more && !(cursor.is_string() && !cursor.as_string().empty())) {
    return ::testing::AssertionFailure() << "has_more is true but next_cursor is not a string\n"
                                         << response.describe();
  }
  if (!has_more && !cursor.is_null()) {
    return ::testing::AssertionFailure() << "has_more is false but next_cursor is not null\n"
                                         << response.describe();
  }
  auto count = static_cast<std::int64_t>(o.at("data").as_array().size());
  if (count > po.at("limit").as_int64()) {
    return ::testing::AssertionFailure() << "more items than pagination.limit\n"
                                         << response.describe();
  }
  if (count > po.at("total_count").as_int64()) {
    return ::testing::AssertionFailure() << "more items than pagination.total_count\n"
                                         << response.describe();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult is_error(const HttpResponse& response, unsigned status,
                                    std::string_view mentions) {
  if (response.status != status) {
    return ::testing::AssertionFailure() << "expected status " << status << "\n"
                                         << response.describe();
  }
  if (!response.json || !response.json->is_object()) {
    return ::testing::AssertionFailure() << "body is not a JSON object\n" << response.describe();
  }
  const auto& o = response.json->as_object();
  if (keys_of(o) != key_set({"success", "error"})) {
    return ::testing::AssertionFailure() << "error members are not exactly {success, error}\n"
                                         << response.describe();
  }
  if (!o.at("success").is_bool() || o.at("success").as_bool()) {
    return ::testing::AssertionFailure() << "success is not false\n" << response.describe();
  }
  if (!o.at("error").is_string() || o.at("error").as_string().empty()) {
    return ::testing::AssertionFailure() << "error is not a non-empty string\n"
                                         << response.describe();
  }
  if (!mentions.empty()) {
    std::string_view text = o.at("error").as_string();
    if (text.find(mentions) == std::string_view::npos) {
      return ::testing::AssertionFailure() << "error does not mention '" << mentions << "'\n"
                                           << response.describe();
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult has_json_content_type(const HttpResponse& response) {
  std::string value = response.header("Content-Type");
  std::string normalized;
  for (char c : value) {
    if (c != ' ') normalized += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (normalized != "application/json;charset=utf-8") {
    return ::testing::AssertionFailure() << "Content-Type is '" << value << "'\n"
                                         << response.describe();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult has_rate_limit_headers(const HttpResponse& response, bool present) {
  for (const char* name : {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}) {
    if (response.has_header(name) != present) {
      return ::testing::AssertionFailure() << name << (present ? " missing" : " present") << "\n"
                                           << response.describe();
    }
  }
  return ::testing::AssertionSuccess();
}

const json::object& as_obj(const json::value& v) {
  if (!v.is_object()) throw std::runtime_error("not an object: " + json::serialize(v));
  return v.as_object();
}

const json::array& as_arr(const json::value& v) {
  if (!v.is_array()) throw std::runtime_error("not an array: " + json::serialize(v));
  return v.as_array();
}

std::string str(const json::value& v) {
  if (!v.is_string()) throw std::runtime_error("not a string: " + json::serialize(v));
  return std::string(v.as_string());
}

std::vector<std::string> ids_of(const json::array& items) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(str(as_obj(item).at("id")));
  return ids;
}

std::int64_t total_count(const HttpResponse& list_response) {
  const auto& p = as_obj(list_response.object().at("pagination"));
  return p.at("total_count").as_int64();
}

std::vector<std::string> strings_of(const json::value& array_of_strings) {
  std::vector<std::string> out;
  for (const auto& v : as_arr(array_of_strings)) out.push_back(str(v));
  return out;
}

std::string repeat(std::string_view piece, std::size_t n) {
  std::string out;
  out.reserve(piece.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += piece;
  return out;
}

}  // namespace leadline_test
