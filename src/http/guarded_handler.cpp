// Exception barrier between the server's completion handlers and the application handler.
#include "http/guarded_handler.hpp"

namespace leadline::http {

namespace {

// Used only when the handler cannot even render a refusal; keeps the API's envelope shape.
void render_fallback(unsigned status, Response& response) noexcept {
  try {
    response.reset();
    response.status = status;
    response.close = true;
    response.body = R"({"success":false,"error":"internal error"})";
  } catch (...) {
    // Out of memory while assigning a short literal: the response goes out with what it has.
    response.status = status;
    response.close = true;
  }
}

}  // namespace

void render_refusal_guarded(Handler& handler, unsigned status, std::string_view reason,
                            const Request* head, Response& response) noexcept {
  try {
    response.reset();
    handler.render_refusal(status, reason, head, response);
    response.status = status;
  } catch (...) {
    render_fallback(status, response);
  }
}

void handle_guarded(Handler& handler, const Request& request, Response& response) noexcept {
  try {
    handler.handle(request, response);
  } catch (...) {
    render_refusal_guarded(handler, 500, "internal error", &request, response);
  }
}

}  // namespace leadline::http
