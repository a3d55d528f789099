#pragma once
// The Roofline pane: the kernels of the schedule that K numbers on their devices' rooflines, drawn in
// characters to the pane's size with the selected kernel marked '@', then each kernel's figures and
// each device's peaks with where they come from, as :roofline prints them.
#include <vector>

#include "viz/roofline.h"
#include "viz/tui/pane_text.h"
#include "viz/tui/tui.h"

namespace tr::tui {

// `selected` is a K; width and height are the pane's inside.
PaneText roofline_pane(const Roofline& r, int selected, int width, int height);
// The items' kernels that ran, on the peaks the host keeps for their devices; where it keeps none for a
// device, a placeholder says how to measure them.
PaneText roofline_pane(const std::vector<TuiItem>& items, int selected, const TuiHost& host, int width, int height);

}  // namespace tr::tui
