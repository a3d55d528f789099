// The tensor-core pass: the reduce that a TC opt put on a matrix unit becomes one WMMA per step of the
// unit's K. A thread's elements of A and B are the reduce's two operands read where the layout
// (tensor_cores.h) places them: the unit's K dim, the accumulator's element dims and, where an operand's
// own dim comes from the other axis's lane, that lane take the element's position in place of their
// own variables. The accumulators that the element upcasts would make are one vector accumulator, and
// each upcast copy reads its lane of it. Two elements that the unit packs into one register (2i and
// 2i+1) are one load of both where the operand is a load that steps 1 element between them.
#include "core/codegen/tensor_cores.h"

#include <map>

#include "core/codegen/lowering.h"
#include "core/base/error.h"

namespace tr {

const TcLayout* tc_layout(const MatrixUnit& u) {
  using enum TcAxis;
  constexpr std::array<std::pair<TcAxis, int>, 5> lanes_4g_t{{{N, 1}, {N, 2}, {M, 1}, {M, 2}, {M, 4}}};
  static const TcLayout k16{.elems_m = 2, .lane_bits = lanes_4g_t,
                            .a = {N, {0, 1, 0, 1, 8, 9, 8, 9}, {0, 0, 8, 8, 0, 0, 8, 8}}, .b = {N, {0, 1, 8, 9}, {0, 0, 0, 0}}};
  static const TcLayout k8{.elems_m = 2, .lane_bits = lanes_4g_t, .a = {N, {0, 1, 0, 1}, {0, 0, 8, 8}}, .b = {N, {0, 1}, {0, 0}}};
  static const TcLayout simdgroup{.elems_m = 1, .lane_bits = {{{N, 1}, {M, 1}, {M, 2}, {N, 2}, {M, 4}}},
                                  .a = {N, {0, 1}, {0, 0}}, .b = {M, {0, 0}, {0, 1}}};
  if (!is_float(u.in) || u.acc != DType::Float32) return nullptr;
  // bfloat16's m16n8k16 places its elements as half's does
  if (u.m == 16 && u.n == 8 && itemsize(u.in) == 2) return u.k == 16 ? &k16 : u.k == 8 ? &k8 : nullptr;
  if (u.m == 8 && u.n == 8 && u.k == 8 && u.in == DType::Float16) return &simdgroup;
  return nullptr;
}

ExprRef TcLayout::lane_position(TcAxis axis, const ExprRef& gl, const ExprRef& tl) const {
  // bits 0 and 1 of the lane are tl's, bits 2 to 4 gl's; a run of bits of one id whose weights double
  // is one digit of it (so that 4*g + t itself gives back gl and tl)
  ExprRef pos = cnst(0);
  for (size_t i = 0; i < lane_bits.size();) {
    if (lane_bits[i].first != axis) {
      i++;
      continue;
    }
    const size_t first = i, id_end = i < 2 ? 2 : lane_bits.size();
    while (i + 1 < id_end && lane_bits[i + 1].first == axis && lane_bits[i + 1].second == 2 * lane_bits[i].second) i++;
    const int64_t shift = int64_t{1} << (first < 2 ? first : first - 2), digits = int64_t{1} << (i + 1 - first);
    pos = add(pos, mul(mod(floordiv(first < 2 ? tl : gl, shift), digits), lane_bits[first].second));
    i++;
  }
  return pos;
}

std::optional<std::pair<AstRef, AstRef>> tc_products(const AstNode& reduce, const MatrixUnit& u) {
  if (reduce.alu != Op::Sum || reduce.dtype != u.acc) return std::nullopt;
  const auto is = [](const AstNode& n, Op op) { return n.op == AstOp::Alu && n.alu == op; };
  const AstNode& x = *reduce.srcs[0];
  AstRef a, b;
  if (is(x, Op::Cast) && is(*x.srcs[0], Op::Mul)) {
    a = x.srcs[0]->srcs[0];
    b = x.srcs[0]->srcs[1];
  } else if (is(x, Op::Mul) && is(*x.srcs[0], Op::Cast) && is(*x.srcs[1], Op::Cast)) {
    a = x.srcs[0]->srcs[0];
    b = x.srcs[1]->srcs[0];
  }
  if (!a || a->dtype != u.in || b->dtype != u.in) return std::nullopt;
  return std::make_pair(a, b);
}

bool reads_along(const AstRef& x, int axis) {
  bool reads = false;
  walk(x, [&](const AstNode& n) {
    if (n.st) reads = reads || n.st->real_stride(static_cast<size_t>(axis)) != 0;
  });
  return reads;
}

namespace {


class TensorCores {
 public:
  explicit TensorCores(const Lowering& low) : low_(low), unit_(*low.k.tc), layout_(*tc_layout(unit_)) {
    const Kernel& k = low.k;
    for (size_t d = 0; d < k.dims.size(); d++)
      if (k.dims[d].tc != TcPart::None) dims_[k.dims[d].tc] = static_cast<int>(d);
    if (dims_.size() != (layout_.elems_m > 1 ? 5u : 4u)) fail("value", "the TC opt's dims are not all in the kernel");
    std::optional<std::pair<AstRef, AstRef>> products;
    walk(k.ast, [&](const AstNode& n) {
      if (n.op == AstOp::Reduce) products = tc_products(n, unit_);
    });
    if (!products) fail("value", "the reduce on the matrix unit is not a sum of products of two {} values", name(unit_.in));
    auto [a, b] = *products;
    if (reads_along(a, k.dims[dims_.at(TcPart::NLanes)].axis)) std::swap(a, b);
    pairs_ = {steps_one(a, pair_axis(layout_.a, TcPart::MLanes)), steps_one(b, pair_axis(layout_.b, TcPart::NLanes))};
  }

