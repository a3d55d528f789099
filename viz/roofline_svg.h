#pragma once
// The roofline as an SVG picture to share (`:roofline FILE.svg`): log-log axes of FLOP/B and FLOP/s,
// each device's memory and compute roofs, and each kernel a point labelled with K, its name and the
// percentage of its bound; kernels that do no FLOPs are listed under the plot, which cannot place them.
#include <string>
#include <vector>

#include "viz/roofline.h"

namespace tr {

std::string roofline_svg(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks);

}  // namespace tr
