// What leadline accepts as a host name where an address is configured (--listen, --redis):
// letters, digits, dots and dashes, as DNS names are written. URL syntax allows more, which a
// resolver would only reject later and less clearly.
#pragma once

#include <string_view>

namespace leadline::domain {

bool is_host_name(std::string_view host);

}  // namespace leadline::domain
