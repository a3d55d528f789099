# Pipes SESSION into TINYREPL (plain REPL: stdin is not a terminal) and checks, word for word, every
# error it reports (message, source line and caret) against EXPECTED_ERRORS, and what it prints
# against EXPECTED_OUTPUT; the session must run every line, print its final value and exit 2, the status
# of its first failure (an error), as `run -` would.
#   cmake -DTINYREPL=... -DSESSION=... -DEXPECTED_ERRORS=... -DEXPECTED_OUTPUT=... -DWORKDIR=... -P check.cmake
# With -DUPDATE=ON it writes what it got to the expected files instead (review the diff before committing).
cmake_minimum_required(VERSION 3.20)
foreach(var TINYREPL SESSION EXPECTED_ERRORS EXPECTED_OUTPUT WORKDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check.cmake needs -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORKDIR})

# A clean environment for what the output depends on: no DEBUG/NOOPT/BEAM/DEV from the caller, and a
# HOME of its own so that no history file of the user's is read or written.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=DEBUG --unset=NOOPT --unset=BEAM --unset=DEV HOME=${WORKDIR}
          ${TINYREPL}
  INPUT_FILE ${SESSION}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE status
  TIMEOUT 280)

# The only machine-dependent words: how much memory this machine has.
string(REGEX REPLACE "more than this machine's [0-9.]+ GB" "more than this machine's <N> GB" err "${err}")
file(WRITE ${WORKDIR}/actual_errors.txt "${err}")
file(WRITE ${WORKDIR}/actual_output.txt "${out}")

if(UPDATE)
  file(WRITE ${EXPECTED_ERRORS} "${err}")
  file(WRITE ${EXPECTED_OUTPUT} "${out}")
  message(STATUS "wrote ${EXPECTED_ERRORS} and ${EXPECTED_OUTPUT}")
  return()
endif()

set(failures "")
if(NOT status STREQUAL "2")
  string(APPEND failures "exit status ${status}, expected 2 (the status of its first failure)\n")
endif()

string(REGEX MATCHALL "(^|\n)<stdin>:[0-9]+:[0-9]+: error: " error_lines "${err}")
list(LENGTH error_lines error_count)
if(error_count LESS 30)
  string(APPEND failures "${error_count} errors reported, the session has at least 30 kinds of bad input\n")
endif()

string(REGEX REPLACE "\n$" "" trimmed "${out}")
string(REGEX REPLACE ".*\n" "" last_line "${trimmed}")
if(NOT last_line STREQUAL "6")
  string(APPEND failures "the last line printed is '${last_line}', expected the final print(x.sum()): 6\n")
endif()

foreach(kind errors output)
  string(TOUPPER ${kind} KIND)
  file(READ ${EXPECTED_${KIND}} expected)
  if(kind STREQUAL "errors")
    set(actual "${err}")
  else()
    set(actual "${out}")
  endif()
  if(NOT actual STREQUAL expected)
    string(APPEND failures "the ${kind} differ from ${EXPECTED_${KIND}}:\n")
    find_program(DIFF diff)
    if(DIFF)
      execute_process(COMMAND ${DIFF} -u ${EXPECTED_${KIND}} ${WORKDIR}/actual_${kind}.txt OUTPUT_VARIABLE d)
      string(APPEND failures "${d}\n")
    else()
      string(APPEND failures "(see ${WORKDIR}/actual_${kind}.txt)\n")
    endif()
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "bad input session (${SESSION}):\n${failures}")
endif()
message(STATUS "${error_count} errors, each as expected; the session kept its names, printed 6 and exited 2")
