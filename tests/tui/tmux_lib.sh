# What the TUI's tmux tests share: a tmux server of the test's own, the screen and one pane of it,
# checks that wait for what they expect. Sourced with $tinyrepl and $here set.
for tool in tmux python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: the TUI test needs $tool, which is not installed"; exit 77; }
done

work=$(mktemp -d)
sock="$work/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$work"' EXIT

failures=0
session=""
screen() { t capture-pane -p -t "$session"; }
pane() { screen | "$here/pane.py" "$1"; }
fail() {
  echo "FAIL: $*"
  echo "---- the screen ----"
  screen
  echo "--------------------"
  failures=$((failures + 1))
}

# Waits until pane $1 (a title's start) shows text matching the extended regex $2.
expect() {
  local title=$1 want=$2 what=${3:-"$1 shows /$2/"}
  for _ in $(seq 1 300); do
    grep -Eq -- "$want" <<<"$(pane "$title" 2>/dev/null)" && { echo "ok: $what"; return 0; }
    sleep 0.1
  done
  fail "$what"
  return 1
}
expect_no() {
  local title=$1 unwanted=$2 what=${3:-"$1 does not show /$2/"}
  if grep -Eq -- "$unwanted" <<<"$(pane "$title")"; then fail "$what"; else echo "ok: $what"; fi
}
expect_screen() {
  local want=$1 what=$2
  for _ in $(seq 1 300); do
    grep -Eq -- "$want" <<<"$(screen)" && { echo "ok: $what"; return 0; }
    sleep 0.1
  done
  fail "$what"
}
keys() {
  t send-keys -t "$session" "$@"
  sleep 0.3
}
line() {  # types one input line and runs it
  t send-keys -t "$session" -l "$1"
  t send-keys -t "$session" Enter
  sleep 0.3
}

# The mouse as an xterm reports it in its X10 form (what curses asks of tmux's "screen" terminal):
# Esc [ M, then the button, column and row, each plus 32, 1-based. $1: button (0 press, 3 release,
# 64 wheel up, 65 wheel down), $2 $3: the screen's 0-based column and row.
mouse() {
  t send-keys -t "$session" -H 1b 5b 4d "$(printf %x $(($1 + 32)))" "$(printf %x $(($2 + 33)))" \
    "$(printf %x $(($3 + 33)))"
}
click() {
  mouse 0 "$1" "$2"
  mouse 3 "$1" "$2"
}
# The screen row (0-based) of the first line matching $1, and the column where it matches.
row_of() { screen | grep -nE -- "$1" | head -1 | cut -d: -f1 | awk '{print $1 - 1}'; }

# A shell runs tinyrepl and says how it ended, so that quitting is seen on the screen. HOME keeps the
# history away from the user's; NOOPT=1 keeps the loops that the opts would unroll.
start() {
  local previous=$session
  session="tui$((${session#tui} + 1))"
  t new-session -d -s "$session" -x 120 -y 40 \
    "env HOME='$work' LANG=C.UTF-8 LC_ALL=C.UTF-8 NOOPT=1 '$tinyrepl'; echo \"tinyrepl exited with \$?\"; sleep 600"
  [ -n "$previous" ] && t kill-session -t "$previous"
  expect REPL '>>>' "the TUI starts"
}


# The end of a test script: its status.
report() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures checks failed"
    exit 1
  fi
  echo "all TUI checks passed"
}
