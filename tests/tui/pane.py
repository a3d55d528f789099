#!/usr/bin/env python3
"""Prints the inside of one TUI pane from a tmux capture-pane on stdin: the box whose title (on its
top border) starts with the argument. With a second argument `frame`, each line starts with the pane's
left frame character there (where the linked panes put their marks). Exits 1 when no such pane is on
screen."""
import re
import sys

TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT = "┌┏╔", "┐┓╗", "└┗╚"


def pane(lines, title, frame=False):
    pattern = re.compile(r"[─━═] " + re.escape(title))
    for y, line in enumerate(lines):
        m = pattern.search(line)
        if not m:
            continue
        left = max(line.rfind(c, 0, m.start()) for c in TOP_LEFT)
        rights = [i for i in (line.find(c, m.end()) for c in TOP_RIGHT) if i >= 0]
        if left < 0 or not rights:
            continue
        right = min(rights)
        inside = []
        for below in lines[y + 1:]:
            if len(below) <= left or below[left] in BOTTOM_LEFT:
                break
            inside.append(below[left if frame else left + 1:right])
        return inside
    return None


def main():
    found = pane(sys.stdin.read().splitlines(), sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "frame")
    if found is None:
        sys.exit(1)
    print("\n".join(found))


if __name__ == "__main__":
    main()
