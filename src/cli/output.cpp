// Renders command reports as JSON or as aligned text and tables for a terminal.
#include "cli/output.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdio>

#include "domain/unicode_text.hpp"
#include "json_text/json_text.hpp"

namespace leadline::cli {

namespace {

namespace json = boost::json;

// Column widths count code points so that names like "Zoë Müller" line up.
std::size_t display_width(const std::string& s) {
  return domain::is_valid_utf8(s) ? domain::code_point_count(s) : s.size();
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string scalar_text(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "-";
    case json::kind::string:
      return std::string(v.get_string());
    case json::kind::array: {
      const auto& array = v.get_array();
      if (array.empty()) return "-";
      std::string joined;
      for (const auto& element : array) {
        if (!joined.empty()) joined += ", ";
        joined += scalar_text(element);
      }
      return joined;
    }
    case json::kind::double_: {
      // JSON keeps the exact double ("5E-1"); a person reads 0.5.
      char text[32];
      std::snprintf(text, sizeof text, "%.6g", v.get_double());
      return text;
    }
    default:
      return json::serialize(v);
  }
}

bool is_table(const json::value& v) {
  if (!v.is_array() || v.get_array().empty()) return false;
  const auto& array = v.get_array();
  return std::all_of(array.begin(), array.end(),
                     [](const json::value& e) { return e.is_object(); });
}

void render_table(const json::array& rows, const std::string& indent, std::string& out) {
  std::vector<std::string> columns;
  for (const auto& row : rows) {
    for (const auto& field : row.get_object()) {
      const std::string key(field.key());
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    }
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const auto& column : columns) widths.push_back(display_width(column));
  for (const auto& row : rows) {
    auto& line = cells.emplace_back();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto* v = row.get_object().if_contains(columns[c]);
      line.push_back(v == nullptr ? "-" : scalar_text(*v));
      widths[c] = std::max(widths[c], display_width(line.back()));
    }
  }
  const auto append_line = [&](const std::vector<std::string>& line) {
    std::string text = indent;
    for (std::size_t c = 0; c < line.size(); ++c) {
      text += c + 1 == line.size() ? line[c] : pad(line[c], widths[c] + 2);
    }
    out += text + "\n";
  };
  append_line(columns);
  for (const auto& line : cells) append_line(line);
}

void render_object(const json::object& object, const std::string& indent, std::string& out) {
  std::size_t width = 0;
  for (const auto& field : object) width = std::max(width, display_width(field.key()));
  for (const auto& field : object) {
    const std::string key(field.key());
    if (field.value().is_object()) {
      out += indent + key + ":\n";
      if (field.value().get_object().empty()) out += indent + "  (none)\n";
      render_object(field.value().get_object(), indent + "  ", out);
    } else if (is_table(field.value())) {
      out += indent + key + ":\n";
      render_table(field.value().get_array(), indent + "  ", out);
    } else {
      out += indent + pad(key, width + 2) + scalar_text(field.value()) + "\n";
    }
  }
}

void append_json(std::string& out, const json::value& v) {
  switch (v.kind()) {
    case json::kind::object: {
      out += '{';
      const char* separator = "";
      for (const auto& field : v.get_object()) {
        out += separator;
        separator = ",";
        json_text::append_string(out, field.key());
        out += ':';
        append_json(out, field.value());
      }
      out += '}';
      return;
    }
    case json::kind::array: {
      out += '[';
      const char* separator = "";
      for (const auto& element : v.get_array()) {
        out += separator;
        separator = ",";
        append_json(out, element);
      }
      out += ']';
      return;
    }
    case json::kind::string:
      json_text::append_string(out, v.get_string());
      return;
    case json::kind::double_:
      json_text::append_number(out, v.get_double());
      return;
    default:  // null, bool and integers, which Boost.JSON writes plainly
      out += json::serialize(v);
  }
}

}  // namespace

std::string render_json(const json::value& value) {
  std::string out;
  append_json(out, value);
  return out;
}

std::string render_human(const json::value& value) {
  std::string out;
  if (value.is_object()) {
    render_object(value.get_object(), "", out);
  } else if (value.is_array() && value.get_array().empty()) {
    out = "(none)\n";
  } else if (is_table(value)) {
    render_table(value.get_array(), "", out);
  } else {
    out = scalar_text(value) + "\n";
  }
  return out;
}

void Output::emit(const Report& report) {
  if (json_) {
    stream_ << render_json(report.data) << '\n';
  } else {
    if (!report.headline.empty()) stream_ << report.headline << '\n';
    if (report.human_body) stream_ << render_human(report.data);
    for (const auto& note : report.notes) stream_ << note << '\n';
  }
  stream_.flush();
}

}  // namespace leadline::cli
