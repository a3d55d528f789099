// Tensors over symbolic sizes: the Variable rides on the lazy node beside the bound value.
#include "core/lazy/symbolic_shape.h"
#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {

Tensor Tensor::bind_sizes(const std::vector<ExprRef>& sym) const { return Tensor(tr::bind_sizes(node(), sym)); }

std::vector<ExprRef> Tensor::symbolic_sizes() const { return node_sym(*node()); }

ShapeTracker Tensor::tracker() const { return ShapeTracker::contiguous(shape(), symbolic_sizes()); }

Tensor Tensor::shrink_to(const std::vector<ExprRef>& sym, const Shape& sizes) const {
  if (sym.size() != shape().size() || sizes.size() != shape().size())
    fail("shape", "shrink_to needs a Variable (or none) and a size for each of the {} dims", shape().size());
  std::vector<Range> bounds;
  for (size_t k = 0; k < sym.size(); k++) {
    if (sym[k]) variable_value(sym[k], sizes[k]);
    bounds.push_back({0, sym[k] ? sizes[k] : shape()[k]});
  }
  // shrinking first would give a dim of one element stride 0, and lose the stride the Variable needs
  return move(tracker().shrink(bounds, sym));
}

}  // namespace tr
