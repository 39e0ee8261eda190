// The headers on everything under /dashboard: a Content-Security-Policy that lets a page load
// and talk to this origin only and never be framed, no MIME sniffing, no referrer beyond this
// origin, and no caching of pages or JSON (they carry a user's data).
#pragma once

#include "http/request.hpp"

namespace leadline::dashboard {

enum class Caching { kNoStore, kAsset };

void add_security_headers(http::Response& response, Caching caching);

}  // namespace leadline::dashboard
