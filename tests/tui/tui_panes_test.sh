#!/usr/bin/env bash
# The TUI's panes in a real terminal (tmux at 120x40): K numbered as :kernels numbers it, :src/:ast/:uops
# moving the panes, the newest output at the bottom, long lines scrolled sideways or wrapped, the mouse,
# `/` search, tab keys beyond the last tab, a statement of several lines as one history entry.
# Usage: tui_panes_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_panes_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"


start

# K: the Kernels pane numbers kernels and copies as :kernels does
line 'a = tensor([1,2]); b = tensor([3,4]); print((a*b).sum())'
expect REPL '^11 *$' "the dot product runs"
line ':kernels'
expect REPL 'kernel +r_2' ":kernels lists r_2"
k_listed=$(pane REPL | grep -E '^ *[0-9]+ kernel +r_2' | tail -1 | awk '{print $1}')
k_pane=$(pane Kernels | awk '$2 == "r_2" {print $1}')
[ -n "$k_listed" ] && [ "$k_listed" = "$k_pane" ] && echo "ok: r_2 is K=$k_pane in the pane and in :kernels" ||
  fail "r_2 is K=$k_listed in :kernels but K=$k_pane in the Kernels pane"
copies_listed=$(pane REPL | grep -cE '^ *[0-9]+ copy ')
copies_pane=$(pane Kernels | grep -cE '^ *[0-9]+ copy ')
[ "$copies_listed" = "$copies_pane" ] && echo "ok: the pane lists the $copies_pane copies :kernels lists" ||
  fail "the pane lists $copies_pane copies, :kernels $copies_listed"
expect Kernels '^ +K kernel' "the Kernels pane has a K column"

# The newest output at the bottom, right above the input line
line 'print(1000 + 1)'
line 'print(2000 + 2)'
expect REPL '^2002 *$' "the second print shows"
order=$(pane REPL | grep -nE '^(1001|2002) *$' | cut -d: -f2 | tr -d ' ' | tr '\n' ' ')
[ "$order" = "1001 2002 " ] && echo "ok: older output above newer" || fail "the REPL pane shows '$order' from the top"
last=$(pane REPL | grep -v '^ *$' | tail -1)
grep -q '^>>> ' <<<"$last" && echo "ok: the input line is the pane's last" || fail "the REPL pane ends with '$last'"
[ "$(pane REPL | grep -v '^ *$' | tail -2 | head -1 | tr -d ' ')" = "2002" ] &&
  echo "ok: the newest output stands right above the input line" || fail "the newest output is not above the input"

