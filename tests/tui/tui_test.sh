#!/usr/bin/env bash
# Drives the real tinyrepl in a terminal: tmux runs it at 120x40, send-keys types, capture-pane reads
# the screen, pane.py cuts one pane out of it. Usage: tui_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

start
for title in Kernels Timings AST UOps Source REPL; do expect "$title" '.' "pane $title is on screen at 120x40"; done

line 'a = tensor([1,2]); b = tensor([3,4]); print((a*b).sum())'
expect REPL '^11 *$' "the REPL shows the dot product, 11"
expect Kernels '^ *[0-9]+ r_2 ' "Kernels lists r_2"
expect Timings 'GFLOPS' "Timings has GFLOPS"
expect Timings '^r_2 .*█' "Timings has a bar for r_2"
expect Timings '^session total' "Timings has the session's totals"

# Esc leaves the input line, Tab moves to Kernels, Home selects its first kernel: r_2
keys Escape
keys Tab
keys Home
expect AST 'STORE' "AST shows the STORE of r_2"
expect AST 'ShapeTracker views' "AST shows the ShapeTracker views"
expect UOps 'DEFINE_GLOBAL' "UOps shows DEFINE_GLOBAL"
expect Source 'for \(int ridx0 = 0; ridx0 < 2; ridx0\+\+\)' "Source shows the loop in C"
grep -q 'AST · r_2' <<<"$(screen)" || fail "the AST pane is titled with the selected kernel"

# Each source tab by its number on the tab line
tab() {
  local n
  n=$(pane Source | head -1 | grep -Eo "[0-9]+:$1" | cut -d: -f1)
  [ -n "$n" ] || { fail "Source has a tab for $1"; return; }
  keys "$n"
  expect Source "\[$n:$1\]" "the $1 tab is selected"
}
tab opencl
expect Source '__kernel void r_2' "OpenCL spells a kernel __kernel"
tab cuda
expect Source '__global__ void r_2' "CUDA spells a kernel __global__"
tab metal
expect Source 'kernel void r_2' "Metal spells a kernel 'kernel void'"
keys Left
expect Source '\[[0-9]+:opencl\]' "Left goes back a tab"
keys Right
expect Source '\[[0-9]+:metal\]' "Right goes on a tab"
keys 0
expect Source '\[[0-9]+:metal\]' "0, no tab's number, leaves the tab as it was"
tab ptx
expect Source '\.visible \.entry r_2' "PTX spells a kernel .visible .entry"
tab hip
expect Source 'hip/hip_runtime\.h' "HIP includes hip/hip_runtime.h"
tab wgsl
expect Source '@compute @workgroup_size' "WGSL gives a kernel its workgroup size"
# the last tab is past the pane's width until it is selected: the tab line shifts to show it
keys 9
expect Source '\[9:qcom\]' "9 selects the last tab, qcom, shifting the tab line"
expect Source '__kernel void r_2' "QCOM spells a kernel as OpenCL does"

# Centring the columns, then summing the rows: the column means are a kernel of their own (their
# reduce walks other rows), and the second kernel reads m and the means (idx=2), the first only m
keys Enter
line 'm = tensor([[1.,2.],[3.,5.]]); print((m - m.mean(axis=0)).sum(axis=1))'
expect REPL '^\[-2\.5 +2\.5\]' "the REPL shows the row sums"
keys Escape
keys Tab
keys Home
expect_no AST 'idx=2' "the first kernel reads one buffer"
keys Down
expect AST 'LOAD MemBuffer\(idx=2' "the second kernel reads the means too"
second=$(pane Kernels | awk 'NR > 1 && $2 !~ /^copy/ {print $2}' | sed -n 2p)
grep -q "AST · $second" <<<"$(screen)" || fail "the AST is the second kernel's ($second)"

# Index spellings come with a GPU kernel: on the OPENCL device when it opens here
keys Enter
line ':device OPENCL'
opencl=""
for _ in $(seq 1 300); do
  repl=$(pane REPL)
  grep -q 'new tensors go to OPENCL' <<<"$repl" && { opencl=yes; break; }
  grep -q 'device OPENCL is not available' <<<"$repl" && break
  sleep 0.1
done
if [ -n "$opencl" ]; then
  line 'c = (arange(1024)*2).realize()'
  expect Kernels '^ *[0-9]+ E_1024' "an element-wise kernel ran on OPENCL"
  keys Escape
  keys BTab  # from the REPL back to Source, zoomed: a GPU kernel's signature is long
  keys z
  tab opencl
  expect Source 'get_global_id' "OpenCL indexes with get_global_id"
  tab cuda
  expect Source 'blockIdx' "CUDA indexes with blockIdx"
  tab metal
  expect Source 'thread_position_in_grid' "Metal indexes with thread_position_in_grid"
  tab ptx
  expect Source '%ctaid\.x' "PTX indexes with %ctaid"
  keys z
  keys Enter
  line ':device CPU'
else
  echo "note: the OPENCL device does not open here; the index spellings of GPU kernels are not checked"
fi

