#include "core/realize/footprint.h"

#include <algorithm>
#include <cstdlib>

namespace tr {

int64_t elements_touched(const ShapeTracker& st) {
  int64_t fewest = st.size();
  for (const View& v : st.views()) {
    int64_t n = 1;
    for (size_t d = 0; d < v.shape.size(); d++) {
      const int64_t extent = v.mask ? (*v.mask)[d].second - (*v.mask)[d].first : v.shape[d];
      if (extent <= 0) return 0;
      if (v.strides[d] != 0) n *= extent;
    }
    fewest = std::min(fewest, n);
  }
  return fewest;
}

int64_t largest_index(const ShapeTracker& st) {
  int64_t largest = 0;
  for (const View& v : st.views()) {
    int64_t reach = std::max<int64_t>(v.offset, 0);
    for (size_t d = 0; d < v.shape.size(); d++) reach += std::max<int64_t>(v.shape[d] - 1, 0) * std::abs(v.strides[d]);
    largest = std::max({largest, reach, v.offset < 0 ? -v.offset : int64_t{0}});
  }
  return largest;
}

int64_t bytes_touched(const AstRef& ast, const std::vector<std::pair<DType, int64_t>>& buffers) {
  std::vector<int64_t> elements(buffers.size(), 0);
  walk(ast, [&](const AstNode& n) {
    if ((n.op != AstOp::Load && n.op != AstOp::Store) || n.idx < 0 || n.idx >= static_cast<int>(elements.size())) return;
    elements[n.idx] += elements_touched(*n.st);
  });
  int64_t bytes = 0;
  for (size_t i = 0; i < buffers.size(); i++)
    bytes += std::min(elements[i], buffers[i].second) * itemsize(buffers[i].first);
  return bytes;
}

}  // namespace tr
