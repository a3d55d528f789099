// The oracle walks the graph node by node on the host. It maps views with plain integer
// arithmetic rather than the symbolic index expressions, so that it checks them too.
#include "core/reference/reference.h"

#include <map>

#include "core/ir/alu.h"
#include "core/runtime/device.h"
#include "core/base/error.h"

namespace tr {
namespace {

using Values = std::vector<ConstValue>;

// The buffer index that element `idx` of st's shape reads, or nullopt where a mask hides it.
std::optional<int64_t> view_index(const ShapeTracker& st, std::vector<int64_t> idx) {
  const auto& views = st.views();
  int64_t flat = 0;
  for (size_t vi = views.size(); vi-- > 0;) {
    const View& v = views[vi];
    if (vi + 1 < views.size()) {  // unravel the previous view's flat index into this view's shape
      idx.assign(v.shape.size(), 0);
      for (size_t d = v.shape.size(); d-- > 0;) {
        idx[d] = flat % v.shape[d];
        flat /= v.shape[d];
      }
    }
    flat = v.offset;
    for (size_t d = 0; d < v.shape.size(); d++) {
      if (v.mask && (idx[d] < (*v.mask)[d].first || idx[d] >= (*v.mask)[d].second)) return std::nullopt;
      flat += idx[d] * v.strides[d];
    }
  }
  return flat;
}

std::vector<int64_t> unravel(int64_t i, const Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = i % shape[d];
    i /= shape[d];
  }
  return idx;
}

class Evaluator {
 public:
  const Values& eval(const LazyRef& n) {
    if (const auto it = memo_.find(n.get()); it != memo_.end()) return it->second;
    return memo_.emplace(n.get(), compute(*n)).first->second;
  }

 private:
  std::map<const LazyNode*, Values> memo_;

  Values compute(const LazyNode& n) {
    const int64_t size = prod(n.shape);
    Values out(size);
    switch (n.op) {
      case Op::Const: return Values(size, std::get<ConstValue>(n.arg));
      case Op::Arange:
        for (int64_t i = 0; i < size; i++) out[i] = cast_const(i, n.dtype);
        return out;
      case Op::Copy: {
        if (!n.srcs.empty()) return eval(n.srcs[0]);
        if (const auto* host = std::get_if<std::shared_ptr<const HostData>>(&n.arg)) {
          for (int64_t i = 0; i < size; i++) out[i] = (*host)->get(i);
          return out;
        }
        // a leaf over a buffer computed before (detach, assign): its values are data, read back
        if (!n.buffer) fail("value", "the reference evaluator met a leaf with neither data nor a buffer");
        HostData h(n.dtype, size);
        if (size > 0) device(n.buffer->device).copyout(h.bytes.data(), *n.buffer);
        for (int64_t i = 0; i < size; i++) out[i] = h.get(i);
        return out;
      }
      case Op::Contiguous: return eval(n.srcs[0]);
      case Op::Multi: {
        // the whole tensor: a replicated one is any copy; a sharded one, element i from the piece
        // of its device at its place there
        const std::optional<int> axis = std::get<Sharding>(n.arg).axis;
        if (!axis) return eval(n.srcs[0]);
        const Shape& piece = n.srcs[0]->shape;
        std::vector<const Values*> pieces;
        for (const LazyRef& s : n.srcs) pieces.push_back(&eval(s));
        for (int64_t i = 0; i < size; i++) {
          std::vector<int64_t> at = unravel(i, n.shape);
          const int64_t device = at[*axis] / piece[*axis];
          at[*axis] %= piece[*axis];
          int64_t flat = 0;
          for (size_t d = 0; d < at.size(); d++) flat = flat * piece[d] + at[d];
          out[i] = pieces[device]->at(flat);
        }
        return out;
      }
      case Op::Assign:
        // a realized assign has dropped the graph of its value: its values are in its buffer only
        if (n.srcs.size() < 2) fail("value", "the reference evaluator cannot read a realized assign's buffer");
        return eval(n.srcs[1]);
      case Op::View: {
        const Values& base = eval(n.srcs[0]);
        const ShapeTracker& st = std::get<ShapeTracker>(n.arg);
        for (int64_t i = 0; i < size; i++) {
          const auto at = view_index(st, unravel(i, n.shape));
          out[i] = at ? base.at(*at) : cast_const(int64_t{0}, n.dtype);
        }
        return out;
      }
      case Op::Sum: case Op::ReduceMax: case Op::Prod: return reduce(n);
      // elementwise: below, one element at a time (exec_alu refuses MulAcc, which no lazy graph holds)
      case Op::Neg: case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: case Op::Recip: case Op::Trunc:
      case Op::Cast: case Op::Bitcast:
      case Op::Add: case Op::Mul: case Op::IDiv: case Op::Mod: case Op::Max: case Op::MaxNan: case Op::CmpLt: case Op::CmpNe:
      case Op::And: case Op::Or: case Op::Xor:
      case Op::Where: case Op::MulAcc: break;
    }
    std::vector<const Values*> srcs;
    for (const LazyRef& s : n.srcs) srcs.push_back(&eval(s));
    const DType in = n.srcs.back()->dtype;
    std::vector<ConstValue> args(srcs.size());
    for (int64_t i = 0; i < size; i++) {
      for (size_t s = 0; s < srcs.size(); s++) args[s] = (*srcs[s])[i];
      out[i] = exec_alu(n.op, n.dtype, in, args);
    }
    return out;
  }

  Values reduce(const LazyNode& n) {
    const LazyRef& src = n.srcs[0];
    const Values& in = eval(src);
    const Op combine = n.op == Op::Sum ? Op::Add : n.op == Op::Prod ? Op::Mul : Op::MaxNan;
    Values out(prod(n.shape));
    std::vector<bool> started(out.size(), false);
    for (int64_t i = 0; i < static_cast<int64_t>(in.size()); i++) {
      std::vector<int64_t> idx = unravel(i, src->shape);
      for (int a : std::get<std::vector<int>>(n.arg)) idx[a] = 0;
      int64_t o = 0;
      for (size_t d = 0; d < idx.size(); d++) o = o * n.shape[d] + idx[d];
      out[o] = started[o] ? exec_alu(combine, n.dtype, n.dtype, {out[o], in[i]}) : in[i];
      started[o] = true;
    }
    return out;
  }
};

}  // namespace

HostData reference_eval(const LazyRef& node) {
  Evaluator ev;
  const Values& v = ev.eval(node);
  HostData out(node->dtype, static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); i++) out.set(static_cast<int64_t>(i), v[i]);
  return out;
}

}  // namespace tr
