#!/usr/bin/env bash
# The schedule history in a real terminal (tmux at 120x40): a print after a matmul does not take the
# matmul away ([ and ] go back and forth), a statement of copies only leaves the panes where they were,
# s sorts Kernels and Timings by time, their headers stay put while they scroll, a @jit step's kernels
# are in Kernels as in Timings, and :diff shows two versions of a kernel in colour in the Source pane.
# Usage: tui_history_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_history_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

# The first line of pane $1 below its frame's title: its header.
first_line() { pane "$1" | sed -n 1p; }
kernel_rows() { pane "$1" | grep -cE "$2"; }

start

# A print after the matmul: the panes show the print's E_4, and the matmul is a key away
line 'c = (rand(128,128) @ rand(128,128)).realize()'
expect Kernels '^ *2 r_128_128_128 +CPU' "the matmul runs, in the Kernels pane"
line 'print(c[0, :4])'
expect_screen 'Kernels · #2 print\(c\[0, :4\]\)' "the Kernels pane says whose schedule it shows"
expect Kernels '^ *0 E_4 +CPU' "the print's kernel replaces the matmul"
line 'print(rand(512, 512))'
expect REPL '\.\.\.' "a tensor of copies only is printed"
expect_screen 'Kernels · #2 of 3 print' "a statement of copies only leaves the panes on the kernel before it"
expect_screen 'AST · E_4 ─' "the AST pane still shows E_4, not 'no kernel to show'"
keys Escape  # alone: Esc and the key after it would read as one escape sequence
keys '['
expect_screen 'Kernels · #1 of 3 c = \(rand' "[ goes back to the matmul"
expect_screen 'AST · r_128_128_128 ─' "the AST pane follows"
expect Timings '^r_128_128_128 +CPU' "and the Timings pane"
keys '['
expect_screen 'no older statement is kept' "[ at the oldest says so"
keys ']' ']'
expect_screen 'Kernels · #3 print\(rand\(512, 512\)\)' "] goes forward to the copies"
expect Kernels '^ *0 copy HOST->CPU' "the statement of copies lists its copies"
keys ']'
expect_screen 'this is the newest statement' "] at the newest says so"
keys '[' '['
expect_screen 'Kernels · #1 of 3' "back at the matmul"

# s: the longest first in both panes, K kept; again: K order. The matmul is 128x128 so that it outlasts
# the copies on a loaded machine too (at 64x64 a copy took 65 us against its 49 us beside other tests)
keys s
expect_screen 'Timings · by time · #1 of 3' "s sorts by time"
[ "$(pane Kernels | sed -n 2p | awk '{print $2}')" = "r_128_128_128" ] && echo "ok: the matmul, K 2, is the first row" ||
  fail "the first row of the sorted Kernels pane is not the matmul"
[ "$(pane Timings | sed -n 2p | awk '{print $1}')" = "r_128_128_128" ] && echo "ok: and the first row of Timings" ||
  fail "the first row of the sorted Timings pane is not the matmul"
keys s
expect_screen 'Kernels and Timings: in K order' "s again lists them by K"

# :opt, then :diff: the version the opt replaced against the new one, in colour, in the Source pane
keys Enter
line ':opt 2 UPCAST 0 4'
expect REPL '^before: tm' ":opt keeps the version it replaced"
line ':diff 2'
expect REPL 'the Source pane shows the diff of kernel 2' ":diff K says where the diff went"
expect_screen 'Diff · r_32_4_128_128 · :diff 2' "the Source pane shows the diff"
expect Diff '^--- r_128_128_128 before \(opts: none\) in c, [0-9.]+us' "the diff's old side, timed"
expect Diff '^\+\+\+ r_32_4_128_128 now \(opts: UPCAST\(0, 4\)\) in c, [0-9.]+us' "its new side, timed"
expect Diff '^-void r_128_128_128' "a removed line"
expect Diff '^\+void r_32_4_128_128' "an added line"
coloured=$(t capture-pane -p -e -t "$session")
grep -qE $'\e\\[(38;5;160|31)m-void r_128_128_128' <<<"$coloured" && echo "ok: the removed line is red" ||
  fail "the removed line is not red"
grep -qE $'\e\\[(38;5;28|32)m\\+void r_32_4_128_128' <<<"$coloured" && echo "ok: the added line is green" ||
  fail "the added line is not green"
line ':diff 2 cuda opencl'
expect Diff '^-extern "C" __global__ void' "two backends: the CUDA source removed"
expect Diff '^\+__kernel void' "the OpenCL source added"
keys Escape
keys 1
expect_screen 'Source · r_32_4_128_128 ─' "a tab key shows the source again"

# A @jit step: its replayed kernels are in Kernels as in Timings, and the headers stay put while they scroll
keys Enter
line 'w = randn(8, 4, seed=1).realize(); x = randn(16, 8, seed=2).realize(); opt = nn.optim.SGD([w], lr=0.1)'
line '@jit'
line '@Context(TRAINING=1)'
line 'def step():'
line '    opt.zero_grad()'
line '    loss = (x @ w).relu().sum()'
line '    loss.backward()'
line '    opt.step()'
line '    return loss.realize()'
line ''
line 'for i in range(4): print(round(step().item(), 1))'
line ''
expect Kernels ' r_[0-9_]+ \(jit\) +CPU' "the replayed kernels are in the Kernels pane"
keys Escape
keys Tab z  # Kernels, zoomed: every row on screen
in_kernels=$(kernel_rows Kernels '^ *[0-9]+ [rE]_')
keys z Tab z
in_timings=$(kernel_rows Timings '^[rE]_')
keys z
[ "$in_kernels" -gt 6 ] && [ "$in_kernels" = "$in_timings" ] &&
  echo "ok: Kernels lists the $in_timings kernels Timings lists" ||
  fail "Kernels lists $in_kernels kernels, Timings $in_timings"
keys BTab End
expect_screen '↑[0-9]+ ━┛' "the Kernels pane scrolled"
first_line Kernels | grep -qE '^ +K kernel' && echo "ok: the Kernels header stays put" ||
  fail "the Kernels pane's first line is '$(first_line Kernels)'"
keys Tab NPage NPage
expect_screen '↑[0-9]+ [↓→0-9 ]*━┛' "the Timings pane scrolled"
first_line Timings | grep -qE '^kernel +device' && echo "ok: the Timings header stays put" ||
  fail "the Timings pane's first line is '$(first_line Timings)'"

keys Enter
line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
report
