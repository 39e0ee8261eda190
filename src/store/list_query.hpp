// What a list request asks the store for: filters, one total order, and a page position.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "domain/pipeline_stage.hpp"
#include "domain/timestamp.hpp"
#include "store/sql/value.hpp"

namespace leadline::store {

enum class SortDirection { kAsc, kDesc };

enum class LeadSortField { kCreatedAt, kUpdatedAt, kLeadScore, kVisitorName };
enum class ContactSortField { kCreatedAt, kLastActivity, kName, kEmail };
enum class ConversationSortField { kCreatedAt, kUpdatedAt };

template <class Field>
struct SortSpec {
  Field field;
  SortDirection direction = SortDirection::kDesc;
};

// One sort key's value at a row: null, an integer (timestamps as Unix ms), a real, or text
// (string sorts compare case-folded text by code point, i.e. bytewise UTF-8).
using SortValue = sql::Value;

// A keyset position: the sort key values of a row and its id. Pages continue strictly after it.
// Most sorts have one key; the contacts `name` sort has two (folded first, folded last name).
struct KeysetPosition {
  std::vector<SortValue> values;
  std::string id;
};

struct PageRequest {
  int limit = 50;                       // 1..100, already clamped
  std::optional<KeysetPosition> after;  // cursor paging
  std::int64_t offset = 0;              // page paging: (page - 1) * limit; 0 with a cursor
};

// An incremental sync window on a list's change time (updated_at; a contact's last_activity):
// since inclusive, before exclusive, each optional.
struct UpdatedWindow {
  std::optional<domain::Timestamp> since;
  std::optional<domain::Timestamp> before;

  bool empty() const { return !since && !before; }
};

struct LeadListQuery {
  std::optional<domain::PipelineStage> stage;
  std::string search_folded;  // empty = no search; already case-folded
  UpdatedWindow updated;
  SortSpec<LeadSortField> sort;
  PageRequest page;
};

struct ContactListQuery {
  std::string search_folded;
  std::optional<std::string> tag;
  UpdatedWindow updated;  // on last_activity
  SortSpec<ContactSortField> sort;
  PageRequest page;
};

struct ConversationListQuery {
  std::optional<domain::ConversationStatus> status;  // empty = all
  std::string search_folded;
  std::optional<std::string> tag;
  UpdatedWindow updated;
  SortSpec<ConversationSortField> sort;
  PageRequest page;
};

// What a page says besides its items.
struct PageFacts {
  bool has_more = false;
  std::int64_t total_count = 0;
  // Position of the last item returned, set exactly when has_more is true.
  std::optional<KeysetPosition> next_position;
};

template <class T>
struct Page : PageFacts {
  std::vector<T> items;
};

// Sees each item of a page as the store reads it, in one record that the store reuses from row
// to row (so a page costs no allocation per item): valid only during the call.
template <class T>
using ItemVisitor = std::function<void(const T&)>;

// The page a visiting list(..., visit) reads, with a copy of each item: `list(visit)` runs it.
template <class T, class List>
Page<T> collect_page(List&& list) {
  Page<T> page;
  static_cast<PageFacts&>(page) =
      list(ItemVisitor<T>([&page](const T& item) { page.items.push_back(item); }));
  return page;
}

}  // namespace leadline::store
