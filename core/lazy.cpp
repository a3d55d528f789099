#include "core/lazy.h"

#include <atomic>

namespace tr {

ShapeTracker LazyNode::st() const {
  if (is_view()) return std::get<ShapeTracker>(arg);
  return ShapeTracker::contiguous(shape);
}

LazyRef make_node(Op op, DType dtype, Shape shape, std::string device, std::vector<LazyRef> srcs, LazyArg arg) {
  static std::atomic<uint64_t> next_id{0};
  return std::make_shared<LazyNode>(LazyNode{op, dtype, std::move(shape), std::move(device), std::move(srcs),
                                             std::move(arg), next_id++, nullptr, false});
}

LazyRef base_of(const LazyRef& x) { return x->is_view() ? x->srcs[0] : x; }

LazyRef make_view(const LazyRef& x, const ShapeTracker& st_on_x) {
  const LazyRef base = base_of(x);
  const ShapeTracker st = x->is_view() ? x->st().compose(st_on_x) : st_on_x.simplify();
  if (st.contiguous() && st.shape() == base->shape) return base;
  return make_node(Op::View, base->dtype, st.shape(), base->device, {base}, st);
}

}  // namespace tr
