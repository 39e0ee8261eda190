// The rules for an endpoint's `url` at registration: absolute http(s), short enough, no user info
// or fragment, and no IP literal host inside a blocked range.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "webhooks/blocked_ranges.hpp"

namespace leadline::webhooks {

struct UrlRules {
  bool allow_http = false;
  const AddressPolicy* policy = nullptr;  // nullptr: the host's address is not checked
};

// nullopt when `url` may be registered; else the sentence of the 400, naming the field `url`, e.g.
// "url must be an absolute https:// URL", "url must be at most 2048 characters",
// "url must not contain user info", "url must not contain a fragment",
// "url points into the blocked address range 127.0.0.0/8".
// (When allow_http: "url must be an absolute http:// or https:// URL".)
// Host names are not resolved here: the sender resolves and checks them at every attempt.
std::optional<std::string> url_problem(std::string_view url, const UrlRules& rules);

}  // namespace leadline::webhooks
