// Lead list pages kept between requests as their items' JSON, each with the workspace's lead
// version it was read at. PostgreSQL reads that version with the page's statements, which run
// only when it has moved (sql/version_gate.hpp): a page nobody wrote to since is one small
// statement and no rows (docs/design.md, "Page cache").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/list_query.hpp"
#include "store/thread_local_lru.hpp"

namespace leadline::store {

// One page as the list gave it: its items' JSON in order, and what the page says besides.
class RenderedPage {
 public:
  void add(std::string_view item);
  template <class Visit>
  void each(Visit&& visit) const {
    std::size_t start = 0;
    for (const std::uint32_t end : ends_) {
      visit(std::string_view(items_).substr(start, end - start));
      start = end;
    }
  }
  // What the page holds on the heap, for the cache's budget.
  std::size_t bytes() const;

  std::int64_t version = 0;
  PageFacts facts;
  // The last read of the page found its version unmoved: the next one asks for the version
  // alone first (LeadStore::list_rendered), which a page that keeps standing needs and no more.
  bool stood = false;

 private:
  std::string items_;                // each item's JSON, back to back
  std::vector<std::uint32_t> ends_;  // where each item ends in items_
};

// Least recently used pages go first once they outgrow the byte budget; each thread keeps its
// own (ThreadLocalLru), so a page kept costs no lock to read.
class RenderedPageCache {
 public:
  explicit RenderedPageCache(std::size_t budget_bytes) : entries_(budget_bytes) {}

  // The thread's page for `key`, valid until the thread's next put.
  RenderedPage* find(const std::string& key) const { return entries_.find(key); }
  // The thread keeps no page (as on SQLite, which keeps none).
  bool empty() const { return entries_.empty(); }
  void put(const std::string& key, RenderedPage page) const;

 private:
  ThreadLocalLru<RenderedPage> entries_;
};

// The key of a lead list page, whatever the version: every field that decides its items and
// their order, and the page's position and size.
std::string lead_page_key(std::string_view workspace_id, const LeadListQuery& query);

}  // namespace leadline::store
