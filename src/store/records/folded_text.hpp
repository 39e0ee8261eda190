// The case-folded helper columns: what string sorts compare and what search looks in.
#pragma once

#include <optional>
#include <string>

namespace leadline::store {

std::optional<std::string> fold_optional(const std::optional<std::string>& s);

// Folded fields joined by "\n", absent fields as empty text, so a needle matches within one
// field rather than across two.
std::string lead_search_text(const std::string& name, const std::optional<std::string>& email,
                             const std::optional<std::string>& company);

// First, last, e-mail, phone, company: what contact search matches.
std::string contact_search_text(const std::string& first, const std::optional<std::string>& last,
                                const std::optional<std::string>& email,
                                const std::optional<std::string>& phone,
                                const std::optional<std::string>& company);

// First, last, e-mail, company: what conversation search matches through the linked contact.
std::string visitor_search_text(const std::string& first, const std::optional<std::string>& last,
                                const std::optional<std::string>& email,
                                const std::optional<std::string>& company);

}  // namespace leadline::store
