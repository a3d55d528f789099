// The first pass: the kernel's dims become launch ids (SPECIAL) and loops (RANGE), every dim that an
// opt unrolls included (the expand pass turns those into copies), and the AST becomes nodes indexed
// by them. Index arithmetic is simplified here, symbolically, while every dim is still a bounded variable.
#include <functional>

#include <fmt/format.h>

#include "core/kernel/ast.h"
#include "core/kernel/online_softmax.h"
#include "core/codegen/launch_ids.h"
#include "core/codegen/lowering.h"
#include "core/codegen/tensor_cores.h"
#include "core/base/error.h"
#include "core/lazy/symbolic_shape.h"

namespace tr {
namespace {


// The op that folds each value into a reduce's accumulator.
Op reduce_combine(Op op) {
  switch (op) {
    case Op::Sum: return Op::Add;
    case Op::Prod: return Op::Mul;
    case Op::ReduceMax: break;
    // an AST's REDUCE holds none of these: they go with ReduceMax only to keep the switch complete
    case Op::Const: case Op::Arange: case Op::Copy:
    case Op::Neg: case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: case Op::Recip: case Op::Trunc:
    case Op::Cast: case Op::Bitcast:
    case Op::Add: case Op::Mul: case Op::IDiv: case Op::Mod: case Op::Max: case Op::MaxNan: case Op::CmpLt: case Op::CmpNe:
    case Op::And: case Op::Or: case Op::Xor:
    case Op::Where: case Op::MulAcc: case Op::View: case Op::Contiguous: case Op::Assign: case Op::Multi: break;
  }
  return Op::MaxNan;
}

// The value the accumulator starts from: the identity of the op that folds into it.
ConstValue reduce_identity(Op op, DType t) {
  const Op combine = reduce_combine(op);
  if (combine == Op::Add) return int64_t{0};
  if (combine == Op::Mul) return int64_t{1};
  if (is_float(t)) return -std::numeric_limits<double>::infinity();
  if (t == DType::Bool || is_unsigned(t)) return int64_t{0};
  return wrap_to(t, std::numeric_limits<int64_t>::min() >> (64 - 8 * itemsize(t)));
}

class Loops {
 public:
  explicit Loops(Lowering& low) : low_(low), k_(low.k), rows_(ast_rows(k_.ast)) {
    low_.dim_vars.assign(k_.dims.size(), cnst(0));
    if (!k_.online_softmax) return;
    const std::optional<std::vector<OnlineSum>> sums = online_sums(k_.ast, k_.first_reduce);
    for (const OnlineSum& s : sums.value()) online_.emplace(s.sum, s);
  }

  UGraph run() {
    define_globals();
    define_vars();
    define_specials();
    max_depth_ = depth(*k_.ast);
    low_.store_walks_rows = k_.row_passes > max_depth_;
    define_ranges();
    const auto [idx, valid] = k_.ast->st->index_valid(axis_exprs(-1));
    store_at_ = {idx, valid};
    int value = this->value(*k_.ast->srcs[0], -1);
    const FromAstRow from(g_, rows_.at(k_.ast.get()));
    // in blocks, the partial result goes to the output until the last block, which stores the epilogue's
    if (block_ >= 0 && value != partial_) {
      const int64_t blocks = k_.dims[static_cast<size_t>(block_)].size;
      value = g_.alu(Op::Where, k_.ast->dtype, {index(lt(low_.dim_vars[static_cast<size_t>(block_)], blocks - 1)), partial_, value});
    }
    UOp store{.kind = UOpKind::Store, .srcs = {globals_.at(0), index(idx), value}};
    if (!is_const(valid, 1)) store.srcs.push_back(index(valid));
    std::vector<int> roots{g_.add(std::move(store))};
    for (const auto& [idx, global] : globals_) roots.push_back(global);  // a buffer no load reads is still an argument
    for (const int v : vars_) roots.push_back(v);
    g_.sink = g_.add(UOp{.kind = UOpKind::Sink, .srcs = std::move(roots)});
    return std::move(g_);
  }

