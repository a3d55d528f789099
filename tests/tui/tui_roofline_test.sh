#!/usr/bin/env bash
# The Roofline pane in a real terminal (tmux at 120x40): before the peaks are measured it says how to
# measure them; after :roofline it plots the kernels on log axes under the roofs, the selected one as
# '@' and named in the title, following the selection; zoomed, its figures and peaks follow the plot.
# Usage: tui_roofline_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_roofline_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

# Waits until the Roofline pane's text, its lines joined (it folds its notes to its width), matches $1.
expect_joined() {
  local want=$1 what=$2
  for _ in $(seq 1 300); do
    pane Roofline | sed 's/ *$//' | tr '\n' ' ' | grep -Eq -- "$want" && { echo "ok: $what"; return 0; }
    sleep 0.1
  done
  fail "$what"
}

# a cache of the test's own, so that no peaks are kept yet (the benchmarks then compile: a few seconds)
export XDG_CACHE_HOME="$work/cache"
start
expect_joined 'no kernel has run yet' "the Roofline pane is on screen at 120x40, empty"

line 'a = rand(256, 256); b = rand(256, 256); print(((a @ b).relu() + 1).sum())'
expect REPL '^[0-9.e+]+ *$' "the matmul and its sum run"
expect_joined 'the peaks of CPU are not measured yet: :roofline measures them' \
  "without peaks the pane says so, and how to measure them"

line ':roofline'
expect REPL 'CPU peaks, measured now' ":roofline measures the peaks"
expect REPL 'memory bandwidth +[0-9.]+ GB/s +measured: E_' ":roofline shows the bandwidth and where it comes from"
expect Roofline '^ +[0-9.]+ \|' "the plot has its GFLOPS axis"
expect Roofline 'float32' "the plot names the float32 roof"
expect Roofline '/' "the plot draws the memory roof"
expect Roofline '@' "the selected kernel is marked"
expect Roofline '^ +0\.01 ' "the intensity axis starts at a decade"

# Up selects the kernel before the last (the matmul): the title follows, and the last kernel gets its K back
last=$(pane Kernels | awk 'NR > 1 && NF > 2 && $2 !~ /^copy/ {k = $1; n = $2} END {print k, n}')
k_last=${last% *}
name_last=${last#* }
before=$(pane Kernels | awk -v k="$k_last" 'NR > 1 && NF > 2 && $2 !~ /^copy/ && $1 < k {k2 = $1; n = $2} END {print k2, n}')
k_before=${before% *}
name_before=${before#* }
expect_screen "Roofline · $name_last [0-9]+% " "the title names the selected kernel, $name_last, and its share"
keys Escape
keys Tab
keys Up
expect_screen "Roofline · $name_before[ ─]" "Up selects $name_before, and the title follows"
# the plot's markers: what stands right of its axis, less the roofs' names
markers() { pane Roofline | grep -E '^ *[0-9.]* \|' | cut -d'|' -f2- | sed -E 's/float[0-9]+( [0-9.]+ GFLOPS)?//'; }
grep -q "$k_last" <<<"$(markers)" && grep -q '@' <<<"$(markers)" &&
  echo "ok: kernel $k_last stands as its K once it is not selected, the selected one as @" ||
  fail "the plot shows kernel $k_last as its K and the selected one as @"

# Zoomed, the plot takes the screen; below it each kernel's figures, the selected one pointed at, and the peaks
keys Tab Tab Tab Tab
expect_screen '┏━ Roofline' "Tab reaches the Roofline pane, after UOps"
keys z
expect Roofline 'float16 [0-9.]+ GFLOPS' "zoomed, the float16 roof has room for its name and figure"
keys End
expect Roofline "^@ *$k_before $name_before " "the figures follow the plot, the selected kernel's pointed at"
expect Roofline 'tensor cores +- +absent: the CPU has no matrix units' "the peaks say where each comes from"
keys z

keys Enter
line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
report
