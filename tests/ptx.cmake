# ptxas_<example>: every PTX kernel of each scripts/examples/*.tg (the CPU device's PTX tab: lowered for
# the NV device's GPU target, from the events that example_<example> recorded) assembles with NVIDIA's
# ptxas for its .target and for sm_90 (skipped, with the reason, where the CUDA toolkit is not installed). The random programs' and the hand-built
# UOps' PTX are checked the same way by backend_random_test and backend_uops_test. The sources that
# assembled are remembered in the test cache, which ./scripts/test's two builds share.
if(Python3_Interpreter_FOUND)
  file(GLOB PTX_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scripts/examples/*.tg)
  foreach(script ${PTX_EXAMPLES})
    get_filename_component(stem ${script} NAME_WE)
    add_test(NAME ptxas_${stem}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ptx/check_ptxas.py --verdicts ${TINYREPL_TEST_CACHE}/ptxas
                     ${EXAMPLE_EVENTS}/${stem}.jsonl)
    set_tests_properties(ptxas_${stem} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED example_${stem})
  endforeach()
endif()
