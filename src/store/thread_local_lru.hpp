// A least-recently-used map kept by each thread under one byte budget, for the store's exact
// caches (search results, rendered conversations): a read runs on an I/O thread, which then
// takes no lock and shares no cache line with another; the cost is one miss per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace leadline::store {

// A number no other cache of the process has, so a thread tells one cache's entries from
// another's.
std::uint64_t next_thread_local_lru_owner();

template <class Value>
class ThreadLocalLru {
 public:
  explicit ThreadLocalLru(std::size_t budget_bytes)
      : budget_bytes_(budget_bytes), owner_(next_thread_local_lru_owner()) {}

  // The calling thread's entry for `key`, now its most recently used; valid until the thread's
  // next put.
  Value* find(const std::string& key) const {
    Shard& s = shard();
    const auto it = s.index.find(key);
    if (it == s.index.end()) return nullptr;
    s.lru.splice(s.lru.begin(), s.lru, it->second);
    return &it->second->value;
  }

  // The calling thread holds no entry.
  bool empty() const { return shard().lru.empty(); }

  // Replaces the thread's entry for `key`; `bytes` is what the value holds on the heap. Least
  // recently used entries go first once the entries outgrow the budget.
  void put(const std::string& key, Value value, std::size_t value_bytes) const {
    const std::size_t bytes = 2 * key.size() + sizeof(Node) + value_bytes;
    Shard& s = shard();
    if (const auto it = s.index.find(key); it != s.index.end()) {
      s.bytes -= it->second->bytes;
      s.lru.erase(it->second);
      s.index.erase(it);
    }
    while (!s.lru.empty() && s.bytes + bytes > budget_bytes_) {
      s.bytes -= s.lru.back().bytes;
      s.index.erase(s.lru.back().key);
      s.lru.pop_back();
    }
    s.lru.push_front({key, std::move(value), bytes});
    s.index.emplace(key, s.lru.begin());
    s.bytes += bytes;
  }

  std::size_t budget_bytes() const { return budget_bytes_; }

 private:
  struct Node {
    std::string key;
    Value value;
    std::size_t bytes;
  };
  struct Shard {
    std::uint64_t owner = 0;
    std::list<Node> lru;  // most recently used first
    std::unordered_map<std::string, typename std::list<Node>::iterator> index;
    std::size_t bytes = 0;
  };

  // The calling thread's entries, emptied when another cache than last time asks (a process
  // with one store keeps them; tests with several stores on one thread start over each time).
  Shard& shard() const {
    thread_local Shard s;
    if (s.owner != owner_) {
      s.index.clear();
      s.lru.clear();
      s.bytes = 0;
      s.owner = owner_;
    }
    return s;
  }

  std::size_t budget_bytes_;
  std::uint64_t owner_;
};

}  // namespace leadline::store
