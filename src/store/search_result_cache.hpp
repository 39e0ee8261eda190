// Search results kept between requests, exact by construction: an entry is keyed by the
// workspace's lead version (migration 0011) and everything that decides the result, and holds
// every match in sort order, so any page at that version is answered from it by binary search
// and the page's rows are read by rowid (SQLite) or by id (PostgreSQL). See docs/design.md
// ("Search result cache").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/list_query.hpp"
#include "store/thread_local_lru.hpp"

namespace leadline::store {

// Every match of one search at one version, in the list's order.
class SearchResult {
 public:
  explicit SearchResult(std::size_t key_count) : key_count_(key_count) {}

  // Appended in the list's order: the row's rowid, id and sort key values.
  void add(std::int64_t rowid, std::string_view id, const std::vector<SortValue>& keys);
  // The same where rows have no rowid (PostgreSQL): they are read by id.
  void add(std::string_view id, const std::vector<SortValue>& keys);

  std::size_t size() const { return id_ends_.size(); }
  // Only for matches added with their rowid.
  std::int64_t rowid(std::size_t i) const { return rowids_[i]; }
  std::string_view id(std::size_t i) const;
  KeysetPosition position(std::size_t i) const;
  // The index of the first match strictly after `after` in the list's order (the direction
  // given); nullopt when the position's values are not of the kinds the matches hold (no
  // cursor of this list has such a position; the caller asks the database instead).
  std::optional<std::size_t> first_after(const KeysetPosition& after,
                                         SortDirection direction) const;
  // What the entry holds on the heap, for the cache's budget.
  std::size_t bytes() const;

 private:
  std::size_t key_count_;
  std::vector<std::int64_t> rowids_;
  std::vector<SortValue> keys_;  // key_count_ per match
  std::string ids_;
  std::vector<std::uint32_t> id_ends_;
};

// What the cache holds for one search at one version: the number of matches, and the matches
// themselves unless there are too many to keep (then the database reads each page).
struct CachedSearch {
  std::int64_t count = 0;
  std::shared_ptr<const SearchResult> matches;
  // The lead version it was read at, where the key does not say it (latest_lead_search_key).
  std::int64_t version = 0;
};

// Least recently used entries go first once the entries outgrow the byte budget. Each thread
// has its own entries (thread_local): a search runs on an I/O thread, which then takes no lock
// and shares no cache line with the other; the cost is one miss per thread and version.
//
// Threads that miss one key at the same moment (the first searches after a start: every I/O
// thread at once) read it once: the first reads, and the others wait for what it puts instead of
// running the same statements beside it on the same cores (docs/design.md, "Search result
// cache"). Only a miss takes the lock.
class SearchResultCache {
 public:
  // The read a thread owes the threads that missed the same key after it: ended by put(), or by
  // its destruction unput (the read failed), which sends them to read for themselves.
  class Miss {
   public:
    Miss() = default;
    ~Miss();
    Miss(const Miss&) = delete;
    Miss& operator=(const Miss&) = delete;

   private:
    friend class SearchResultCache;
    const SearchResultCache* cache_ = nullptr;
    std::string key_;
  };

  explicit SearchResultCache(std::size_t budget_bytes);

  std::optional<CachedSearch> find(const std::string& key) const;
  // The thread's entry; else what another thread reading the same key puts, waited for; else
  // nullopt, and `miss` makes this thread the one the others wait for until it puts.
  std::optional<CachedSearch> find(const std::string& key, Miss& miss) const;
  // Keeps the count, and the matches unless they alone take more than half the budget.
  void put(const std::string& key, CachedSearch search) const;
  // The same, and hands the entry to the threads waiting on `miss`.
  void put(const std::string& key, CachedSearch search, Miss& miss) const;
  // How many threads wait now for another's read of `key`.
  int waiting_for(const std::string& key) const;

  std::size_t budget_bytes() const { return entries_.budget_bytes(); }

 private:
  // One key's read under way, and what it handed over once done.
  struct Flight {
    int waiters = 0;
    bool done = false;
    bool read = false;  // `result` holds what the read found (else it failed)
    CachedSearch result;
  };
  // Ends the flight of `key`; `result` is null when its read failed.
  void land(const std::string& key, const CachedSearch* result) const;

  ThreadLocalLru<CachedSearch> entries_;
  mutable std::mutex flights_mutex_;
  mutable std::condition_variable flight_landed_;
  mutable std::unordered_map<std::string, Flight> flights_;
};

// Appends one field to a cache key, length-prefixed so that no two keys share their fields.
void append_field(std::string& key, std::string_view field);
// Appends every field of `query` that decides a lead list's matches and their order (not the
// page's position or size).
void append_lead_list_fields(std::string& key, const LeadListQuery& query);

// The cache key of a lead search at `version`: every field that decides the matches and their
// order, each length-prefixed so that no two queries share one. The page position is not part.
std::string lead_search_key(std::string_view workspace_id, std::int64_t version,
                            const LeadListQuery& query);
// The key of the one entry kept for a lead search whatever its version, which the entry holds
// (CachedSearch::version): PostgreSQL reads the version in the same round trip as the page the
// entry says, so it needs the entry before it knows the version.
std::string latest_lead_search_key(std::string_view workspace_id, const LeadListQuery& query);

}  // namespace leadline::store
