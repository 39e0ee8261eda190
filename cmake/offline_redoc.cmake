# Copies Redoc's standalone bundle to OUT with its one reference to another origin replaced:
# the sidebar's "API docs by Redocly" logo, fetched from Redocly's CDN, becomes an empty inline
# image (the attribution text stays). The reference page then loads nothing from elsewhere and
# its Content-Security-Policy can allow this server alone. Fails when the URL is not there
# exactly once, so a Redoc upgrade that moves it is noticed at build time.
set(logo_url "https://cdn.redoc.ly/redoc/logo-mini.svg")
set(empty_image "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E")
file(READ ${FILE} bundle)
string(LENGTH "${bundle}" before)
string(REPLACE "${logo_url}" "${empty_image}" bundle "${bundle}")
string(LENGTH "${bundle}" after)
string(LENGTH "${logo_url}" url_length)
string(LENGTH "${empty_image}" image_length)
math(EXPR expected "${before} - ${url_length} + ${image_length}")
if(NOT after EQUAL expected)
  message(FATAL_ERROR "${FILE}: expected the logo URL ${logo_url} exactly once")
endif()
if(bundle MATCHES "cdn\\.redoc\\.ly")
  message(FATAL_ERROR "${FILE}: another reference to cdn.redoc.ly appeared; extend this script")
endif()
file(WRITE ${OUT}.tmp "${bundle}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
