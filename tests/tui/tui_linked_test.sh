#!/usr/bin/env bash
# The linked panes in a real terminal (tmux): a UOp selected in the UOps pane marks the source line it
# made and its AST row, a source line marks its UOps and AST rows, an AST row its UOps and lines. Then:
# the REPL's newest output stays in view when the terminal shrinks; at 80x24 the Kernels and Timings
# columns stay whole, long names cut with an ellipsis; :step names the run's time as Timings totals it.
# Usage: tui_linked_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_linked_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

# Pane $1's lines, each after its left frame character: `▶` where a line is linked.
framed() { screen | "$here/pane.py" "$1" frame; }
# The linked lines of pane $1 (the frame mark dropped).
linked() { framed "$1" | grep '^▶' | cut -c2- || true; }
# The lines of pane $1 in reverse video: the selected line, read from the escape codes of the capture.
selected() {
  t capture-pane -p -e -t "$session" | grep -F $'\e[7m' | sed 's/\x1b\[[0-9;]*m//g' || true
}
# Presses key $1, $2 times.
press() { local n=$2; [ "$n" -gt 0 ] && keys $(for _ in $(seq 1 "$n"); do printf '%s ' "$1"; done); true; }
check() {  # $1: what; the rest: a command that must succeed
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

start
line 'a = tensor([1,2]); b = tensor([3,4]); print((a*b).sum())'
expect REPL '^11 *$' "the dot product runs"
expect Source 'acc0 = \(acc0' "the C source of r_2 is shown"
uops=$(screen | grep -oE 'UOps · r_2 · [0-9]+ uops' | grep -oE '[0-9]+ uops' | cut -d' ' -f1)
store=$((uops - 1))

# UOps -> Source, AST: Esc, then Tab to Kernels, Timings, AST, UOps; the first Down picks UOp 0, the
# next ones walk to the STORE, the listing's last
keys Escape Tab Tab Tab Tab
keys Down
check "UOp 0 (data0) marks the kernel's head in Source" grep -q 'void r_2(' <<<"$(linked Source)"
press Down "$store"
check "the selected UOp is the STORE" grep -qE "^ *$store STORE" <<<"$(selected)"
check "the STORE marks its line in Source" grep -qE '^ *data0\[0\] = acc0;' <<<"$(linked Source)"
check "the STORE marks only its line" test "$(linked Source | wc -l)" -eq 1
check "the STORE marks the AST's STORE row" grep -qE '^ *0 ━┳ STORE' <<<"$(linked AST)"
check "the STORE's row is marked in UOps too" grep -qE "^ *$store STORE" <<<"$(linked UOps)"

# Source -> UOps, AST: Tab to Roofline, Source; Home selects the first line, Down walks to the sum's line
keys Tab Tab
keys Home
row=$(pane Source | grep -nE 'acc0 = \(acc0' | head -1 | cut -d: -f1)
press Down $((row - 2))  # the pane's first line is its tab line
check "the sum's line is selected" grep -qE 'acc0 = \(acc0' <<<"$(selected)"
check "the sum's line marks its ADD and MUL" test "$(linked UOps | grep -cE '^ *[0-9]+ ALU')" -ge 2
check "the sum's line marks its ASSIGN" grep -qE '^ *[0-9]+ ASSIGN' <<<"$(linked UOps)"
check "the sum's line marks the AST's SUM and MUL rows" \
  test "$(linked AST | grep -cE '^ *[12] +┗━┳ (SUM|MUL)')" -eq 2

# AST -> UOps, Source: Shift-Tab back to Roofline, UOps, AST; Home, Down: the SUM row
keys BTab BTab BTab
keys Home Down
check "the SUM row is selected" grep -qE '^ *1 +┗━┳ SUM' <<<"$(selected)"
check "the SUM row marks its accumulator" grep -qE '^ *[0-9]+ DEFINE_ACC' <<<"$(linked UOps)"
check "the SUM row marks the accumulator's line" grep -qE '^ *int acc0 = 0;' <<<"$(linked Source)"

# a tab whose backend lowers the kernel again links nothing, and says so
keys Tab Tab Tab
keys 5
expect_screen 'Source · r_2 · lowered again' "the CUDA tab says its UOps are its own"
check "the CUDA tab marks no line" test -z "$(linked Source)"

# the REPL's newest output stays at its bottom when the terminal shrinks
keys Enter
line 'for i in range(40): print(i * 1000)'
line 'print("newest line")'
expect REPL 'newest line' "the newest output is shown"
t resize-window -t "$session" -x 80 -y 24
sleep 0.5
expect REPL 'newest line' "after shrinking to 80x24 the newest output is still shown"
expect REPL '>>> ' "and the prompt under it"

# at 80x24, long names are cut with an ellipsis and the columns stay whole
line 'x = rand(2,3,4,5,6,7); print(x.sum(axis=5).shape)'
expect Kernels '…' "a long kernel name is cut with an ellipsis in Kernels"
# each column's right edge: where the header's column name ends, every row's value ends
aligned() {  # $1: the pane's lines; $2: the header's last column name
  python3 -c 'import sys
lines = sys.stdin.read().splitlines()
head = next(l for l in lines if l.rstrip().endswith(sys.argv[1]))
end = len(head.rstrip())
rows = [l for l in lines[lines.index(head) + 1:] if l.strip() and not l.startswith(("total", "session"))]
sys.exit(0 if rows and all(len(r) >= end and r[end - 1] != " " and (len(r) == end or r[end] == " ") for r in rows) else 1)' "$2" <<<"$1"
}
check "Kernels keeps its columns whole and aligned" aligned "$(pane Kernels)" time
check "nothing of Kernels is beyond its right edge" bash -c '! grep -q "→" <<<"$0"' "$(screen | grep -E '^[└┗]' | head -1 | sed 's/[┘┛].*//')"
check "Timings keeps its columns whole and aligned" aligned "$(pane Timings)" "GB/s"
t resize-window -t "$session" -x 120 -y 40
sleep 0.5

# :step's run: the time it names is Timings' total
line ':step (a*b).sum()'
for _ in $(seq 1 6); do keys Space; done
expect_screen 'ran: 1 kernel' ":step reaches the run"
said=$(screen | grep -oE 'in [0-9]+\.[0-9]{3} ms \(scheduling' | grep -oE '[0-9]+\.[0-9]{3}')
total=$(pane Timings | grep -E '^total:' | grep -oE '[0-9]+\.[0-9]{3} ms' | cut -d' ' -f1)
check ":step's time ($said ms) is Timings' total ($total ms)" test -n "$said" -a "$said" = "$total"
keys Escape

keys Enter
line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
report
