// Decides what a failed request read deserves: a refusal the client can read (400, 413, 431)
// or a silent close (peer gone, timeout, shutdown), and words the refusal.
#pragma once

#include <boost/system/error_code.hpp>
#include <string>

#include "http/server.hpp"

namespace leadline::http {

// The status to answer with, or 0 when the connection should just be closed.
unsigned refusal_status_for(const boost::system::error_code& ec);

// The sentence handed to Handler::render_refusal for the server's own refusals.
std::string refusal_reason(unsigned status, const ServerConfig& config);

}  // namespace leadline::http
