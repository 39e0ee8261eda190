# Writes a C++ source implementing src/dashboard/dashboard_assets.hpp over FILES (the files of
# web/dashboard/ and uPlot's dist files): each file's bytes as an array, as embed_file.cmake does
# (a string literal that long would exceed what -Wpedantic lets C++ compilers assume), looked up
# by the file's name, with a content type from its extension. A name twice, a name that cannot be
# a URL path segment, or an extension without a known type fails the build. A page's line
# "<!-- topbar: PAGE -->" becomes the TOPBAR partial with PAGE's link marked current, so the four
# signed-in pages share one top bar.
cmake_policy(VERSION 3.25)  # script mode starts with no policies set; IN_LIST needs CMP0057
separate_arguments(FILES)
set(arrays "")
set(entries "")
set(names "")
set(index 0)
foreach(f IN LISTS FILES)
  get_filename_component(name ${f} NAME)
  if(NOT name MATCHES "^[A-Za-z0-9][A-Za-z0-9._-]*$")
    message(FATAL_ERROR "dashboard asset ${f}: its name must be letters, digits, '.', '_' or '-'")
  endif()
  if(name IN_LIST names)
    message(FATAL_ERROR "dashboard asset ${f}: another asset is already named ${name}")
  endif()
  list(APPEND names ${name})
  string(REGEX MATCH "\\.[^.]+$" extension ${name})
  string(TOLOWER "${extension}" extension)
  if(extension STREQUAL ".html")
    set(type "text/html; charset=utf-8")
  elseif(extension STREQUAL ".css")
    set(type "text/css; charset=utf-8")
  elseif(extension STREQUAL ".js" OR extension STREQUAL ".mjs")
    set(type "text/javascript; charset=utf-8")
  elseif(extension STREQUAL ".json")
    set(type "application/json; charset=utf-8")
  elseif(extension STREQUAL ".svg")
    set(type "image/svg+xml")
  elseif(extension STREQUAL ".png")
    set(type "image/png")
  elseif(extension STREQUAL ".ico")
    set(type "image/x-icon")
  elseif(extension STREQUAL ".txt")
    set(type "text/plain; charset=utf-8")
  else()
    message(FATAL_ERROR "dashboard asset ${f}: no content type known for '${extension}' "
                        "(cmake/embed_assets.cmake lists them)")
  endif()
  set(source ${f})
  if(extension STREQUAL ".html")
    file(READ ${f} page)
    if(page MATCHES "<!-- topbar: ([a-z-]+) -->")
      set(current ${CMAKE_MATCH_1})
      file(READ ${TOPBAR} topbar)
      string(REGEX REPLACE "^<!--[^>]*-->\n" "" topbar "${topbar}")  # its own comment
      set(link "<li><a href=\"/dashboard/${current}\">")
      string(FIND "${topbar}" "${link}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "dashboard asset ${f}: the top bar has no link to /dashboard/${current}")
      endif()
      string(REPLACE "${link}" "<li><a href=\"/dashboard/${current}\" aria-current=\"page\">"
             topbar "${topbar}")
      string(REGEX REPLACE "    <!-- topbar: [a-z-]+ -->\n" "${topbar}" page "${page}")
      set(source ${OUT}.${name})
      file(WRITE ${source} "${page}")
    endif()
  endif()
  file(READ ${source} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  file(SIZE ${source} size)
  file(SHA256 ${source} digest)
  string(SUBSTRING ${digest} 0 32 etag)
  string(APPEND arrays "// ${name}\nconst unsigned char kAsset${index}[] = {\n${bytes}0};\n")
  string(APPEND entries "    {\"${name}\", \"${type}\", \"\\\"${etag}\\\"\", kAsset${index}, ${size}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from web/dashboard/ and uPlot at build time by cmake/embed_assets.cmake; do not edit.
#include \"dashboard/dashboard_assets.hpp\"

#include <cstddef>

namespace leadline::dashboard {
namespace {
${arrays}
struct Entry {
  std::string_view name;
  std::string_view content_type;
  std::string_view etag;
  const unsigned char* bytes;
  std::size_t size;
};
const Entry kEntries[] = {
${entries}};
}  // namespace

std::optional<Asset> dashboard_asset(std::string_view name) {
  for (const auto& entry : kEntries) {
    if (entry.name == name) {
      return Asset{entry.content_type,
                   {reinterpret_cast<const char*>(entry.bytes), entry.size}, entry.etag};
    }
  }
  return std::nullopt;
}
}  // namespace leadline::dashboard
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