# :step walks the stages, one key each, and says which
keys Enter
line ':step (a*b).sum()'
expect 'Graph of (a*b).sum()' 'SUM' "step 1 shows the lazy graph in the AST pane"
expect_screen 'Step 1/[0-9]+: the lazy graph' "step 1 explains itself"
keys Space
expect 'Schedule of' 'why:' "step 2 shows the schedule with its reasons"
keys Space
expect AST 'STORE' "step 3 shows the kernel's AST"
expect_screen 'It ends here' "step 3 says why the kernel ends there"
keys Space
expect_screen 'the opts of r_2' "step 4 explains the opts"
keys Space
expect UOps 'RANGE' "step 5 shows the UOps"
keys Space
expect Source 'for \(int ridx0' "step 6 shows the source"
keys Space
expect_screen 'ran: 1 kernel' "the last step runs the kernel"
expect Timings '^r_2 ' "and times it"
keys Space
expect_screen 'Enter: run' "the walk ends and the input line is back"

# IPython's help: `a.softmax?` prints the entry in the REPL pane; Tab after '?' completes from the help
# table, as the plain REPL does
line 'a.softmax?'
expect REPL '^method x\.softmax\(axis=-1, dtype=None\)' "a.softmax? shows the entry of softmax"
expect REPL '^    print\(x\.softmax\(\)\)' "and its example"
t send-keys -t "$session" -l '?layern'
keys Tab
expect REPL '^>>> \?layernorm' "Tab after ? completes layernorm"
keys Enter
expect REPL '^method x\.layernorm\(axis=-1, eps=1e-5\)' "?layernorm shows the entry"

# Errors and odd input keep the session
line 'x = = 1'
expect REPL 'error' "a syntax error is shown"
line ':step 3'
expect REPL 'not a tensor' ":step of a number says it is not a tensor"
keys C-v C-a Enter
line 'print(a+b)'
expect REPL '^\[4 6\]' "the session carries on with its names"
line 'y = tensor([[1,2],'
expect REPL '^\.\.\. ' "an open bracket asks for another line"
line '[3,4]]); print(y.sum(axis=1))'
expect REPL '^\[3 7\]' "and the lines run as one input"

# Keys, zoom, redraw
keys F1
expect Keys 'zoom' "F1 shows the keys"
keys Escape
keys Escape
keys Tab
keys Tab
keys z
grep -q ' Kernels ' <<<"$(screen)" && fail "z zooms the focused pane alone"
expect Timings 'GFLOPS' "the zoomed pane fills the screen"
keys z
expect Kernels '.' "z again shows every pane"
keys C-l
expect REPL '>>>' "Ctrl-L redraws"

# Resizing relays the panes; below 80x24 a message says why there are none
t resize-window -t "$session" -x 80 -y 24
sleep 0.5
for title in Kernels Timings AST UOps Source REPL; do expect "$title" '.' "pane $title is on screen at 80x24"; done
t resize-window -t "$session" -x 60 -y 20
expect_screen 'at least 80x24' "below 80x24 the TUI says it needs more room"
t resize-window -t "$session" -x 120 -y 40
expect Kernels 'kernel' "back at 120x40 the panes return"

keys Enter
line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit leaves with status 0"
grep -q 'print((a\*b).sum())' "$work/.tinyrepl_history" && echo "ok: the history file keeps the lines" ||
  fail "the history file keeps the lines"

start
keys Up
expect REPL '^>>> :quit' "Up recalls the last session's line"
keys C-u
keys C-d
expect_screen 'tinyrepl exited with 0' "Ctrl-D leaves with status 0"

# A long statement runs off the terminal's thread: the status line shows its progress, F1 answers,
# and Ctrl-C (SIGINT to the program, as the terminal's driver sends it) stops it within a second,
# keeping the names made before.
start
line 'x = arange(3) + 1; print(x)'
expect REPL '^\[1 2 3\]' "x is made"
line 'a = ones(4096,4096).contiguous(); r = a @ a; print(r[0,0])'
expect_screen 'running kernel' "the status line shows the running kernel"
keys F1
expect Keys 'zoom' "F1 shows the keys while a statement runs"
keys Escape
program=$(pgrep -P "$(t list-panes -t "$session" -F '#{pane_pid}')" -f tinyrepl)
sent=$(date +%s%N)
kill -INT "$program"
# a tight look at the whole screen: expect's pane cutting would add its own time to the figure
for _ in $(seq 1 1500); do screen | grep -q KeyboardInterrupt && break; sleep 0.02; done
waited_ms=$(( ($(date +%s%N) - sent) / 1000000 ))
expect REPL 'KeyboardInterrupt' "Ctrl-C stops the matmul"
[ "$waited_ms" -lt 1000 ] && echo "ok: the REPL pane answered Ctrl-C in $waited_ms ms" ||
  fail "the REPL pane answered Ctrl-C in $waited_ms ms, not under 1000"
line 'print(x)'
expect REPL '^\[1 2 3\] *$' "x survives the interrupt"
keys C-d
expect_screen 'tinyrepl exited with 0' "Ctrl-D leaves after an interrupt"

report
