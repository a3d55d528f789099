# The tinyrepl program's tests: tests/cli_*_test.cpp (the glob above builds them) drive its library
# in-process and its binary as a user would; and every scripts/examples/*.tg is replayed, passing
# only when each of its asserts holds.
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
foreach(script ${EXAMPLE_SCRIPTS})
  get_filename_component(example ${script} NAME_WE)
  add_test(NAME example_${example} COMMAND tinyrepl run ${script})
  set_tests_properties(example_${example} PROPERTIES TIMEOUT 120
                       ENVIRONMENT "XDG_CACHE_HOME=${TINYREPL_TEST_CACHE}")
endforeach()
