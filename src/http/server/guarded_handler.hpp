// Last line of defence around the Handler: an exception escaping it must not take a worker
// thread down, so it becomes a kHandlerFailed refusal (or, if rendering that fails too, a fixed
// 500 JSON envelope).
#pragma once

#include <string_view>

#include "http/request.hpp"

namespace leadline::http {

void handle_guarded(Handler& handler, const Request& request, Response& response) noexcept;

void render_refusal_guarded(Handler& handler, const Refusal& refusal, const Request* head,
                            Response& response) noexcept;

}  // namespace leadline::http
