// Exception barrier between the server's completion handlers and the application handler.
#include "http/server/guarded_handler.hpp"

namespace leadline::http {

namespace {

// Used only when the handler cannot even render a refusal; keeps the API's envelope shape. The
// one status this layer writes itself: nothing is left that could choose a better one.
void render_fallback(Response& response) noexcept {
  constexpr unsigned kInternalError = 500;
  try {
    response.reset();
    response.status = kInternalError;
    response.close = true;
    response.body = R"({"success":false,"error":"internal error"})";
  } catch (...) {
    // Out of memory while assigning a short literal: the response goes out with what it has.
    response.status = kInternalError;
    response.close = true;
  }
}

}  // namespace

void render_refusal_guarded(Handler& handler, const Refusal& refusal, const Request* head,
                            Response& response) noexcept {
  try {
    response.reset();
    handler.render_refusal(refusal, head, response);
  } catch (...) {
    render_fallback(response);
  }
}

void handle_guarded(Handler& handler, const Request& request, Response& response) noexcept {
  try {
    handler.handle(request, response);
  } catch (...) {
    render_refusal_guarded(handler, {RefusalKind::kHandlerFailed}, &request, response);
  }
}

}  // namespace leadline::http
