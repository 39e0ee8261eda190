// The dashboard's browser side (web/dashboard/ and uPlot), embedded at build time.
#pragma once
#include <optional>
#include <string_view>
namespace leadline::dashboard {
struct Asset {
  std::string_view content_type;
  std::string_view body;
  std::string_view etag;  // quoted: the first 128 bits of the body's SHA-256, taken at build time
};
// name: a file name under /dashboard/assets/ ("dashboard.css", "uPlot.iife.min.js") or a page
// shell ("keys.html", "sign-in.html", ...). Nothing for any other name.
std::optional<Asset> dashboard_asset(std::string_view name);
}  // namespace leadline::dashboard