 private:
  Lowering& low_;
  const Kernel& k_;
  const std::unordered_map<const AstNode*, int> rows_;  // each AST node's row, as print_ast numbers them
  UGraph g_;
  std::map<int, int> globals_;  // buffer idx -> DEFINE_GLOBAL
  std::vector<int> vars_;                        // DEFINE_VAR of each of the kernel's Variables
  std::vector<std::vector<ExprRef>> walks_;      // per walk of the rows, per dim: its variable there
  std::vector<std::vector<int>> reduce_ranges_;  // per walk, the RANGEs its reduces close
  int max_depth_ = 0;                            // how deep the reduces nest
  int block_ = -1;                               // the BLOCK dim, where a reduce is walked in blocks
  int partial_ = -1;                             // its partial result: the blocks so far, this one included
  std::pair<ExprRef, ExprRef> store_at_;         // the store's index and validity
  int accs_ = 0;
  // per node, walk and the step reduce it is inside (null: none), its value
  std::map<std::tuple<const AstNode*, int, const AstNode*>, int> values_;
  const AstNode* step_ = nullptr;      // the step reduce whose input is being made
  std::vector<ExprRef> step_vars_;     // its loops' variables: the dims its input's trackers add
  int reduce_ranges_made_ = 0;         // RANGEs of kind Reduce so far, to number a step reduce's own
  std::map<const AstNode*, int> depths_;
  std::map<const AstNode*, OnlineSum> online_;  // the sums computed in their maximum's walk, by their REDUCE

  // How many reduces deep n's value is (a reduce of loads: 1).
  int depth(const AstNode& n) {
    if (const auto it = depths_.find(&n); it != depths_.end()) return it->second;
    int d = 0;
    for (const AstRef& s : n.srcs) d = std::max(d, depth(*s));
    return depths_[&n] = d + (n.op == AstOp::Reduce);
  }

  int index(const ExprRef& e) { return index_node(g_, low_, e); }


  void define_globals() {
    std::map<int, DType> bufs;
    walk(k_.ast, [&](const AstNode& n) {
      if (n.op == AstOp::Load || n.op == AstOp::Store) bufs[n.idx] = n.dtype;
    });
    for (const auto& [idx, t] : bufs)
      globals_[idx] = g_.add(UOp{.kind = UOpKind::DefineGlobal, .dtype = t, .ptr = true, .buffer = idx, .writes = idx == 0});
  }

  void define_vars() {
    for (const ExprRef& v : k_.vars) {
      const UOp u{.kind = UOpKind::DefineVar, .dtype = kIndex, .size = v->max, .number = static_cast<int>(vars_.size()),
                  .name = v->name};
      low_.user_vars.push_back(u);
      vars_.push_back(g_.add(u));
    }
  }

  void define_specials() {
    const Target& t = low_.target;
    for (const Dim& d : k_.dims) {
      if (d.role == DimRole::Thread && t.gpu) fail("opt", "THREAD splits a dim over CPU cores; this device is a GPU (use LOCAL)");
      if ((d.role == DimRole::Local || d.role == DimRole::Group) && !t.local_memory)
        fail("opt", "{} needs a device with workgroups and local memory", d.role == DimRole::Local ? "LOCAL" : "GROUP");
    }
    if (!t.gpu) {
      for (size_t d = 0; d < k_.dims.size(); d++) {
        if (k_.dims[d].role != DimRole::Thread) continue;
        const UOp core{.kind = UOpKind::Special, .dtype = kIndex, .size = k_.dims[d].size, .launch = LaunchKind::Core};
        low_.dim_vars[d] = low_.bind(core, core.size);
        low_.dims.global[0] = core.size;
      }
      return;
    }
    // GPU: the dims become launch ids (core/codegen/launch_ids.h)
    for (const LaunchKind kind : {LaunchKind::Global, LaunchKind::Local}) {
      const std::vector<LaunchId> ids = launch_ids(k_, kind, t);
      for (size_t i = 0; i < ids.size(); i++) {
        const int axis = ids[i].axis;
        const std::vector<size_t>& group = ids[i].dims;
        const int64_t size = ids[i].size;
        const UOp id{.kind = UOpKind::Special, .dtype = kIndex, .size = size, .launch = kind, .axis = axis,
                     .number = static_cast<int>(i)};
        (kind == LaunchKind::Global ? low_.dims.global : low_.dims.local)[axis] = size;
        // a symbolic dim's ids count its size for the Variable's value: the launch multiplies the other
        // dims' sizes by it
        if (const ExprRef& sym = k_.dims[group[0]].sym) {
          const Affine f = affine_of(sym);
          low_.dims.global[axis] = size / k_.dims[group[0]].size;
          low_.dims.global_var[axis] = user_var_index(k_, size_variable(sym));
          low_.dims.global_scale[axis] = f.scale;
          low_.dims.global_offset[axis] = f.offset;
        }
        for (size_t g = 1; g < group.size(); g++)
          if (k_.dims[group[g]].sym)
            fail("shape", "the symbolic dim {} shares a launch id with an outer dim; a GPU kernel takes it outermost",
                 render(k_.dims[group[g]].sym));
        const ExprRef v = low_.bind(id, size);
        int64_t inner = size;
        for (size_t d : group) {
          inner /= k_.dims[d].size;
          low_.dim_vars[d] = group.size() == 1 ? v : mod(floordiv(v, inner), k_.dims[d].size);
        }
      }
    }
    tc_lane_vars(k_, low_.dim_vars);
  }

