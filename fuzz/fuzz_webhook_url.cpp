// Fuzzes the webhook address checks: the input is a webhook URL for url_problem and an address
// for AddressPolicy::blocked_range; checks the sentences, that looser rules never refuse what
// stricter ones accept, and that a blocked address lies inside the range named for it.
#include <algorithm>
#include <string>
#include <string_view>

#include "auth/ip_rule.hpp"
#include "domain/unicode_text.hpp"
#include "fuzz_check.hpp"
#include "webhooks/blocked_ranges.hpp"
#include "webhooks/webhook_url.hpp"

using namespace leadline;

namespace {

const webhooks::AddressPolicy& strict_policy() {
  static const webhooks::AddressPolicy policy;
  return policy;
}

const webhooks::AddressPolicy& loopback_allowed() {
  static const webhooks::AddressPolicy policy(
      {*auth::parse_ip_range("127.0.0.0/8"), *auth::parse_ip_range("::1")});
  return policy;
}

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), s.begin(), [](char p, char c) {
    return p == (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  });
}

void check_sentence(const std::optional<std::string>& problem) {
  if (!problem) return;
  FUZZ_CHECK(problem->starts_with("url "), "a url sentence does not name the field url");
  FUZZ_CHECK(domain::is_valid_utf8(*problem), "a url sentence is not valid UTF-8");
}

void check_url(std::string_view url) {
  const auto strict = webhooks::url_problem(url, {.policy = &strict_policy()});
  const auto with_http =
      webhooks::url_problem(url, {.allow_http = true, .policy = &strict_policy()});
  const auto exempt = webhooks::url_problem(url, {.policy = &loopback_allowed()});
  const auto shape_only = webhooks::url_problem(url, {});
  check_sentence(strict);
  check_sentence(with_http);
  check_sentence(exempt);
  check_sentence(shape_only);
  if (!strict) {
    FUZZ_CHECK(starts_with_ignoring_case(url, "https://"), "a non-https url was accepted");
    FUZZ_CHECK(url.size() <= 2048, "a url over 2048 characters was accepted");
    FUZZ_CHECK(url.find('#') == std::string_view::npos, "a url with a fragment was accepted");
    FUZZ_CHECK(!with_http, "allowing http refused an https url");
    FUZZ_CHECK(!exempt, "an allow-list refused what the strict policy accepted");
  }
  if (!with_http) {
    FUZZ_CHECK(
        starts_with_ignoring_case(url, "https://") || starts_with_ignoring_case(url, "http://"),
        "a url of another scheme was accepted");
  }
  // The policy only adds the range check: with it, the answer is the same or a range sentence.
  const bool range_sentence = strict && strict->starts_with("url points into the blocked address");
  FUZZ_CHECK(shape_only.has_value() == (strict.has_value() && !range_sentence),
             "the shape check disagrees with the full check");
}

void check_address(std::string_view text) {
  const auto ip = auth::parse_ip(text);
  if (!ip) return;
  const auto range = strict_policy().blocked_range(*ip);
  if (range) {
    const auto parsed = auth::parse_ip_range(*range);
    FUZZ_CHECK(parsed.has_value(), "a blocked range name is not a range");
    FUZZ_CHECK(parsed->contains(*ip), "an address is blocked by a range that does not contain it");
  }
  const auto exempt = loopback_allowed().blocked_range(*ip);
  if (exempt) FUZZ_CHECK(range == exempt, "an allow-list changed the range named");
  if (!range) FUZZ_CHECK(!exempt, "an allow-list blocked an address");
  if (ip->v4) {
    // The IPv4-mapped IPv6 form, built as bytes, is judged like the IPv4 address.
    auth::IpAddress mapped{.v4 = false};
    mapped.bytes[10] = 0xff;
    mapped.bytes[11] = 0xff;
    std::copy_n(ip->bytes.begin(), 4, mapped.bytes.begin() + 12);
    FUZZ_CHECK(strict_policy().blocked_range(mapped) == range, "the mapped form is judged apart");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  check_url(text);
  check_address(text);
  return 0;
}
