// Redoc's standalone browser bundle (npm package `redoc`, pinned in tools/package-lock.json),
// embedded at build time so that the reference page never fetches code from elsewhere.
#pragma once

#include <string_view>

namespace leadline::api {

std::string_view redoc_bundle();

}  // namespace leadline::api