  UGraph run(const UGraph& g) {
    return rewrite(g, [&](UGraph& out, int, const UOp& u) {
      const int n = out.add(u);
      if (u.kind == UOpKind::Range)
        for (const TcPart part : {TcPart::K, TcPart::MElems, TcPart::NElems})
          if (dims_.count(part) && u.dim == dims_.at(part)) ranges_[part] = n;
      if (u.kind == UOpKind::Assign && ranges_.count(TcPart::K) &&
          std::find(u.srcs.begin() + 2, u.srcs.end(), ranges_.at(TcPart::K)) != u.srcs.end())
        return wmma(out, u);
      return n;
    });
  }

 private:
  const Lowering& low_;
  const MatrixUnit unit_;
  const TcLayout& layout_;
  std::map<TcPart, int> dims_;    // the kernel dim of each part
  std::map<TcPart, int> ranges_;  // the RANGE of each unrolled part, in the graph being built
  std::pair<bool, bool> pairs_;   // whether A's, B's elements 2i and 2i+1 are neighbours in memory

  // The kernel axis along which each two elements 2i and 2i+1 of the operand lie one apart (K, or the
  // operand's own dim, whose lanes are `own`); -1 where they do not.
  int pair_axis(const TcOperand& op, TcPart own) const {
    bool along_k = true, along_own = true;
    for (size_t i = 0; i + 1 < op.k_at.size(); i += 2) {
      along_k = along_k && op.k_at[i + 1] == op.k_at[i] + 1 && op.own_at[i + 1] == op.own_at[i];
      along_own = along_own && op.own_at[i + 1] == op.own_at[i] + 1 && op.k_at[i + 1] == op.k_at[i];
    }
    const std::vector<Dim>& dims = low_.k.dims;
    return along_k ? dims[dims_.at(TcPart::K)].axis : along_own ? dims[dims_.at(own)].axis : -1;
  }

  static bool steps_one(const AstRef& x, int axis) {
    return axis >= 0 && x->op == AstOp::Load && x->st->real_stride(static_cast<size_t>(axis)) == 1;
  }

