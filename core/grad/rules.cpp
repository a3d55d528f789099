// One gradient rule per primitive op (core/ir/ops.h), as tinygrad's gradient rules: each builds the
// sources' gradients from the node's gradient with ordinary tensor operations.
#include <cmath>
#include <numbers>

#include "core/grad/gradient.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

Tensor constant(const Tensor& like, double v) { return Tensor::scalar_like(like, v).expand(like.shape()); }

// The sum of g over the reduced axes of a reduce node, kept as size 1: the node's own shape.
std::vector<int> reduced_axes(const LazyNode& n) { return std::get<std::vector<int>>(n.arg); }

}  // namespace

std::vector<std::optional<Tensor>> source_gradients(const LazyRef& node, const Tensor& g) {
  const LazyNode& n = *node;
  const Tensor ret(node);
  const auto src = [&](size_t i) { return Tensor(n.srcs[i]); };
  switch (n.op) {
    case Op::Const:
    case Op::Arange: return {};
    case Op::Copy: return {g.to(n.srcs[0]->device)};
    case Op::Neg: return {g.neg()};
    case Op::Exp2: return {g.mul(ret).mul(constant(g, std::numbers::ln2))};
    case Op::Log2: return {g.div(src(0).mul(constant(g, std::numbers::ln2)))};
    case Op::Sin: return {g.mul(constant(g, std::numbers::pi / 2).sub(src(0)).sin())};
    case Op::Sqrt: return {g.div(ret.mul(constant(g, 2.0)))};
    case Op::Recip: return {g.neg().mul(ret).mul(ret)};
    case Op::Cast: return {g.cast(n.srcs[0]->dtype)};
    case Op::Add: return {g, g};
    case Op::Mul: return {g.mul(src(1)), g.mul(src(0))};
    case Op::Max: {
      // ties share the gradient, half each, as tinygrad's rule
      const Tensor a = src(0), b = src(1), zero = constant(g, 0.0), half = g.mul(constant(g, 0.5));
      const Tensor tie = a.ne(b).where(zero, half);
      return {b.lt(a).where(g, tie), a.lt(b).where(g, tie)};
    }
    case Op::Where: {
      const Tensor c = src(0), zero = constant(g, 0.0);
      return {std::nullopt, c.where(g, zero), c.where(zero, g)};
    }
    case Op::Sum: return {g.expand(n.srcs[0]->shape)};
    case Op::ReduceMax: {
      // every element equal to the maximum shares its gradient
      const Tensor x = src(0);
      const Tensor is_max = x.eq(ret.expand(x.shape())).cast(g.dtype());
      const Tensor count = is_max.sum(reduced_axes(n), true).expand(x.shape());
      return {is_max.div(count).mul(g.expand(x.shape()))};
    }
    case Op::Prod: {
      const Tensor x = src(0);
      return {g.mul(ret).expand(x.shape()).div(x)};
    }
    case Op::View: return {view_gradient(g, n.st(), n.srcs[0]->shape)};
    case Op::Contiguous: return {g};
    // an assigned tensor is a leaf, as a realized one is: its new value's graph is not differentiated
    case Op::Assign: return {std::nullopt, std::nullopt};
    // A MULTI is only ever a root (an op on one runs on its shards): a sharded one passes each device its
    // piece; a replicated one is one value held on every device, whose gradient enters through one copy.
    case Op::Multi: {
      const std::optional<int> axis = std::get<Sharding>(n.arg).axis;
      const std::vector<Tensor> pieces = pieces_along(g, axis);
      std::vector<std::optional<Tensor>> out(pieces.size());
      for (size_t i = 0; i < pieces.size(); i++)
        if (axis || i == 0) out[i] = pieces[i];
      return out;
    }
    case Op::MulAcc: case Op::MaxNan: break;  // made only by the lowering, never in a lazy graph
    // no gradient flows through integer arithmetic, comparisons, bitwise ops, rounding or a bitcast
    case Op::Bitcast:
    case Op::Trunc:
    case Op::IDiv:
    case Op::Mod:
    case Op::CmpLt:
    case Op::CmpNe:
    case Op::And:
    case Op::Or:
    case Op::Xor: return std::vector<std::optional<Tensor>>(n.srcs.size());
  }
  return std::vector<std::optional<Tensor>>(n.srcs.size());
}

}  // namespace tr
