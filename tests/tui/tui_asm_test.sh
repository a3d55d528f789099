#!/usr/bin/env bash
# The Source pane's Asm tab in a real terminal (tmux at 120x40): `a` shows the selected kernel's machine
# code as its device compiled it, each run of instructions under its source line; Left and Right reach
# it as the last tab; `:asm K BACKEND` typed in the REPL pane selects it with that backend's code.
# Usage: tui_asm_test.sh PATH/TO/tinyrepl
set -u

tinyrepl=${1:?usage: tui_asm_test.sh PATH/TO/tinyrepl}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tmux_lib.sh"

start
line 'a = arange(64).float().realize(); b = (a * 3).realize()'
expect Kernels '^ *0 [EFr]_' "the kernel runs and is listed"
name=$(pane Kernels | awk 'NR == 2 {print $2}')

keys Escape
keys a
expect_screen "Asm · $name · c[ ─]" "a selects the Asm tab: the title names the kernel and the backend that ran it"
keys BTab
keys z
expect_screen '┏━ Asm' "Shift-Tab from the REPL pane focuses the Source pane, z zooms it"
expect Asm '\[asm\]' "the tab line marks asm as the selected tab"
expect Asm '// c: GNU objdump' "the Asm tab says what it disassembled"
expect Asm "^$name:" "the kernel's function heads its instructions"
expect Asm '^ +[0-9]+ │ .*data0(\[|\+).*=' "the line that stores the result stands above its instructions"
expect Asm '^ +[0-9a-f]+  (v?mov|ret)' "the instructions follow, each with its address"

keys z
keys Left
expect_screen "Source · $name[ ─]" "Left goes back to the last backend's source"
expect Source '\[9:qcom\]' "the tab before asm is qcom's"
keys Right
expect_screen "Asm · $name · c[ ─]" "Right comes round to the Asm tab again"
keys Right
expect_screen "Source · $name[ ─]" "and on round to the first backend"
expect Source '\[1:c\]' "the first tab is c"

keys Enter
line ':asm 0 llvm'
expect REPL "the Source pane shows kernel 0 \\($name\\), tab asm" ":asm K BACKEND says where it shows the code"
expect_screen "Asm · $name · llvm[ ─]" ":asm 0 llvm selects the Asm tab with LLVM's code"
expect Asm '; llvm: not the code that ran' "the Asm tab says the LLVM code is not what ran"

line ':quit'
expect_screen 'tinyrepl exited with 0' ":quit"
report