  int lane_id(UGraph& out, TcPart part) const { return index_node(out, low_, low_.dim_vars[dims_.at(part)]); }

  // Operand x at each element's position (`at` replaces nodes for each); where `pairs`, each two
  // elements that are ungated loads are one load of both, at the first's index.
  static std::vector<int> elements(UGraph& out, int x, const std::vector<std::map<int, int>>& at, bool pairs) {
    std::vector<int> lanes;
    for (size_t e = 0; e + 1 < at.size(); e += 2) {
      std::map<int, int> done0, done1;
      const int x0 = substitute(out, x, at[e], done0), x1 = substitute(out, x, at[e + 1], done1);
      const UOp first = out[x0];
      if (pairs && first.kind == UOpKind::Load && first.srcs.size() == 2 && out[x1].kind == UOpKind::Load &&
          out[x1].srcs.size() == 2) {
        const int both = out.add(UOp{.kind = UOpKind::Load, .dtype = first.dtype, .vec = 2, .srcs = first.srcs});
        lanes.push_back(out.gep(both, 0));
        lanes.push_back(out.gep(both, 1));
      } else {
        lanes.push_back(x0);
        lanes.push_back(x1);
      }
    }
    return lanes;
  }

  // What each element of an operand whose own dim is `own` puts in place of the K step, the lanes and
  // the elements: K at the lane's position along op.k_from plus k_at, the own dim at the lane's position
  // along the other axis plus own_at. On the own axis only the element dims move; from the other axis
  // (m16n8's B, whose column is the lane's g) the own lanes and elements take its digits.
  std::vector<std::map<int, int>> positions(UGraph& out, const TcOperand& op, TcAxis own) const {
    using enum TcAxis;
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    const int g = lane_id(out, TcPart::MLanes), t = lane_id(out, TcPart::NLanes);
    const auto at = [&](TcAxis axis, int offset) {
      const int lane = axis == M ? g : out.alu(Op::Mul, kIndex, {t, c(TcLayout::kElemsN)});
      return offset == 0 ? lane : out.alu(Op::Add, kIndex, {lane, c(offset)});
    };
    const TcAxis own_from = op.k_from == M ? N : M;
    std::vector<std::map<int, int>> all;
    for (size_t i = 0; i < op.k_at.size(); i++) {
      std::map<int, int> with{{ranges_.at(TcPart::K), at(op.k_from, op.k_at[i])}};
      const int offset = op.own_at[i];
      if (own_from == own && own == M) {
        if (ranges_.count(TcPart::MElems)) with[ranges_.at(TcPart::MElems)] = c(offset / TcLayout::kLanesM);
      } else if (own_from == own) {
        with[ranges_.at(TcPart::NElems)] = c(offset);
      } else if (own == N) {
        const int p = at(own_from, offset);
        with[t] = out.alu(Op::IDiv, kIndex, {p, c(TcLayout::kElemsN)});
        with[ranges_.at(TcPart::NElems)] = out.alu(Op::Mod, kIndex, {p, c(TcLayout::kElemsN)});
      } else {
        fail("value", "no matrix unit reads A's rows from the lanes' columns");
      }
      all.push_back(std::move(with));
    }
    return all;
  }

  static bool depends_on(const UGraph& out, int n, int on, std::map<int, bool>& done) {
    if (n == on) return true;
    if (const auto it = done.find(n); it != done.end()) return it->second;
    bool found = false;
    for (int s : out[n].srcs) found = found || depends_on(out, s, on, done);
    return done[n] = found;
  }

