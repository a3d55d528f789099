# Whole-program checks:
#  - repl_programs_test: every tests/programs/*.tg prints values that the reference evaluator agrees with;
#  - bad_input_session: tests/bad_input/session.tg piped into tinyrepl gives the expected error for each
#    bad line, keeps the session's names, prints the final value and exits 2 (bad_input_deep_nesting:
#    the same for deeply nested input and a long chain of ops);
#  - random_sessions_*: random sessions of mostly bad statements (random_session/) end well, with no
#    sanitizer report in the sanitizer build;
#  - peer_*: each scripts/examples/*.tg and tests/programs/*.tg run under tinygrad 0.14.0 through
#    tests/peer/prelude.py print the same values as tinyrepl (skipped, with the reason, when tinygrad
#    cannot be imported; this test installs nothing). tinygrad's side of each program is kept in the
#    test cache, which ./scripts/test shares between its plain and sanitizer builds.
target_compile_definitions(repl_programs_test PRIVATE TINYREPL_PROGRAMS="${CMAKE_CURRENT_SOURCE_DIR}/programs"
                                                     TINYREPL_EXAMPLES="${CMAKE_SOURCE_DIR}/scripts/examples")

find_package(Python3 COMPONENTS Interpreter)

add_test(NAME bad_input_session
         COMMAND ${CMAKE_COMMAND} -DTINYREPL=$<TARGET_FILE:tinyrepl>
                 -DSESSION=${CMAKE_CURRENT_SOURCE_DIR}/bad_input/session.tg
                 -DEXPECTED_ERRORS=${CMAKE_CURRENT_SOURCE_DIR}/bad_input/expected_errors.txt
                 -DEXPECTED_OUTPUT=${CMAKE_CURRENT_SOURCE_DIR}/bad_input/expected_output.txt
                 -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/bad_input
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/check.cmake)
set_tests_properties(bad_input_session PROPERTIES TIMEOUT 300 ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/cache")
add_test(NAME bad_input_deep_nesting
         COMMAND ${CMAKE_COMMAND} -DTINYREPL=$<TARGET_FILE:tinyrepl> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/bad_input_deep
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/deep.cmake)
set_tests_properties(bad_input_deep_nesting PROPERTIES TIMEOUT 300 ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/cache")

if(Python3_Interpreter_FOUND)
  file(GLOB PEER_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scripts/examples/*.tg)
  file(GLOB PEER_PROGRAMS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/programs/*.tg)
  foreach(script ${PEER_EXAMPLES} ${PEER_PROGRAMS})
    get_filename_component(stem ${script} NAME_WE)
    get_filename_component(dir ${script} DIRECTORY)
    get_filename_component(group ${dir} NAME)
    # The sanitizer build leaves the programs out: repl_programs_test runs each of them sanitized, and
    # their values against tinygrad are the plain build's (each was a second sanitized process here).
    if(TINYREPL_SANITIZE AND group STREQUAL "programs")
      continue()
    endif()
    # an example's own run is the one example_<name> recorded (example_run.cmake)
    if(group STREQUAL "examples")
      set(ours --events ${EXAMPLE_EVENTS}/${stem}.jsonl)
    else()
      set(ours --tinyrepl $<TARGET_FILE:tinyrepl>)
    endif()
    add_test(NAME peer_${group}_${stem}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/peer/run_peer.py
                     ${ours} --cache ${TINYREPL_TEST_CACHE}/peer ${script})
    set_tests_properties(peer_${group}_${stem} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         ENVIRONMENT "XDG_CACHE_HOME=${TINYREPL_TEST_CACHE}")
    if(group STREQUAL "examples")
      set_tests_properties(peer_${group}_${stem} PROPERTIES FIXTURES_REQUIRED example_${stem})
    endif()
  endforeach()
  # random programs made only of values tinygrad 0.14 defines (tests/random_program.h), ten seeds per
  # test: written by random_programs_write, then each run under tinyrepl and tinygrad
  if(NOT TINYREPL_SANITIZE)
    add_executable(random_programs peer/random_programs.cpp)
    target_link_libraries(random_programs PRIVATE tinyrepl_core tinyrepl_devices GTest::gtest)
    target_precompile_headers(random_programs REUSE_FROM tinyrepl_test_main)
    foreach(first 0 10 20 30)
      math(EXPR last "${first} + 9")
      set(dir ${CMAKE_CURRENT_BINARY_DIR}/random_programs_${first}_${last})
      add_test(NAME random_programs_write_${first}_${last} COMMAND random_programs ${first} ${last} ${dir})
      set_tests_properties(random_programs_write_${first}_${last} PROPERTIES FIXTURES_SETUP random_programs_${first}_${last})
      add_test(NAME peer_random_programs_${first}_${last}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/peer/run_peer.py --tinyrepl $<TARGET_FILE:tinyrepl>
                       --cache ${TINYREPL_TEST_CACHE}/peer ${dir})
      set_tests_properties(peer_random_programs_${first}_${last} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                           FIXTURES_REQUIRED random_programs_${first}_${last} ENVIRONMENT "XDG_CACHE_HOME=${TINYREPL_TEST_CACHE}")
    endforeach()
  endif()
  # random sessions, ten seeds per test so that CTest runs them side by side
  foreach(first 1 11 21)
    math(EXPR last "${first} + 9")
    add_test(NAME random_sessions_${first}_${last}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/random_session/run.py $<TARGET_FILE:tinyrepl>
                     ${first} ${last} ${CMAKE_CURRENT_BINARY_DIR}/random_sessions)
    set_tests_properties(random_sessions_${first}_${last} PROPERTIES TIMEOUT 600
                         ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/cache")
  endforeach()
else()
  add_test(NAME peer_tinygrad COMMAND ${CMAKE_COMMAND} -E echo "skipped: python3 was not found, so tinygrad cannot run")
  set_tests_properties(peer_tinygrad PROPERTIES SKIP_REGULAR_EXPRESSION "skipped:")
  add_test(NAME random_sessions COMMAND ${CMAKE_COMMAND} -E echo "skipped: python3 was not found to write the sessions")
  set_tests_properties(random_sessions PROPERTIES SKIP_REGULAR_EXPRESSION "skipped:")
endif()
