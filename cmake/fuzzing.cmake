# libFuzzer build helpers (LEADLINE_FUZZ=ON, clang only): coverage + ASan/UBSan instrumentation
# for the layer libraries, and leadline_add_fuzzer() for one fuzzer executable per source file.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "LEADLINE_FUZZ=ON needs clang: configure with -DCMAKE_CXX_COMPILER=clang++-14")
endif()

set(LEADLINE_SANITIZERS "address,undefined")
# OSS-Fuzz style code generation whatever CMAKE_BUILD_TYPE says: -O1, line tables for
# symbolized reports, frame pointers for fast unwinding, and assertions (Boost's too) kept on.
set(LEADLINE_FUZZ_CODEGEN -O1 -gline-tables-only -fno-omit-frame-pointer -UNDEBUG)
set(LEADLINE_FUZZ_COMPILE_OPTIONS -fsanitize=fuzzer-no-link,${LEADLINE_SANITIZERS}
                                  -fno-sanitize-recover=undefined ${LEADLINE_FUZZ_CODEGEN})

# Instruments existing library targets. They also carry the sanitizer runtimes to whatever links
# them (the leadline binary, tests), so every target of a fuzz build dir still links.
function(leadline_fuzz_instrument)
  foreach(target IN LISTS ARGN)
    target_compile_options(${target} PRIVATE ${LEADLINE_FUZZ_COMPILE_OPTIONS})
    target_link_options(${target} INTERFACE -fsanitize=${LEADLINE_SANITIZERS})
  endforeach()
endfunction()

# leadline_add_fuzzer(NAME LIBRARY...): NAME.cpp in the current directory, with libFuzzer's main.
function(leadline_add_fuzzer name)
  add_executable(${name} ${name}.cpp)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,${LEADLINE_SANITIZERS}
                                         -fno-sanitize-recover=undefined ${LEADLINE_FUZZ_CODEGEN})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,${LEADLINE_SANITIZERS})
  target_link_libraries(${name} PRIVATE ${ARGN})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
endfunction()
