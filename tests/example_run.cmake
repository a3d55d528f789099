# example_<name>: replays one scripts/examples/*.tg and passes when every assert holds (tinyrepl's exit
# status). The one run also records the script's events (`run --json`, with DEBUG 4's PTX sources) in
# EVENTS, which peer_examples_<name> and ptxas_<name> read instead of replaying the script twice more:
# examples are the longest tests, in the sanitizer build above all. EVENTS exists only after a run that
# passed; the tests that read it name this one as their fixture.
#   cmake -DTINYREPL=... -DSCRIPT=... -DEVENTS=... -P example_run.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var TINYREPL SCRIPT EVENTS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "example_run.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE ${EVENTS})
execute_process(COMMAND ${TINYREPL} --debug 4 --render ptx run --json ${SCRIPT}
                OUTPUT_FILE ${EVENTS}.partial ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  # what failed: the assert and error events, and what the program wrote to stderr
  file(STRINGS ${EVENTS}.partial failed REGEX "\"ok\":false|\"event\":\"error\"")
  list(JOIN failed "\n" failed)
  message(FATAL_ERROR "${SCRIPT} exited with status ${status}\n${failed}\n${errors}")
endif()
file(RENAME ${EVENTS}.partial ${EVENTS})
