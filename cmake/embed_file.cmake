# Writes a C++ source defining `std::string_view NAME()` over the bytes of FILE, as an array
# (a string literal that long would exceed what -Wpedantic lets C++ compilers assume).
file(READ ${FILE} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(SIZE ${FILE} size)
file(WRITE ${OUT}.tmp "// Generated from ${FILE} at build time; do not edit.\n#include <string_view>\n\nnamespace ${NAMESPACE} {\nnamespace {\nconst unsigned char kBytes[] = {\n${bytes}0};\n}  // namespace\nstd::string_view ${NAME}() {\n  return {reinterpret_cast<const char*>(kBytes), ${size}};\n}\n}  // namespace ${NAMESPACE}\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
