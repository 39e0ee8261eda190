// Static documents served from memory: the bytes are embedded in the binary at build time.
#include "api/reference_pages.hpp"

#include <string>

#include "api/openapi_document.hpp"
#include "api/redoc_bundle.hpp"

namespace leadline::api {

namespace {

// Absolute paths, so that /docs and /docs/ load the same page. No web fonts: Redoc falls back to
// the system's, and nothing is fetched from another origin.
constexpr std::string_view kDocsPage = R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>leadline API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/api/v1/external/openapi.json" hide-hostname="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
)";

// The page may run only this server's script and talk only to this server; Redoc's search runs in
// a worker it creates from a blob, and its styles are injected at run time.
constexpr std::string_view kDocsPolicy =
    "default-src 'none'; script-src 'self'; worker-src blob:; connect-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

struct Document {
  std::string_view label;
  std::string_view content_type;
  std::string_view cache_control;
  std::string_view (*body)();
  bool is_page;
};

std::string_view docs_page() {
  return kDocsPage;
}

const Document* find_document(std::string_view path) {
  static constexpr Document kOpenApi{kOpenApiPath, "application/json; charset=utf-8", "no-cache",
                                     &openapi_document, false};
  static constexpr Document kPage{kDocsPath, "text/html; charset=utf-8", "no-cache", &docs_page,
                                  true};
  // The script changes only with the binary; a day's caching spares a megabyte per page view.
  static constexpr Document kScript{kRedocScriptPath, "text/javascript; charset=utf-8",
                                    "public, max-age=86400", &redoc_bundle, false};
  if (path == kOpenApiPath) return &kOpenApi;
  if (path == kDocsPath || path == "/docs/") return &kPage;
  if (path == kRedocScriptPath) return &kScript;
  return nullptr;
}

}  // namespace

std::optional<ReferenceAnswer> serve_reference(std::string_view path, const http::Request& request,
                                               http::Response& response) {
  const Document* document = find_document(path);
  if (document == nullptr) return std::nullopt;
  if (request.method != "GET" && request.method != "HEAD") {
    return ReferenceAnswer{document->label, method_not_allowed(request.method, "GET, HEAD")};
  }
  response.content_type = document->content_type;
  response.headers.emplace_back("Cache-Control", document->cache_control);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (document->is_page) {
    response.headers.emplace_back("Content-Security-Policy", kDocsPolicy);
    response.headers.emplace_back("Referrer-Policy", "no-referrer");
  }
  response.body.assign(document->body());
  return ReferenceAnswer{document->label, kAnswered};
}

std::array<std::string_view, 3> reference_routes() {
  return {kOpenApiPath, kDocsPath, kRedocScriptPath};
}

}  // namespace leadline::api
