// Presents a parsed Beast request as the Beast-free http::Request the handler sees.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <string_view>

#include "http/request.hpp"

namespace leadline::http {

using BeastRequest = boost::beast::http::request<boost::beast::http::string_body>;

// Points `request` into `message` (which must outlive its use) and into `peer_ip`. The header
// vector is cleared, not replaced, so its capacity carries over between requests.
void adapt_request(const BeastRequest& message, std::string_view peer_ip, Request& request);

}  // namespace leadline::http
