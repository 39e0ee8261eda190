// Event types and the families GET /events filters by.
#include "domain/event_types.hpp"

#include <algorithm>

namespace leadline::domain {

bool is_event_type(std::string_view text) {
  return std::find(kEventTypes.begin(), kEventTypes.end(), text) != kEventTypes.end();
}

std::optional<std::string_view> event_family_prefix(std::string_view text) {
  if (std::find(kEventFamilies.begin(), kEventFamilies.end(), text) == kEventFamilies.end()) {
    return std::nullopt;
  }
  return text.substr(0, text.size() - 1);
}

}  // namespace leadline::domain
