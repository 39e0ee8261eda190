// The text of JSON strings and numbers, written one way by every JSON producer in leadline (API
// bodies, stored string arrays, log lines, the operator command's --json output).
#pragma once

#include <string>
#include <string_view>

namespace leadline::json_text {

// Appends `s` as a JSON string literal, quotes included (RFC 8259: '"', '\\' and the control
// characters escaped, the short forms where JSON has them; other bytes, UTF-8 included, as is).
void append_string(std::string& out, std::string_view s);

// Appends `d` in the shortest form that reads back as the same double ("0.2", "1", "1e+21");
// -0 is written as 0, and NaN and infinities, which JSON cannot hold, as null.
void append_number(std::string& out, double d);

}  // namespace leadline::json_text