  // The two values the reduce multiplies, A's first: the one that does not read along N's elements.
  std::pair<int, int> operands(const UGraph& out, int x) const {
    const UOp& v = out[x];
    int a = -1, b = -1;
    if (v.kind == UOpKind::Cast && out[v.srcs[0]].kind == UOpKind::Alu && out[v.srcs[0]].alu == Op::Mul) {
      a = out[v.srcs[0]].srcs[0];
      b = out[v.srcs[0]].srcs[1];
    } else if (v.kind == UOpKind::Alu && v.alu == Op::Mul && out[v.srcs[0]].kind == UOpKind::Cast &&
               out[v.srcs[1]].kind == UOpKind::Cast) {
      a = out[v.srcs[0]].srcs[0];
      b = out[v.srcs[1]].srcs[0];
    }
    if (a < 0 || out[a].dtype != unit_.in || out[b].dtype != unit_.in)
      fail("value", "the reduce on the matrix unit is not a sum of products of two {} values", name(unit_.in));
    std::map<int, bool> done;
    if (depends_on(out, a, ranges_.at(TcPart::NElems), done)) std::swap(a, b);
    return {a, b};
  }

  int wmma(UGraph& out, const UOp& assign) {
    const int k = ranges_.at(TcPart::K);
    const UOp body = out[assign.srcs[1]];
    const auto [a, b] = operands(out, body.srcs[1]);
    std::vector<int> srcs = elements(out, a, positions(out, layout_.a, TcAxis::M), pairs_.first);
    const std::vector<int> b_elems = elements(out, b, positions(out, layout_.b, TcAxis::N), pairs_.second);
    srcs.insert(srcs.end(), b_elems.begin(), b_elems.end());
    const int elems = layout_.elems_m * TcLayout::kElemsN;
    const int number = out[assign.srcs[0]].number;
    const int acc = out.add(UOp{.kind = UOpKind::DefineAcc, .dtype = unit_.acc, .vec = elems, .value = cast_const(0.0, unit_.acc),
                                .number = number});
    srcs.push_back(acc);
    const int step = out.add(UOp{.kind = UOpKind::Wmma, .dtype = unit_.acc, .vec = elems, .srcs = std::move(srcs), .unit = unit_});
    std::vector<int> closes{acc, step};
    for (size_t i = 2; i < assign.srcs.size(); i++)
      if (assign.srcs[i] != k) closes.push_back(assign.srcs[i]);
    const int result = out.add(UOp{.kind = UOpKind::Assign, .dtype = unit_.acc, .vec = elems, .srcs = std::move(closes)});
    // each copy of the element upcasts reads lane 2 * (its M element) + (its N element)
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    int lane = ranges_.at(TcPart::NElems);
    if (ranges_.count(TcPart::MElems))
      lane = out.alu(Op::Add, kIndex, {out.alu(Op::Mul, kIndex, {ranges_.at(TcPart::MElems), c(TcLayout::kElemsN)}), lane});
    int value = out.gep(result, elems - 1);
    for (int i = elems - 2; i >= 0; i--)
      value = out.alu(Op::Where, unit_.acc, {out.alu(Op::CmpNe, DType::Bool, {lane, c(i)}), value, out.gep(result, i)});
    return value;
  }
};

}  // namespace

void tc_lane_vars(const Kernel& k, std::vector<ExprRef>& dim_vars) {
  if (!k.tc) return;
  const auto at = [&](TcPart part) {
    return static_cast<size_t>(std::find_if(k.dims.begin(), k.dims.end(), [&](const Dim& d) { return d.tc == part; }) - k.dims.begin());
  };
  const size_t g = at(TcPart::MLanes), t = at(TcPart::NLanes);
  const TcLayout& layout = *tc_layout(*k.tc);
  const ExprRef gl = dim_vars[g], tl = dim_vars[t];
  dim_vars[g] = layout.lane_position(TcAxis::M, gl, tl);
  dim_vars[t] = layout.lane_position(TcAxis::N, gl, tl);
}

UGraph tensor_cores(const UGraph& g, const Lowering& low) {
  if (!low.k.tc) return g;
  return TensorCores(low).run(g);
}

}  // namespace tr
