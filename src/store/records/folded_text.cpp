// Builds the folded helper column values with domain::case_fold.
#include "store/records/folded_text.hpp"

#include <initializer_list>

#include "domain/unicode_text.hpp"

namespace leadline::store {

namespace {

std::string join_folded(std::initializer_list<const std::optional<std::string>*> fields) {
  std::string out;
  bool first = true;
  for (const auto* field : fields) {
    if (!first) out.push_back('\n');
    first = false;
    if (*field) out += domain::case_fold(**field);
  }
  return out;
}

}  // namespace

std::optional<std::string> fold_optional(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  return domain::case_fold(*s);
}

std::string lead_search_text(const std::string& name, const std::optional<std::string>& email,
                             const std::optional<std::string>& company) {
  const std::optional<std::string> n = name;
  return join_folded({&n, &email, &company});
}

std::string contact_search_text(const std::string& first, const std::optional<std::string>& last,
                                const std::optional<std::string>& email,
                                const std::optional<std::string>& phone,
                                const std::optional<std::string>& company) {
  const std::optional<std::string> f = first;
  return join_folded({&f, &last, &email, &phone, &company});
}

std::string visitor_search_text(const std::string& first, const std::optional<std::string>& last,
                                const std::optional<std::string>& email,
                                const std::optional<std::string>& company) {
  const std::optional<std::string> f = first;
  return join_folded({&f, &last, &email, &company});
}

}  // namespace leadline::store
