// The entries keep what a page needs (rowid, id, sort key values) in flat arrays, in one
// least-recently-used map per thread (thread_local_lru.hpp).
#include "store/search_result_cache.hpp"

#include <algorithm>
#include <chrono>
#include <utility>
#include <variant>

namespace leadline::store {

namespace {

// -1, 0, 1 as SQLite compares two non-null values of one column; nullopt when their kinds
// differ (text against a number), which no column of a STRICT table holds.
std::optional<int> compare_values(const SortValue& a, const SortValue& b) {
  const auto* at = std::get_if<std::string>(&a);
  const auto* bt = std::get_if<std::string>(&b);
  if (at != nullptr || bt != nullptr) {
    if (at == nullptr || bt == nullptr) return std::nullopt;
    // Bytewise, as SQLite's BINARY collation.
    const int c = at->compare(*bt);
    return (c > 0) - (c < 0);
  }
  const auto* ai = std::get_if<std::int64_t>(&a);
  const auto* bi = std::get_if<std::int64_t>(&b);
  if (ai != nullptr && bi != nullptr) return (*ai > *bi) - (*ai < *bi);
  const auto number = [](const SortValue& v) -> long double {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<long double>(*i);
    return std::get<double>(v);
  };
  const long double x = number(a);
  const long double y = number(b);
  return (x > y) - (x < y);
}

}  // namespace

void SearchResult::add(std::int64_t rowid, std::string_view id,
                       const std::vector<SortValue>& keys) {
  rowids_.push_back(rowid);
  add(id, keys);
}

void SearchResult::add(std::string_view id, const std::vector<SortValue>& keys) {
  ids_ += id;
  id_ends_.push_back(static_cast<std::uint32_t>(ids_.size()));
  keys_.insert(keys_.end(), keys.begin(), keys.end());
}

std::string_view SearchResult::id(std::size_t i) const {
  const std::size_t begin = i == 0 ? 0 : id_ends_[i - 1];
  return std::string_view(ids_).substr(begin, id_ends_[i] - begin);
}

KeysetPosition SearchResult::position(std::size_t i) const {
  KeysetPosition pos;
  pos.id = id(i);
  pos.values.assign(keys_.begin() + static_cast<std::ptrdiff_t>(i * key_count_),
                    keys_.begin() + static_cast<std::ptrdiff_t>((i + 1) * key_count_));
  return pos;
}

std::optional<std::size_t> SearchResult::first_after(const KeysetPosition& after,
                                                     SortDirection direction) const {
  if (after.values.size() != key_count_) return std::nullopt;
  const int sign = direction == SortDirection::kAsc ? 1 : -1;
  bool comparable = true;
  // Where match i lies against the position in the list's order (NULLs last both ways, ties
  // broken by id in the sort's direction): what keyset_clause.cpp's condition tells SQLite.
  const auto order = [&](std::size_t i) {
    for (std::size_t k = 0; k < key_count_; ++k) {
      const SortValue& a = keys_[i * key_count_ + k];
      const SortValue& b = after.values[k];
      const bool a_null = std::holds_alternative<std::monostate>(a);
      const bool b_null = std::holds_alternative<std::monostate>(b);
      if (a_null || b_null) {
        if (a_null && b_null) continue;
        return a_null ? 1 : -1;
      }
      const std::optional<int> c = compare_values(a, b);
      if (!c) {
        comparable = false;
        return 0;
      }
      if (*c != 0) return *c * sign;
    }
    const int c = id(i).compare(after.id);
    return ((c > 0) - (c < 0)) * sign;
  };
  std::size_t lo = 0;
  std::size_t hi = size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (order(mid) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (!comparable) return std::nullopt;
  return lo;
}

std::size_t SearchResult::bytes() const {
  std::size_t text = 0;
  for (const SortValue& v : keys_) {
    if (const auto* s = std::get_if<std::string>(&v); s != nullptr && s->capacity() > 15) {
      text += s->capacity() + 1;
    }
  }
  return sizeof(*this) + rowids_.capacity() * sizeof(std::int64_t) +
         keys_.capacity() * sizeof(SortValue) + text + ids_.capacity() +
         id_ends_.capacity() * sizeof(std::uint32_t);
}

SearchResultCache::SearchResultCache(std::size_t budget_bytes) : entries_(budget_bytes) {}

std::optional<CachedSearch> SearchResultCache::find(const std::string& key) const {
  const CachedSearch* kept = entries_.find(key);
  if (kept == nullptr) return std::nullopt;
  return *kept;
}

void SearchResultCache::put(const std::string& key, CachedSearch search) const {
  if (search.matches && 2 * key.size() + search.matches->bytes() > budget_bytes() / 2) {
    search.matches.reset();
  }
  const std::size_t bytes = search.matches ? search.matches->bytes() : 0;
  entries_.put(key, std::move(search), bytes);
}

std::optional<CachedSearch> SearchResultCache::find(const std::string& key, Miss& miss) const {
  if (auto kept = find(key)) return kept;
  std::unique_lock lock(flights_mutex_);
  const auto [it, first] = flights_.try_emplace(key);
  if (first) {
    miss.cache_ = this;
    miss.key_ = key;
    return std::nullopt;
  }
  // Longer than any search's read; past it, this thread reads for itself rather than hang.
  constexpr std::chrono::seconds kLongestWait{10};
  Flight& flight = it->second;
  ++flight.waiters;
  flight_landed_.wait_for(lock, kLongestWait, [&] { return flight.done; });
  if (!flight.read) {
    if (--flight.waiters == 0 && flight.done) flights_.erase(it);
    return std::nullopt;
  }
  CachedSearch result = flight.result;
  if (--flight.waiters == 0) flights_.erase(it);
  lock.unlock();
  put(key, result);
  return result;
}

void SearchResultCache::put(const std::string& key, CachedSearch search, Miss& miss) const {
  put(key, search);
  if (miss.cache_ != nullptr) {
    miss.cache_ = nullptr;
    land(key, &search);
  }
}

int SearchResultCache::waiting_for(const std::string& key) const {
  std::lock_guard lock(flights_mutex_);
  const auto it = flights_.find(key);
  return it == flights_.end() ? 0 : it->second.waiters;
}

SearchResultCache::Miss::~Miss() {
  if (cache_ != nullptr) cache_->land(key_, nullptr);
}

void SearchResultCache::land(const std::string& key, const CachedSearch* result) const {
  {
    std::lock_guard lock(flights_mutex_);
    const auto it = flights_.find(key);
    if (it == flights_.end()) return;
    if (it->second.waiters == 0) {
      flights_.erase(it);
      return;
    }
    it->second.done = true;
    if (result != nullptr) {
      it->second.read = true;
      it->second.result = *result;
    }
  }
  flight_landed_.notify_all();
}

void append_field(std::string& key, std::string_view field) {
  key += std::to_string(field.size());
  key += ':';
  key += field;
}

void append_lead_list_fields(std::string& key, const LeadListQuery& query) {
  append_field(key, query.search_folded);
  append_field(key, query.stage ? std::to_string(static_cast<int>(*query.stage)) : "");
  append_field(key, query.updated.since ? std::to_string(query.updated.since->unix_ms) : "");
  append_field(key, query.updated.before ? std::to_string(query.updated.before->unix_ms) : "");
  append_field(key, std::to_string(static_cast<int>(query.sort.field)));
  append_field(key, query.sort.direction == SortDirection::kAsc ? "asc" : "desc");
}

std::string lead_search_key(std::string_view workspace_id, std::int64_t version,
                            const LeadListQuery& query) {
  std::string key = "lead:";
  append_field(key, workspace_id);
  append_field(key, std::to_string(version));
  append_lead_list_fields(key, query);
  return key;
}

std::string latest_lead_search_key(std::string_view workspace_id, const LeadListQuery& query) {
  std::string key = "lead:";
  append_field(key, workspace_id);
  append_field(key, "latest");
  append_lead_list_fields(key, query);
  return key;
}

}  // namespace leadline::store