  // Each walk of the rows has its own loops over the reduce dims: walk p holds the reduces p + 1
  // deep (walk 0: the reduces of loads), and a store over the rows has the last walk.
  void define_ranges() {
    std::map<RangeKind, int> numbers;
    walks_.assign(k_.row_passes, std::vector<ExprRef>(k_.dims.size()));
    reduce_ranges_.resize(k_.row_passes);
    for (int p = 0; p < k_.row_passes; p++)
      for (size_t d = 0; d < k_.dims.size(); d++) {
        std::optional<RangeKind> kind;
        switch (k_.dims[d].role) {
          case DimRole::Global:
            if (!low_.target.gpu && p == 0) kind = RangeKind::Loop;
            break;
          case DimRole::Reduce: kind = RangeKind::Reduce; break;
          case DimRole::Upcast: if (p == 0) kind = RangeKind::Upcast; break;
          case DimRole::Unroll: kind = RangeKind::Unroll; break;
          case DimRole::Block:
            kind = RangeKind::Block;
            if (k_.dims[d].axis >= k_.first_reduce) block_ = static_cast<int>(d);
            break;
          case DimRole::Thread: case DimRole::Local: case DimRole::Group: break;
        }
        if (!kind) {
          walks_[p][d] = low_.dim_vars[d];
          continue;
        }
        const int64_t size = k_.dims[d].size;
        const int hi = k_.dims[d].sym ? index(k_.dims[d].sym) : g_.cnst(size, kIndex);
        const UOp r{.kind = UOpKind::Range, .dtype = kIndex, .srcs = {g_.cnst(int64_t{0}, kIndex), hi},
                    .range = *kind, .dim = static_cast<int>(d), .number = numbers[*kind]++};
        reduce_ranges_made_ = numbers[RangeKind::Reduce];
        walks_[p][d] = low_.bind(r, size);
        if (p == 0) low_.dim_vars[d] = walks_[p][d];
        if (*kind == RangeKind::Reduce || *kind == RangeKind::Unroll) reduce_ranges_[p].push_back(g_.add(r));
      }
  }

  // One expression per axis of the full shape: inside walk `walk` of the rows, or in the epilogue
  // (-1), where reduce axes read 0 unless the store walks the rows (its walk is the last).
  std::vector<ExprRef> axis_exprs(int walk) const {
    const bool epilogue = walk < 0;
    const bool rows_out = epilogue && low_.store_walks_rows;
    const int p = epilogue ? k_.row_passes - 1 : walk;
    std::vector<ExprRef> axes(k_.full_shape.size(), cnst(0));
    for (size_t d = 0; d < k_.dims.size(); d++) {
      const Dim& dim = k_.dims[d];
      if (epilogue && !rows_out && dim.axis >= k_.first_reduce) continue;
      axes[dim.axis] = add(axes[dim.axis], mul(walks_[p][d], dim.stride));
    }
    return axes;
  }

  // A value that exists only where `valid` holds, and is 0 elsewhere.
  int guarded(const ExprRef& valid, DType t, int value) {
    if (is_const(valid, 1)) return value;
    return g_.alu(Op::Where, t, {index(valid), value, g_.cnst(int64_t{0}, t)});
  }

