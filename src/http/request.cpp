// Header lookup over the request's borrowed header list.
#include "http/request.hpp"

#include <strings.h>

namespace leadline::http {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}
}  // namespace

std::string_view Request::header(std::string_view name) const {
  for (const auto& h : headers) {
    if (iequals(h.name, name)) return h.value;
  }
  return {};
}

bool Request::has_header(std::string_view name) const {
  for (const auto& h : headers) {
    if (iequals(h.name, name)) return true;
  }
  return false;
}

}  // namespace leadline::http
