#!/usr/bin/env bash
# The linked panes in a real terminal (tmux): a UOp selected in the UOps pane marks the source line it
# made and its AST row, a source line marks its UOps and AST rows, an AST row its UOps and lines. Then:
# the REPL's newest output stays in view when the terminal shrinks; at 80x24 the Kernels and Timings
# columns stay whole, long names cut with an ellipsis; :step names the run's time as Timings totals it;
# after :opt K none, Timings names the kernel as it is.
# Usage: tui_linked_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_linked_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

# Pane $1's lines, each after its left frame character: `▶` where a line is linked.
framed() { screen | "$here/pane.py" "$1" frame; }
# The linked lines of pane $1, without the mark.
linked() { framed "$1" | grep '^▶' | sed 's/^▶//' || true; }
# The screen rows that show something in reverse video (the selected line), read from the capture's
# escape codes (an SGR with a 7 among its numbers) and printed without them.
selected() {
  t capture-pane -p -e -t "$session" | grep -E $'\e\\[([0-9]+;)*7m' | sed 's/\x1b\[[0-9;]*m//g' || true
}
# Presses key $1, $2 times.
press() {
  [ "$2" -gt 0 ] || return 0
  keys $(for _ in $(seq 1 "$2"); do printf '%s ' "$1"; done)
}
# Waits until pane $1 marks exactly $3 lines (default 1) that match the extended regex $2; the screen
# catches up with the keys.
expect_linked() {
  local pane=$1 want=$2 count=${3:-1} n=0
  for _ in $(seq 1 30); do
    n=$(linked "$pane" | grep -cE -- "$want")
    [ "$n" -eq "$count" ] && { echo "ok: $pane marks $count line(s) like /$want/"; return 0; }
    sleep 0.1
  done
  fail "$pane marks $count line(s) like /$want/ (it marks $n)"
}
expect_selected() {
  for _ in $(seq 1 30); do
    grep -qE -- "$1" <<<"$(selected)" && { echo "ok: the line like /$1/ is selected"; return 0; }
    sleep 0.1
  done
  fail "the line like /$1/ is selected"
}
check() {  # $1: what; $2: a command, evaluated anew until it succeeds (3 s at most)
  for _ in $(seq 1 30); do
    eval "$2" && { echo "ok: $1"; return 0; }
    sleep 0.1
  done
  fail "$1"
}
# Each column's right edge: where the header's column name $2 ends, every row of the lines $1 has a
# value that ends there.
aligned() {
  python3 -c 'import sys
lines = sys.stdin.read().splitlines()
head = next((l for l in lines if l.rstrip().endswith(sys.argv[1])), None)
if head is None:
    sys.exit(1)
end = len(head.rstrip())
rows = [l for l in lines[lines.index(head) + 1:] if l.strip() and not l.startswith(("total", "session"))]
sys.exit(0 if rows and all(len(r) >= end and r[end - 1] != " " and (len(r) == end or r[end] == " ") for r in rows) else 1)' "$2" <<<"$1"
}

start
line 'a = tensor([1,2]); b = tensor([3,4]); print((a*b).sum())'
expect REPL '^11 *$' "the dot product runs"
expect Source 'acc0 = \(acc0' "the C source of r_2 is shown"
uops=$(screen | grep -oE 'UOps · r_2 · [0-9]+ uops' | grep -oE '[0-9]+ uops' | cut -d' ' -f1)
store=$((uops - 1))

# UOps -> Source, AST: Esc (alone: Esc and a key at once are Alt and the key), then Tab to Kernels,
# Timings, AST, UOps; the first Down picks UOp 0, the next ones walk to the STORE, the listing's last
keys Escape
keys Tab Tab Tab Tab
keys Down
expect_linked Source 'void r_2\('  # UOp 0, data0: the kernel's head
press Down "$store"
expect_selected " $store STORE"
expect_linked Source '.' 1  # the STORE's one line
expect_linked Source '^ *data0\[0\] = acc0;'
expect_linked AST '^ *0 ━┳ STORE'
expect_linked UOps "^ *$store STORE"

