// Field rules shared by the API and the import path. Each check returns an error sentence that
// names the field, or nothing when the value is acceptable.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/records.hpp"

namespace leadline::domain {

// Limits in Unicode code points.
namespace limits {
inline constexpr std::size_t kLeadVisitorName = 200;
inline constexpr std::size_t kLeadVisitorCompany = 200;
inline constexpr std::size_t kLeadVisitorPhone = 50;
inline constexpr std::size_t kLeadNeedSummary = 2000;
inline constexpr std::size_t kLeadSource = 100;
inline constexpr std::size_t kContactFirstName = 100;
inline constexpr std::size_t kContactLastName = 100;
inline constexpr std::size_t kContactPhone = 50;
inline constexpr std::size_t kContactCompanyName = 200;
inline constexpr std::size_t kContactProfileNotes = 5000;
inline constexpr std::size_t kEmail = 254;
inline constexpr std::size_t kTagsPerRecord = 50;
inline constexpr std::size_t kTagLength = 100;
inline constexpr std::size_t kDashboardUserName = 200;
}  // namespace limits

using RuleError = std::string;

// `value` must be valid UTF-8 (the JSON parser guarantees it).
std::optional<RuleError> check_max_length(std::string_view field, std::string_view value,
                                          std::size_t max_code_points);

// Non-empty after trimming Unicode white space, and at most `max_code_points`.
std::optional<RuleError> check_required_text(std::string_view field, std::string_view value,
                                             std::size_t max_code_points);

// Trims, then applies the e-mail rule of docs/api.md ("Validation rules"); returns the trimmed
// address.
struct EmailCheck {
  std::optional<std::string> address;
  std::optional<RuleError> error;
};
EmailCheck normalize_email(std::string_view field, std::string_view value);

// Trims each tag, drops duplicates (first occurrence kept), then enforces the limits.
struct TagsCheck {
  Tags tags;
  std::optional<RuleError> error;
};
TagsCheck normalize_tags(std::string_view field, const std::vector<std::string>& raw);

}  // namespace leadline::domain
