// Decides what a failed request read deserves: a refusal the client can read (malformed, too
// large) or a silent close (peer gone, timeout, shutdown).
#pragma once

#include <boost/system/error_code.hpp>
#include <optional>

#include "http/refusal.hpp"

namespace leadline::http {

// The refusal to answer with, or nothing when the connection should just be closed.
std::optional<RefusalKind> refusal_for(const boost::system::error_code& ec);

}  // namespace leadline::http
