# The tinyrepl program's tests: tests/cli_*_test.cpp (the glob above builds them) drive its library
# in-process and its binary as a user would; and every scripts/examples/*.tg is replayed, passing
# only when each of its asserts holds (example_run.cmake, which keeps the run's events for the peer
# check and ptxas).
foreach(src ${TEST_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  if(name MATCHES "^cli_")
    target_link_libraries(${name} PRIVATE tinyrepl_host)
    target_compile_definitions(${name} PRIVATE TINYREPL_BINARY="$<TARGET_FILE:tinyrepl>"
                                               TINYREPL_EXAMPLES="${CMAKE_SOURCE_DIR}/scripts/examples")
    if(READLINE_INCLUDE_DIR AND READLINE_LIBRARY AND TINYREPL_READLINE)
      target_compile_definitions(${name} PRIVATE TINYREPL_HAVE_READLINE=1)
    endif()
    add_dependencies(${name} tinyrepl)
  endif()
endforeach()

file(GLOB EXAMPLE_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scripts/examples/*.tg)
set(EXAMPLE_EVENTS ${CMAKE_CURRENT_BINARY_DIR}/example_events)
file(MAKE_DIRECTORY ${EXAMPLE_EVENTS})
foreach(script ${EXAMPLE_SCRIPTS})
  get_filename_component(example ${script} NAME_WE)
  add_test(NAME example_${example}
           COMMAND ${CMAKE_COMMAND} -DTINYREPL=$<TARGET_FILE:tinyrepl> -DSCRIPT=${script}
                   -DEVENTS=${EXAMPLE_EVENTS}/${example}.jsonl -P ${CMAKE_CURRENT_SOURCE_DIR}/example_run.cmake)
  set_tests_properties(example_${example} PROPERTIES TIMEOUT 300 FIXTURES_SETUP example_${example}
                       ENVIRONMENT "XDG_CACHE_HOME=${TINYREPL_TEST_CACHE}")
endforeach()
