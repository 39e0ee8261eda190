// Lead list pages kept as their items' JSON (see the header).
#include "store/rendered_page_cache.hpp"

#include <charconv>
#include <cstring>
#include <variant>

#include "store/search_result_cache.hpp"

namespace leadline::store {

void RenderedPage::add(std::string_view item) {
  items_.append(item);
  ends_.push_back(static_cast<std::uint32_t>(items_.size()));
}

std::size_t RenderedPage::bytes() const {
  std::size_t n = items_.capacity() + ends_.capacity() * sizeof(std::uint32_t);
  if (facts.next_position) {
    n += facts.next_position->id.capacity();
    for (const SortValue& v : facts.next_position->values) {
      n += sizeof(SortValue);
      if (const auto* text = std::get_if<std::string>(&v)) n += text->capacity();
    }
  }
  return n;
}

void RenderedPageCache::put(const std::string& key, RenderedPage page) const {
  const std::size_t bytes = page.bytes();
  entries_.put(key, std::move(page), bytes);
}

namespace {

// A sort key's value with its kind, so that no two positions share a key (a real's bits, so
// that it is exact).
void append_value(std::string& key, const SortValue& value) {
  char number[24];
  const auto number_field = [&](char kind, auto n) {
    number[0] = kind;
    const auto end = std::to_chars(number + 1, number + sizeof number, n).ptr;
    append_field(key, std::string_view(number, static_cast<std::size_t>(end - number)));
  };
  if (const auto* i = std::get_if<std::int64_t>(&value)) {
    number_field('i', *i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, d, sizeof bits);
    number_field('r', bits);
  } else if (const auto* text = std::get_if<std::string>(&value)) {
    key += 't';
    append_field(key, *text);
  } else {
    append_field(key, "n");
  }
}

}  // namespace

std::string lead_page_key(std::string_view workspace_id, const LeadListQuery& query) {
  std::string key = "lead-page:";
  append_field(key, workspace_id);
  append_lead_list_fields(key, query);
  append_field(key, std::to_string(query.page.limit));
  append_field(key, std::to_string(query.page.offset));
  if (const auto& after = query.page.after) {
    append_field(key, std::to_string(after->values.size()));
    for (const SortValue& v : after->values) append_value(key, v);
    append_field(key, after->id);
  } else {
    append_field(key, "-");
  }
  return key;
}

}  // namespace leadline::store
