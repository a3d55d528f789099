#include "core/tensor/own_buffer.h"

#include "core/lazy/lazy.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

Tensor copied(const Tensor& x) {
  if (const auto m = on_each_device({x}, [](const std::vector<Tensor>& s) { return copied(s[0]); })) return *m;
  const LazyRef c = make_node(Op::Contiguous, x.dtype(), x.shape(), x.device(), {x.node()});
  c->forced = true;
  return Tensor(c);
}

}  // namespace

Tensor empty(const Shape& shape, DType dtype, const std::string& device) {
  return copied(Tensor::zeros(shape, dtype, device));
}

Tensor clone(const Tensor& x) {
  const Tensor out = copied(x);
  if (const std::optional<Tensor>& g = x.grad()) out.set_grad(clone(*g));
  return out;
}

}  // namespace tr
