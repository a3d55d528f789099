# Deeply nested and very long expressions in a piped session: each must give an error or a value,
# never a crash, and the session must then print its final value and exit 2 (the status of its first
# error, as `run -` would). The parser refuses more
# than 200 levels of nesting; a chain of 3000 ops, one per line, is cut into kernels as it grows
# (core/lazy/lazy.h kMaxLazyDepth) and still prints its value.
#   cmake -DTINYREPL=... -DWORKDIR=... -P deep.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var TINYREPL WORKDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "deep.cmake needs -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORKDIR})

string(REPEAT "(" 20000 open)
string(REPEAT ")" 20000 close)
string(REPEAT "[" 20000 open_list)
string(REPEAT "]" 20000 close_list)
string(REPEAT "- " 100000 minus)
string(REPEAT "1 + " 100000 ones)
string(REPEAT ".T" 100000 transposes)
string(REPEAT "c = c + 1\n" 3000 chain)
set(session "x = tensor([1, 2, 3])
y = ${open}1${close}
w = ${open_list}1${close_list}
z = ${minus}1
s = ${ones}1
t = x${transposes}
c = tensor([1.0])
${chain}print(c)
print(x.sum())
")
file(WRITE ${WORKDIR}/deep.tg "${session}")

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=DEBUG --unset=NOOPT --unset=BEAM --unset=DEV HOME=${WORKDIR}
          ${TINYREPL}
  INPUT_FILE ${WORKDIR}/deep.tg
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE status
  TIMEOUT 280)

string(REGEX REPLACE "\n$" "" trimmed "${out}")
string(REGEX REPLACE ".*\n" "" last_line "${trimmed}")
string(FIND "${out}" "[3001.]" chain_printed)
if(NOT status STREQUAL "2" OR NOT last_line STREQUAL "6" OR chain_printed EQUAL -1)
  string(SUBSTRING "${err}" 0 2000 head)
  message(FATAL_ERROR "deep input (${WORKDIR}/deep.tg): exit status ${status}, last line printed '${last_line}' "
                      "(expected 2 and 6), the chain's [3001.] ${chain_printed} (-1: not printed):\n${head}")
endif()
message(STATUS "every deep input gave an error or a value; the chain printed [3001.], the session 6, and it exited 2")