  // n's value inside walk `walk` of the rows (-1: the epilogue); a reduce's is the same in all.
  int value(const AstNode& n, int walk) {
    const auto key = std::make_tuple(&n, n.op == AstOp::Reduce ? -1 : walk, n.op == AstOp::Reduce ? nullptr : step_);
    if (const auto it = values_.find(key); it != values_.end()) return it->second;
    return values_[key] = make(n, walk);
  }

  int make(const AstNode& n, int walk) {
    const FromAstRow from(g_, rows_.at(&n));
    switch (n.op) {
      case AstOp::Load: {
        const auto [idx, valid] = n.st->index_valid(at(n, walk));
        if (is_const(valid, 0)) return g_.cnst(int64_t{0}, n.dtype);
        UOp load{.kind = UOpKind::Load, .dtype = n.dtype, .srcs = {globals_.at(n.idx), index(idx)}};
        if (!is_const(valid, 1)) load.srcs.insert(load.srcs.end(), {g_.cnst(int64_t{0}, n.dtype), index(valid)});
        return g_.add(std::move(load));
      }
      case AstOp::Const: {
        const auto valid = n.st->index_valid(at(n, walk)).second;
        return guarded(valid, n.dtype, g_.cnst(n.value, n.dtype));
      }
      case AstOp::Arange: {
        const auto [idx, valid] = n.st->index_valid(at(n, walk));
        return guarded(valid, n.dtype, g_.cast(n.dtype, index(idx)));
      }
      case AstOp::Alu: {
        std::vector<int> srcs;
        for (const AstRef& s : n.srcs) srcs.push_back(value(*s, walk));
        return n.alu == Op::Cast ? g_.cast(n.dtype, srcs[0]) : g_.alu(n.alu, n.dtype, std::move(srcs));
      }
      case AstOp::Reduce: {
        if (const auto it = online_.find(&n); it != online_.end()) return online_sum(it->second);
        if (!n.axes.empty() && n.axes.front() >= static_cast<int>(k_.full_shape.size())) return step_reduce(n, walk);
        // inside the loops of its walk of the rows
        const int own = k_.online_softmax ? 0 : depth(n) - 1;
        const int result = accumulate(n, reduce_ranges_[own], [&] { return value(*n.srcs[0], own); });
        if (block_ < 0) return result;
        // a block's result joins those of the blocks before it, which wait in the output (BLOCK)
        const ExprRef later = ge(low_.dim_vars[static_cast<size_t>(block_)], 1);
        const ExprRef valid = is_const(store_at_.second, 1) ? later : land(store_at_.second, later);
        const ConstValue identity = cast_const(reduce_identity(n.alu, n.dtype), n.dtype);
        const int before = g_.add(UOp{.kind = UOpKind::Load, .dtype = n.dtype,
                                      .srcs = {globals_.at(0), index(store_at_.first), g_.cnst(identity, n.dtype), index(valid)}});
        return partial_ = g_.alu(reduce_combine(n.alu), n.dtype, {result, before});
      }
      case AstOp::Store: break;
    }
    fail("value", "unexpected {} inside a kernel's value", ast_node_str(n));
  }

  // The expressions that index n's tracker in walk `walk`: a step reduce's input adds its own loops'.
  std::vector<ExprRef> at(const AstNode& n, int walk) const {
    std::vector<ExprRef> axes = axis_exprs(walk);
    if (n.st->shape().size() > axes.size()) axes.insert(axes.end(), step_vars_.begin(), step_vars_.end());
    return axes;
  }

  // A reduce inside each step of the kernel's rows (attention's scores, a sum over the head dim for
  // each key): loops of its own, inside the walk that reads it, over the dims its input's trackers add.
  int step_reduce(const AstNode& n, int walk) {
    if (step_) fail("value", "a reduce inside a step reduce's input: {}", ast_node_str(n));
    const ShapeTracker& st = *find_node(n.srcs[0], [](const AstNode& x) { return x.st.has_value(); })->st;
    std::vector<int> ranges;
    for (const int a : n.axes) {
      const int64_t size = st.shape()[static_cast<size_t>(a)];
      const UOp r{.kind = UOpKind::Range, .dtype = kIndex, .srcs = {g_.cnst(int64_t{0}, kIndex), g_.cnst(size, kIndex)},
                  .range = RangeKind::Reduce, .dim = static_cast<int>(k_.dims.size()) + a, .number = reduce_ranges_made_++};
      step_vars_.push_back(low_.bind(r, size));
      ranges.push_back(g_.add(r));
    }
    step_ = &n;
    const int result = accumulate(n, ranges, [&] { return value(*n.srcs[0], walk); });
    step_ = nullptr;
    step_vars_.clear();
    return result;
  }