# :src K BACKEND, :ast K, :uops K move the panes; nothing of the source goes into the REPL pane
line 'x = tensor([1.,2.,3.,4.]).realize(); m = tensor([[1.,2.],[3.,5.]]); print((m - m.mean(axis=0)).sum(axis=1))'
expect REPL '^\[-2\.5 +2\.5\]' "the centred row sums run"
line ':kernels'
first=$(pane REPL | grep -E '^ *[0-9]+ kernel ' | tail -2 | head -1 | awk '{print $1, $3}')
k_first=${first% *}
name_first=${first#* }
line ":src $k_first cuda"
expect Source '\[[0-9]+:cuda\]' ":src K cuda selects the cuda tab"
expect Source "__global__ void $name_first" ":src K shows kernel $k_first, $name_first, in CUDA"
expect REPL "the Source pane shows kernel $k_first" ":src K says where it went"
expect_no REPL '__global__' "the source is not printed into the REPL pane"
grep -q "AST · $name_first ─" <<<"$(screen)" && echo "ok: the AST pane follows to kernel $k_first" ||
  fail "the AST pane shows kernel $k_first ($name_first)"
line ':uops -2'  # -1 is the copy that read the value back for print
expect REPL "the UOps pane shows kernel" ":uops K moves the panes to the last kernel"
line ":ast $k_first"
expect REPL "the AST pane shows kernel $k_first" ":ast K moves the panes"
line ':src 99'
expect REPL 'no kernel 99' "a K beyond the schedule is an error in the REPL pane, as in plain mode"
line ':src 0'
expect REPL 'item 0 of the last schedule is a copy' ":src of a copy says so, as in plain mode"
line ':kernels (x * 2).exp()'
expect Kernels '^ *0 E_4 +CPU +not run' ":kernels x lists its schedule, not run, in the Kernels pane"
line ':src 0 opencl'
expect Source '__kernel void E_4' ":src K then shows that schedule's kernel"
line ':kernels'
expect REPL 'kernel +E_4' ":kernels lists the same schedule"
line 'print((m - m.mean(axis=0)).sum(axis=1))'
expect Kernels "^ *[0-9]+ $name_first +CPU +[0-9.]+us" "a run brings back the run's schedule, timed"

# Tab keys beyond the last tab (none while there are 9 tabs) change nothing; Left and Right still go round
tabs=$(pane Source | head -1 | grep -oE '[0-9]+:' | wc -l)
shown=$(pane Source | head -1 | grep -oE '\[[0-9]+:[a-z]+\]')
keys Escape
for n in $(seq $((tabs + 1)) 9); do
  keys "$n"
  expect Source "$(sed 's/[][]/\\&/g' <<<"$shown")" "key $n, beyond the $tabs tabs, leaves the tab at $shown"
done

# Mouse: a click focuses a pane and selects a kernel row; the wheel scrolls the pane under it
read -r k_first name_first second < <(pane Kernels | awk 'NR > 1 && $2 !~ /^copy/ {
  n++; if (n == 1) printf "%s %s ", $1, $2; if (n == 2) print $2 }')
[ -n "$second" ] || fail "the centred row sums ran two kernels"
kernels_top=$(row_of '[┌┏╔][─━═] Kernels')
row=$((kernels_top + 2 + k_first))
click 4 "$row"
expect_screen '┏━ Kernels' "a click focuses the Kernels pane"
expect_screen "AST · $name_first ─" "a click on the row of kernel $k_first selects $name_first"
keys Down
expect_screen "AST · $second ─" "Down selects the next kernel, $second"
click 4 "$row"
expect_screen "AST · $name_first ─" "a click on the row of kernel $k_first selects $name_first again"
uops_top=$(row_of '[┌┏╔][─━═] UOps')
uops_x=$(screen | sed -n "$((uops_top + 1))p" | python3 -c 'import sys; print(sys.stdin.read().find("UOps") + 2)')
mouse 65 "$uops_x" $((uops_top + 3))
expect_screen '↑3' "the wheel scrolls the pane under it 3 lines"
mouse 64 "$uops_x" $((uops_top + 3))
expect_screen '┏━ Kernels' "the wheel leaves the focus where it was"

# / search in the focused pane; n and N
keys Tab Tab Tab
expect_screen '┏━ UOps' "Tab reaches the UOps pane"
keys / D E F I N E _ G L O B A L Enter
expect_screen '/DEFINE_GLOBAL: line [0-9]+ of' "/ finds a text in the focused pane"
at=$(screen | grep -oE '/DEFINE_GLOBAL: line [0-9]+' | grep -oE '[0-9]+$')
keys n
expect_screen "/DEFINE_GLOBAL: line $((at + 1)) of" "n finds the next line"
keys N
expect_screen "/DEFINE_GLOBAL: line $at of" "N goes back"
keys / z q z q Enter
expect_screen '/zqzq: not in the UOps pane' "a text that is nowhere says so"

# Long lines: sideways in every pane (here the REPL and Source), or wrapped by a key
keys Enter
tail_name="long_$(printf 'q%.0s' $(seq 1 150))_end"
line "$tail_name + 1"
expect REPL "^error: name 'long_qqqq" "an error about a long name"
expect_no REPL '_end' "the long line is cut at the pane's edge"
keys Escape
for _ in 1 2 3 4 5 6 7 8; do keys '>'; done
expect REPL 'q+_end' "> scrolls the REPL pane sideways to the end of the long line"
expect_screen '←[0-9]+' "the frame says how far it is scrolled"
keys '<' '<' '<' '<' '<' '<' '<' '<' '<' '<'
expect_no REPL 'q_end' "< scrolls back"
keys w
expect REPL 'q+_end' "w wraps the long lines"
[ "$(pane REPL | grep -c 'qqqqqqqqqq')" -ge 4 ] && echo "ok: the wrapped lines take several rows" ||
  fail "the wrapped long lines take several rows"
keys w
expect_no REPL '_end' "w again scrolls instead"
keys BTab
expect_screen '┏━ Source' "Shift-Tab reaches the Source pane"
keys '>' '>' '>' '>' '>' '>' '>' '>'
expect_screen '←[0-9]+' "> scrolls the Source pane sideways"

# A statement of several lines is one history entry; the next session recalls it whole
keys Enter
line 'y = tensor([[1,2],'
line '[3,4]]); print(y.sum(axis=1))'
expect REPL '^\[3 7\]' "the statement of two lines runs"
line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
python3 - "$work/.tinyrepl_history" <<'PY' && echo "ok: one history entry of two lines" || fail "one history entry of two lines"
import sys
lines = open(sys.argv[1]).read().split("\n")
entries = []
for l in lines:
    if l.startswith("#"):
        entries.append([])
    elif entries:
        entries[-1].append(l)
want = ["y = tensor([[1,2],", "[3,4]]); print(y.sum(axis=1))"]
sys.exit(0 if any(e[:2] == want for e in entries) else 1)
PY
start
keys Up Up
expect REPL '>>> y = tensor\(\[\[1,2\],↵\[3,4\]\]\); print' "Up recalls both lines as one entry"
keys Enter
expect REPL '^\[3 7\]' "and they run again as one input"
keys C-u C-d
expect_screen 'tinyrepl exited with 0' "Ctrl-D leaves"

report
