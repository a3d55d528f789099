// The tensor-core pass: the reduce that a TC opt put on a matrix unit becomes one WMMA per step of the
// unit's K. A thread's elements of A and B are the reduce's two operands read where the layout
// (tensor_cores.h) places them: the unit's K dim, the accumulator's element dims and, for B, the lanes
// take the element's position in place of their own variables. The four accumulators that the element
// upcasts would make are one vector accumulator, and each upcast copy reads its lane of it. Two
// elements that the unit packs into one register (2i and 2i+1, one apart along K) are one load of
// both where the operand is a load that steps 1 element along K.
#include "core/codegen/tensor_cores.h"

#include <map>

#include "core/codegen/lowering.h"
#include "core/error.h"

namespace tr {

const TcLayout* tc_layout(const MatrixUnit& u) {
  static const TcLayout k16{.a_row = {0, 0, 8, 8, 0, 0, 8, 8}, .a_col = {0, 1, 0, 1, 8, 9, 8, 9}, .b_row = {0, 1, 8, 9}};
  static const TcLayout k8{.a_row = {0, 0, 8, 8}, .a_col = {0, 1, 0, 1}, .b_row = {0, 1}};
  // bfloat16's m16n8k16 places its elements as half's does
  if (u.m != 16 || u.n != 8 || itemsize(u.in) != 2 || !is_float(u.in) || u.acc != DType::Float32) return nullptr;
  return u.k == 16 ? &k16 : u.k == 8 ? &k8 : nullptr;
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

constexpr DType kIndex = DType::Int32;

class TensorCores {
 public:
  explicit TensorCores(const Lowering& low) : low_(low), unit_(*low.k.tc), layout_(*tc_layout(unit_)) {
    const Kernel& k = low.k;
    for (size_t d = 0; d < k.dims.size(); d++)
      if (k.dims[d].tc != TcPart::None) dims_[k.dims[d].tc] = static_cast<int>(d);
    if (dims_.size() != 5) fail("value", "the TC opt's dims are not all in the kernel");
    std::optional<std::pair<AstRef, AstRef>> products;
    walk(k.ast, [&](const AstNode& n) {
      if (n.op == AstOp::Reduce) products = tc_products(n, unit_);
    });
    if (!products) fail("value", "the reduce on the matrix unit is not a sum of products of two {} values", name(unit_.in));
    auto [a, b] = *products;
    if (reads_along(a, k.dims[dims_.at(TcPart::NLanes)].axis)) std::swap(a, b);
    const int along_k = k.dims[dims_.at(TcPart::K)].axis;
    const auto steps_one = [&](const AstRef& x) { return x->op == AstOp::Load && x->st->real_stride(static_cast<size_t>(along_k)) == 1; };
    pairs_ = {steps_one(a), steps_one(b)};
  }

  UGraph run(const UGraph& g) {
    return rewrite(g, [&](UGraph& out, int, const UOp& u) {
      const int n = out.add(u);
      if (u.kind == UOpKind::Range)
        for (const TcPart part : {TcPart::K, TcPart::MElems, TcPart::NElems})
          if (u.dim == dims_.at(part)) ranges_[part] = n;
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
  std::pair<bool, bool> pairs_;   // whether A's, B's neighbouring elements along K are neighbours in memory

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

  static bool depends_on(const UGraph& out, int n, int on, std::map<int, bool>& done) {
    if (n == on) return true;
    if (const auto it = done.find(n); it != done.end()) return it->second;
    bool found = false;
    for (int s : out[n].srcs) found = found || depends_on(out, s, on, done);
    return done[n] = found;
  }

  // The two values the reduce multiplies, A's first: the one that does not depend on N's lanes.
  std::pair<int, int> operands(const UGraph& out, int x, int n_lanes) const {
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
    if (depends_on(out, a, n_lanes, done)) std::swap(a, b);
    return {a, b};
  }

  int wmma(UGraph& out, const UOp& assign) {
    const int k = ranges_.at(TcPart::K), m_elems = ranges_.at(TcPart::MElems), n_elems = ranges_.at(TcPart::NElems);
    const int g = lane_id(out, TcPart::MLanes), t = lane_id(out, TcPart::NLanes);
    const UOp body = out[assign.srcs[1]];
    const auto [a, b] = operands(out, body.srcs[1], t);
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    const auto k_at = [&](int offset) { return out.alu(Op::Add, kIndex, {out.alu(Op::Mul, kIndex, {t, c(2)}), c(offset)}); };
    std::vector<std::map<int, int>> a_at, b_at;
    for (size_t i = 0; i < layout_.a_row.size(); i++)
      a_at.push_back({{k, k_at(layout_.a_col[i])}, {m_elems, c(layout_.a_row[i] / TcLayout::kLanesM)}});
    const int t_at = out.alu(Op::IDiv, kIndex, {g, c(TcLayout::kElemsN)});
    const int n_at = out.alu(Op::Mod, kIndex, {g, c(TcLayout::kElemsN)});
    for (const int row : layout_.b_row) b_at.push_back({{k, k_at(row)}, {t, t_at}, {n_elems, n_at}});
    std::vector<int> srcs = elements(out, a, a_at, pairs_.first);
    const std::vector<int> b_elems = elements(out, b, b_at, pairs_.second);
    srcs.insert(srcs.end(), b_elems.begin(), b_elems.end());
    const int elems = TcLayout::kElemsM * TcLayout::kElemsN;
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
    const int lane = out.alu(Op::Add, kIndex, {out.alu(Op::Mul, kIndex, {m_elems, c(TcLayout::kElemsN)}), n_elems});
    int value = out.gep(result, elems - 1);
    for (int i = elems - 2; i >= 0; i--)
      value = out.alu(Op::Where, unit_.acc, {out.alu(Op::CmpNe, DType::Bool, {lane, c(i)}), value, out.gep(result, i)});
    return value;
  }
};

}  // namespace

UGraph tensor_cores(const UGraph& g, const Lowering& low) {
  if (!low.k.tc) return g;
  return TensorCores(low).run(g);
}

}  // namespace tr
