// The validation rules of docs/api.md ("Validation rules") in one place.
#include "domain/field_rules.hpp"

#include <algorithm>
#include <unordered_set>

#include "domain/letter_table.hpp"
#include "domain/unicode_text.hpp"

namespace leadline::domain {

namespace {

std::string sentence(std::string_view field, std::string_view rest) {
  std::string s(field);
  s.append(" ").append(rest);
  return s;
}

// Letters of any script (general categories L and M), ASCII digits and '-'.
bool is_label_char(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
           cp == '-';
  }
  const auto ranges = kLetterRanges;
  auto it = std::upper_bound(ranges.begin(), ranges.end(), static_cast<std::uint32_t>(cp),
                             [](std::uint32_t v, const LetterRange& r) { return v < r.first; });
  return it != ranges.begin() && static_cast<std::uint32_t>(cp) <= (it - 1)->last;
}

bool is_valid_label(std::string_view label) {
  if (label.empty()) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  std::size_t i = 0;
  std::size_t count = 0;
  while (i < label.size()) {
    if (!is_label_char(decode_code_point(label, i))) return false;
    ++count;
  }
  return count <= 63;
}

bool is_control(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp < 0xA0);
}

}  // namespace

std::optional<RuleError> check_max_length(std::string_view field, std::string_view value,
                                          std::size_t max_code_points) {
  if (code_point_count(value) > max_code_points) {
    return sentence(field, "must be at most " + std::to_string(max_code_points) + " characters");
  }
  return std::nullopt;
}

std::optional<RuleError> check_required_text(std::string_view field, std::string_view value,
                                             std::size_t max_code_points) {
  if (trim_unicode_space(value).empty()) return sentence(field, "must not be empty");
  return check_max_length(field, value, max_code_points);
}

EmailCheck normalize_email(std::string_view field, std::string_view value) {
  const std::string_view address = trim_unicode_space(value);
  const auto invalid = [&] {
    return EmailCheck{std::nullopt, sentence(field, "must be a valid email address")};
  };
  if (address.empty() || code_point_count(address) > limits::kEmail) return invalid();
  const auto at = address.find('@');
  if (at == std::string_view::npos || address.find('@', at + 1) != std::string_view::npos) {
    return invalid();
  }
  const std::string_view local = address.substr(0, at);
  const std::string_view domain = address.substr(at + 1);
  const std::size_t local_len = code_point_count(local);
  if (local_len < 1 || local_len > 64) return invalid();
  for (std::size_t i = 0; i < local.size();) {
    const char32_t cp = decode_code_point(local, i);
    if (is_unicode_space(cp) || is_control(cp)) return invalid();
  }
  std::size_t labels = 0;
  std::size_t start = 0;
  while (true) {
    const auto dot = domain.find('.', start);
    const std::string_view label =
        domain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!is_valid_label(label)) return invalid();
    ++labels;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (labels < 2) return invalid();
  return EmailCheck{std::string(address), std::nullopt};
}

TagsCheck normalize_tags(std::string_view field, const std::vector<std::string>& raw) {
  TagsCheck out;
  std::unordered_set<std::string_view> seen;
  for (const auto& tag : raw) {
    const std::string_view trimmed = trim_unicode_space(tag);
    if (trimmed.empty()) {
      out.error = sentence(field, "must not contain empty tags");
      return out;
    }
    if (code_point_count(trimmed) > limits::kTagLength) {
      out.error = sentence(field, "must contain tags of at most " +
                                      std::to_string(limits::kTagLength) + " characters");
      return out;
    }
    if (seen.insert(trimmed).second) out.tags.emplace_back(trimmed);
  }
  if (out.tags.size() > limits::kTagsPerRecord) {
    out.error =
        sentence(field, "must contain at most " + std::to_string(limits::kTagsPerRecord) + " tags");
  }
  return out;
}

}  // namespace leadline::domain
