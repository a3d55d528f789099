# Run after a suite links (cmake -P): lists its GoogleTest tests and writes the CTest file that runs them
# as shards of about TESTS_PER_SHARD each (GoogleTest's sharding), at least MIN_SHARDS, so that two cores
# stay busy without a process per test.
# In: EXE, NAME, TIMEOUT, ENVIRONMENT (a list), TESTS_PER_SHARD, MIN_SHARDS, OUT.
execute_process(COMMAND "${EXE}" --gtest_list_tests OUTPUT_VARIABLE listed RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${failed}):\n${listed}")
endif()
# a test is an indented line under its suite's line
string(REGEX MATCHALL "\n  [^\n]+" tests "\n${listed}")
list(LENGTH tests count)
math(EXPR shards "(${count} + ${TESTS_PER_SHARD} - 1) / ${TESTS_PER_SHARD}")
if(shards LESS MIN_SHARDS)
  set(shards ${MIN_SHARDS})
endif()
math(EXPR last "${shards} - 1")
set(text "")
foreach(shard RANGE ${last})
  string(APPEND text "add_test([=[${NAME}_shard${shard}]=] [=[${EXE}]=])\n"
         "set_tests_properties([=[${NAME}_shard${shard}]=] PROPERTIES TIMEOUT ${TIMEOUT} ENVIRONMENT "
         "[=[${ENVIRONMENT};GTEST_TOTAL_SHARDS=${shards};GTEST_SHARD_INDEX=${shard}]=])\n")
endforeach()
file(WRITE "${OUT}" "${text}")