  // acc = acc <op> x inside `ranges`, the ASSIGN that readers after them read; x is made after the
  // accumulator, which numbers accumulators outermost first.
  int accumulate(const AstNode& n, const std::vector<int>& ranges, const std::function<int()>& x) {
    const int acc = g_.add(UOp{.kind = UOpKind::DefineAcc, .dtype = n.dtype,
                               .value = cast_const(reduce_identity(n.alu, n.dtype), n.dtype), .number = accs_++});
    std::vector<int> srcs{acc, g_.alu(reduce_combine(n.alu), n.dtype, {acc, x()})};
    srcs.insert(srcs.end(), ranges.begin(), ranges.end());
    return g_.add(UOp{.kind = UOpKind::Assign, .dtype = n.dtype, .srcs = std::move(srcs)});
  }

  // A sum of exp2((x - max) * c) * per_step in the walk of its maximum (the online softmax): each step
  // rescales what the sum holds by exp2((old max - new max) * c) and adds its term taken against the new
  // maximum. Where every value so far is -inf the terms are taken against 0, so that a row whose first
  // values are masked adds nothing (exp2(-inf) = 0) instead of the nan of -inf - -inf; a row that stays
  // -inf throughout has the nan of its unfused value (every exp2((x - max) * c) is nan there). The
  // factors constant along the rows multiply the finished sum.
  int online_sum(const OnlineSum& s) {
    const DType t = s.sum->dtype;
    const int zero = g_.cnst(int64_t{0}, t), minus_inf = g_.cnst(-std::numeric_limits<double>::infinity(), t);
    const auto finite = [&](int m) { return g_.alu(Op::CmpNe, DType::Bool, {m, minus_inf}); };
    const auto exp_of = [&](int x, int max) {
      return g_.alu(Op::Exp2, t, {g_.alu(Op::Mul, t, {g_.alu(Op::Add, t, {x, g_.alu(Op::Neg, t, {max})}), g_.cnst(s.c, t)})});
    };
    const int acc = g_.add(UOp{.kind = UOpKind::DefineAcc, .dtype = t, .value = cast_const(int64_t{0}, t), .number = accs_++});
    int rescaled = acc, step = -1;
    if (s.max) {
      const int max = value(*s.max, -1);
      const int before = g_[max].srcs[0], now = g_[max].srcs[1];  // the maximum's accumulator and its new value
      rescaled = g_.alu(Op::Mul, t, {acc, g_.alu(Op::Where, t, {finite(before), exp_of(before, now), zero})});
      step = exp_of(value(*s.max->srcs[0], 0), g_.alu(Op::Where, t, {finite(now), now, zero}));
    }
    for (const AstRef& f : s.per_step) step = step < 0 ? value(*f, 0) : g_.alu(Op::Mul, t, {step, value(*f, 0)});
    if (step < 0) step = g_.cnst(int64_t{1}, t);
    std::vector<int> srcs{acc, g_.alu(Op::Add, t, {rescaled, step})};
    srcs.insert(srcs.end(), reduce_ranges_[0].begin(), reduce_ranges_[0].end());
    int result = g_.add(UOp{.kind = UOpKind::Assign, .dtype = t, .srcs = std::move(srcs)});
    if (s.max) {
      const int nan = g_.cnst(std::numeric_limits<double>::quiet_NaN(), t);
      result = g_.alu(Op::Where, t, {finite(value(*s.max, -1)), result, nan});
    }
    for (const AstRef& f : s.after) result = g_.alu(Op::Mul, t, {result, value(*f, -1)});
    return result;
  }
};

}  // namespace

UGraph lower_loops(Lowering& low) { return Loops(low).run(); }

}  // namespace tr
