#include "core/base/error.h"
#include "core/tensor/layout.h"

namespace tr {

Tensor pad_to(const Tensor& x, const std::vector<int64_t>& shape, ConstValue value) {
  if (static_cast<int>(shape.size()) != x.ndim())
    fail("shape", "pad_to needs {} sizes for shape {}, got {}", x.ndim(), shape_str(x.shape()), shape.size());
  std::vector<Range> padding;
  for (size_t i = 0; i < shape.size(); i++) {
    const int64_t have = x.shape()[i], want = shape[i] == -1 ? have : shape[i];
    if (want < have) fail("shape", "pad_to cannot pad dim {} of size {} to {}", i, have, want);
    padding.push_back({0, want - have});
  }
  return x.pad(padding, value);
}

}  // namespace tr