# Source -> UOps, AST: Tab to Roofline, Source; Home selects the first line, Down walks to the sum's line
keys Tab Tab
keys Home
row=$(pane Source | grep -nE 'acc0 = \(acc0' | head -1 | cut -d: -f1)
press Down $((row - 2))  # the pane's first line is its tab line
expect_selected 'acc0 = \(acc0'
expect_linked UOps '^ *[0-9]+ ALU' 2  # the add, and the multiply inlined into it
expect_linked UOps '^ *[0-9]+ ASSIGN'
expect_linked AST '^ *[12] +┗━┳ (SUM|MUL)' 2

# AST -> UOps, Source: Shift-Tab back to Roofline, UOps, AST; Home, Down: the SUM row
keys BTab BTab BTab
keys Home Down
expect_selected ' 1 +┗━┳ SUM'
expect_linked UOps '^ *[0-9]+ DEFINE_ACC'
expect_linked Source '^ *int acc0 = 0;'

# a click on a line of Source selects it: a load's line marks its LOAD and the AST's LOAD row
click 4 "$(row_of 'int val0 = data1')"
expect_selected 'int val0 = data1'
expect_linked UOps '^ *[0-9]+ LOAD' 1
expect_linked AST '^ *3 +┣━━ LOAD'

# a tab whose backend lowers the kernel again links nothing, and says so: Shift-Tab to Roofline, UOps,
# a UOp selected there, then the CUDA tab
keys BTab BTab
keys Down
keys 5
expect_screen 'Source · r_2 · lowered again' "the CUDA tab says its UOps are its own"
expect_linked Source '.' 0

# the REPL's newest output stays at its bottom when the terminal shrinks
keys Enter
line 'print(arange(40).reshape(40, 1) * 1000)'
line 'print(12345678)'
expect REPL '^12345678' "the newest output is shown"
t resize-window -t "$session" -x 80 -y 24
sleep 0.5
expect REPL '^12345678' "after shrinking to 80x24 the newest output is still shown"
expect REPL '>>> ' "and the prompt under it"

# at 80x24, long names are cut with an ellipsis and the columns stay whole
line 'x = rand(2,3,4,5,6,7); print(x.sum(axis=5).shape)'
expect Kernels '…' "a long kernel name is cut with an ellipsis in Kernels"
kernels_bottom() { screen | grep -E '^[└┗]' | head -1 | sed 's/[┘┛].*//'; }
check "Kernels keeps its columns whole and aligned" 'aligned "$(pane Kernels)" time'
check "nothing of Kernels is beyond its right edge" '! grep -q "→" <<<"$(kernels_bottom)"'
check "Timings keeps its columns whole and aligned" 'aligned "$(pane Timings)" "GB/s"'
t resize-window -t "$session" -x 120 -y 40
sleep 0.5

# :step's run: the time it names is Timings' total
line ':step (a*b).sum()'
for _ in $(seq 1 6); do keys Space; done
expect_screen 'ran: 1 kernel' ":step reaches the run"
said=$(screen | grep -oE 'in [0-9]+\.[0-9]{3} ms \(scheduling' | grep -oE '[0-9]+\.[0-9]{3}')
total=$(pane Timings | grep -E '^total:' | grep -oE '[0-9]+\.[0-9]{3} ms' | cut -d' ' -f1)
[ -n "$said" ] && [ "$said" = "$total" ] && echo "ok: :step's time ($said ms) is Timings' total" ||
  fail ":step's time ($said ms) is Timings' total ($total ms)"
keys Escape

# after :opt K none, Timings and Kernels name the kernel as it is now, not as the opt before made it
keys Enter
line 'c = rand(64, 64); c.realize(); d = c.sum(1); d.realize()'
line ':opt 0 UPCAST 0 4'
expect Timings '^r_16_4_64 ' ":opt 0 UPCAST 0 4 renames the kernel in Timings"
line ':opt 0 none'
expect Timings '^r_64_64 ' ":opt 0 none gives the kernel its name without opts in Timings"
expect_no Timings 'r_16_4_64' "Timings keeps no old name"
expect_no Kernels 'r_16_4_64' "Kernels keeps no old name"

line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
report
