// The character rule only; whether the name resolves is the resolver's business.
#include "domain/host_name.hpp"

namespace leadline::domain {

bool is_host_name(std::string_view host) {
  if (host.empty()) return false;
  for (const char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace leadline::domain
