# One ctest test per GoogleTest suite (not per test) for the black-box executables: a suite's
# tests share the server and database its fixture starts once (SetUpTestSuite), where a process
# per test started both again for every test. On PostgreSQL that was 1.05 s of CPU per test
# against 0.43 s (docs/design.md, "Tests").
#
# leadline_add_gtest_suites(TARGET PREFIX prefix PROPERTIES ...) registers PREFIX<Suite> for each
# suite TARGET lists, found after each build of TARGET, with the given test properties.

set(LEADLINE_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake)

if(CMAKE_SCRIPT_MODE_FILE)
  # Run after the build: EXE lists its tests; OUT gets `set(LEADLINE_SUITES ...)`.
  execute_process(COMMAND ${EXE} --gtest_list_tests OUTPUT_VARIABLE listing
                  RESULT_VARIABLE status TIMEOUT 60)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${status}):\n${listing}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(suites "")
  foreach(line IN LISTS lines)
    # A suite's line is its name and a dot, perhaps followed by a "# TypeParam" comment.
    if(line MATCHES "^([A-Za-z0-9_/]+)\\.( .*)?$")
      list(APPEND suites ${CMAKE_MATCH_1})
    endif()
  endforeach()
  file(WRITE ${OUT} "set(LEADLINE_SUITES ${suites})\n")
  return()
endif()

function(leadline_add_gtest_suites target)
  cmake_parse_arguments(arg "" "PREFIX" "PROPERTIES" ${ARGN})
  set(suites_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
  get_property(listed TARGET ${target} PROPERTY LEADLINE_SUITES_LISTED)
  if(NOT listed)
    add_custom_command(TARGET ${target} POST_BUILD
                       COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${target}>
                               -D OUT=${suites_file} -P ${LEADLINE_GTEST_SUITES_SCRIPT}
                       VERBATIM)
    set_property(TARGET ${target} PROPERTY LEADLINE_SUITES_LISTED TRUE)
  endif()
  string(MAKE_C_IDENTIFIER "${arg_PREFIX}" tag)
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_${tag}_suites_include.cmake)
  set(properties "")
  foreach(p IN LISTS arg_PROPERTIES)
    string(APPEND properties " [==[${p}]==]")
  endforeach()
  file(GENERATE OUTPUT ${include_file} CONTENT
"if(EXISTS [==[${suites_file}]==])
  include([==[${suites_file}]==])
  foreach(suite IN LISTS LEADLINE_SUITES)
    add_test(\"${arg_PREFIX}\${suite}\" \"$<TARGET_FILE:${target}>\" \"--gtest_filter=\${suite}.*\")
    set_tests_properties(\"${arg_PREFIX}\${suite}\" PROPERTIES${properties})
  endforeach()
else()
  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
