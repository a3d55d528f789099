#include "viz/tui/colors.h"

#include <curses.h>

namespace tr::tui {
namespace {

enum Pair : short { kKeyword = 1, kType, kNumber, kString, kComment, kFocus, kStage, kRemoved, kAdded, kHunk };

bool with_colour = false;

}  // namespace

void init_colors() {
  with_colour = has_colors();
  if (!with_colour) return;
  // -1 below is the terminal's own background, dark or light; without it, no colour at all.
  with_colour = start_color() == OK && use_default_colors() == OK;
  if (!with_colour) return;
  // Mid-luminance tones of the 256-colour cube stay legible on black and on white; with 8 colours,
  // the ones that do (blue, cyan and yellow vanish on one or the other).
  const bool rich = COLORS >= 256;
  init_pair(kKeyword, rich ? 127 : COLOR_MAGENTA, -1);
  init_pair(kType, rich ? 30 : COLOR_GREEN, -1);
  init_pair(kNumber, rich ? 166 : COLOR_RED, -1);
  init_pair(kString, rich ? 64 : COLOR_GREEN, -1);
  init_pair(kComment, rich ? 244 : -1, -1);
  init_pair(kFocus, rich ? 33 : COLOR_MAGENTA, -1);
  init_pair(kStage, rich ? 166 : COLOR_RED, -1);
  // a diff's lines as diff viewers colour them: removed red, added green, hunks cyan (magenta with 8)
  init_pair(kRemoved, rich ? 160 : COLOR_RED, -1);
  init_pair(kAdded, rich ? 28 : COLOR_GREEN, -1);
  init_pair(kHunk, rich ? 31 : COLOR_MAGENTA, -1);
}

int style_attr(Style s) {
  const auto pair = [](short p) { return with_colour ? static_cast<int>(COLOR_PAIR(p)) : 0; };
  switch (s) {
    case Style::Keyword: return pair(kKeyword) | A_BOLD;
    case Style::Type: return with_colour ? pair(kType) : A_UNDERLINE;
    case Style::Number: return pair(kNumber);
    case Style::String: return pair(kString);
    case Style::Comment: return pair(kComment) | A_DIM;
    // without colour: removed dim, added bold, so that the two still differ
    case Style::Removed: return with_colour ? pair(kRemoved) : A_DIM;
    case Style::Added: return with_colour ? pair(kAdded) : A_BOLD;
    case Style::Hunk: return pair(kHunk) | A_BOLD;
    case Style::Plain: break;
  }
  return A_NORMAL;
}

int frame_attr(Frame f) {
  switch (f) {
    case Frame::Focused: return (with_colour ? static_cast<int>(COLOR_PAIR(kFocus)) : 0) | A_BOLD;
    case Frame::Stage: return (with_colour ? static_cast<int>(COLOR_PAIR(kStage)) : 0) | A_BOLD;
    case Frame::Plain: break;
  }
  return A_NORMAL;
}

}  // namespace tr::tui
