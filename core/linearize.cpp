// Lowering: the kernel's dims become SPECIAL ids, RANGE loops or unrolled copies; its AST is
// evaluated once per unrolled combination into UOps. Every pure UOp goes through one emitter that
// folds constants and reuses an identical UOp already visible in the current loop scope.
#include "core/linearize.h"

#include <map>

#include <fmt/format.h>

#include "core/alu.h"
#include "core/error.h"
#include "core/value_str.h"

namespace tr {
namespace {

constexpr DType kIndex = DType::Int32;

class Emitter {
 public:
  std::vector<UOp> uops;
  int64_t trip = 1;  // iterations of the innermost scope: loops and launch ids around it
  int64_t flops = 0;

  int push(UOp u) {
    uops.push_back(std::move(u));
    return static_cast<int>(uops.size()) - 1;
  }

  void open_scope() { scopes_.emplace_back(); }
  void close_scope() { scopes_.pop_back(); }

  int cnst(const ConstValue& v, DType t) { return pure(UOp{.kind = UOpKind::Const, .dtype = t, .value = cast_const(v, t)}); }

  const ConstValue* const_of(int i) const {
    return uops[i].kind == UOpKind::Const ? &uops[i].value : nullptr;
  }

  // An ALU (or CAST) on scalars: folded when its sources are constants, counted as FLOPs when asked.
  int alu(Op op, DType t, std::vector<int> srcs, bool count) {
    const DType in = uops[srcs.back()].dtype;
    std::vector<ConstValue> values;
    for (int s : srcs)
      if (const ConstValue* c = const_of(s)) values.push_back(*c);
    if (values.size() == srcs.size()) return cnst(exec_alu(op, t, in, values), t);
    if (const int same = identity_operand(op, t, srcs); same >= 0) return same;
    const size_t before = uops.size();
    const int u = pure(op == Op::Cast ? UOp{.kind = UOpKind::Cast, .dtype = t, .srcs = srcs}
                                      : UOp{.kind = UOpKind::Alu, .dtype = t, .srcs = srcs, .alu = op});
    if (count && uops.size() > before) flops += trip;
    return u;
  }

  int pure(UOp u) {
    const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}", static_cast<int>(u.kind), static_cast<int>(u.dtype),
                                        fmt::join(u.srcs, ","), static_cast<int>(u.alu), const_str(u.value, u.dtype),
                                        u.num, u.name);
    for (const auto& scope : scopes_)
      if (const auto it = scope.find(key); it != scope.end()) return it->second;
    const int i = push(std::move(u));
    scopes_.back().emplace(key, i);
    return i;
  }

 private:
  std::vector<std::map<std::string, int>> scopes_{1};

  // x+0, x*1 (and x*0 on integers, where no nan can hide) need no UOp.
  int identity_operand(Op op, DType t, const std::vector<int>& srcs) const {
    if (srcs.size() != 2 || (op != Op::Add && op != Op::Mul)) return -1;
    for (int side = 0; side < 2; side++) {
      const ConstValue* c = const_of(srcs[side]);
      if (!c) continue;
      const double v = as_double(*c);
      if ((op == Op::Add && v == 0) || (op == Op::Mul && v == 1)) return srcs[1 - side];
      if (op == Op::Mul && v == 0 && !is_float(t)) return srcs[side];
    }
    return -1;
  }
};

// Folding leaves constants and index math that nothing reads; drop them and renumber.
std::vector<UOp> eliminate_dead(std::vector<UOp> uops) {
  std::vector<int> uses(uops.size(), 0);
  for (const UOp& u : uops)
    for (int s : u.srcs) uses[s]++;
  auto pure = [](const UOp& u) {
    return u.kind == UOpKind::Const || u.kind == UOpKind::Alu || u.kind == UOpKind::Cast || u.kind == UOpKind::Load;
  };
  std::vector<bool> dead(uops.size(), false);
  for (size_t i = uops.size(); i-- > 0;) {
    if (uses[i] || !pure(uops[i])) continue;
    dead[i] = true;
    for (int s : uops[i].srcs) uses[s]--;
  }
  std::vector<int> renumber(uops.size(), -1);
  std::vector<UOp> out;
  for (size_t i = 0; i < uops.size(); i++) {
    if (dead[i]) continue;
    renumber[i] = static_cast<int>(out.size());
    out.push_back(std::move(uops[i]));
    for (int& s : out.back().srcs) s = renumber[s];
  }
  return out;
}

ConstValue reduce_identity(Op op, DType t) {
  switch (op) {
    case Op::Sum: return int64_t{0};
    case Op::Prod: return int64_t{1};
    default: break;
  }
  if (is_float(t)) return -std::numeric_limits<double>::infinity();
  if (t == DType::Bool || is_unsigned(t)) return int64_t{0};
  return wrap_to(t, std::numeric_limits<int64_t>::min() >> (64 - 8 * itemsize(t)));
}

Op reduce_combine(Op op) {
  switch (op) {
    case Op::Sum: return Op::Add;
    case Op::Prod: return Op::Mul;
    default: return Op::Max;
  }
}

class Linearizer {
 public:
  Linearizer(const Kernel& k, const Target& target) : k_(k), target_(target), vars_(k.dims.size()) {}

  UOpProgram run(const std::string& name) {
    UOpProgram p;
    p.name = name;
    define_globals(p);
    define_specials(p);
    std::vector<int> loops;
    for (size_t d = 0; d < k_.dims.size(); d++)
      if (k_.dims[d].role == DimRole::Global && !target_.gpu) loops.push_back(open_range(d, "gidx"));

    const std::vector<std::vector<int64_t>> upcasts = combos(DimRole::Upcast);
    const AstNode* red = find_reduce(*k_.ast);
    if (red) {
      for (size_t u = 0; u < upcasts.size(); u++)
        accs_.push_back(e_.push(UOp{.kind = UOpKind::DefineAcc, .dtype = red->dtype,
                                    .value = cast_const(reduce_identity(red->alu, red->dtype), red->dtype),
                                    .name = fmt::format("acc{}", u)}));
      std::vector<int> rloops;
      for (size_t d = 0; d < k_.dims.size(); d++)
        if (k_.dims[d].role == DimRole::Reduce) rloops.push_back(open_range(d, "ridx"));
      const std::vector<std::vector<int64_t>> unrolls = combos(DimRole::Unroll);
      for (size_t u = 0; u < upcasts.size(); u++) {
        int acc = accs_[u];
        for (const auto& r : unrolls) {
          bind(upcasts[u], DimRole::Upcast);
          bind(r, DimRole::Unroll);
          acc = e_.alu(reduce_combine(red->alu), red->dtype, {acc, value(*red->srcs[0], u, false)}, true);
        }
        e_.push(UOp{.kind = UOpKind::Assign, .dtype = red->dtype, .srcs = {accs_[u], acc}});
      }
      for (auto it = rloops.rbegin(); it != rloops.rend(); ++it) close_range(*it);
    }
    for (size_t u = 0; u < upcasts.size(); u++) {
      bind(upcasts[u], DimRole::Upcast);
      const AstNode& store = *k_.ast;
      // the store's tracker is the contiguous output: always valid
      const ExprRef idx = store.st->index_valid(axis_exprs(true)).first;
      const int v = value(*store.srcs[0], u, true);
      e_.push(UOp{.kind = UOpKind::Store, .srcs = {globals_.at(0), index(idx), v}});
    }
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) close_range(*it);
    p.uops = eliminate_dead(std::move(e_.uops));
    p.flops = e_.flops;
    return p;
  }

 private:
  const Kernel& k_;
  const Target& target_;
  Emitter e_;
  std::map<int, int> globals_;          // buffer idx -> DEFINE_GLOBAL
  std::vector<ExprRef> vars_;           // per dim: its loop var, launch id or current unrolled value
  std::map<std::string, int> var_uops_; // var name -> the UOp that holds it
  std::vector<int> accs_;

  static const AstNode* find_reduce(const AstNode& n) {
    if (n.op == AstOp::Reduce) return &n;
    for (const AstRef& s : n.srcs)
      if (const AstNode* r = find_reduce(*s)) return r;
    return nullptr;
  }

  void define_globals(UOpProgram& p) {
    std::map<int, DType> bufs;
    walk(k_.ast, [&](const AstNode& n) {
      if (n.op == AstOp::Load || n.op == AstOp::Store) bufs[n.idx] = n.dtype;
    });
    for (const auto& [idx, t] : bufs) {
      globals_[idx] = e_.push(UOp{.kind = UOpKind::DefineGlobal, .dtype = t, .ptr = true, .num = idx,
                                  .name = fmt::format("data{}", idx), .writes = idx == 0});
      p.globals.push_back(t);
    }
  }

  void define_specials(UOpProgram& p) {
    if (!target_.gpu) {
      for (size_t d = 0; d < k_.dims.size(); d++) {
        if (k_.dims[d].role != DimRole::Thread) continue;
        var_uops_["core_id"] = e_.push(UOp{.kind = UOpKind::Special, .dtype = kIndex, .num = k_.dims[d].size, .name = "core_id"});
        vars_[d] = var("core_id", 0, k_.dims[d].size - 1);
        e_.trip *= k_.dims[d].size;
        p.dims.global[0] = k_.dims[d].size;
      }
      return;
    }
    // GPU: the innermost dims take x, so neighbouring threads touch neighbouring elements. Past three
    // dims, the leading ones share the first id and are recovered from it by division.
    for (DimRole role : {DimRole::Global, DimRole::Local}) {
      std::vector<size_t> ds;
      for (size_t d = 0; d < k_.dims.size(); d++)
        if (k_.dims[d].role == role) ds.push_back(d);
      if (ds.empty()) continue;
      const size_t folded = ds.size() > 3 ? ds.size() - 2 : 1;
      const size_t ids = ds.size() - folded + 1;
      const char* prefix = role == DimRole::Global ? "gidx" : "lidx";
      for (size_t i = 0; i < ids; i++) {
        const int axis = static_cast<int>(ids - 1 - i);
        const std::vector<size_t> group = i == 0 ? std::vector<size_t>(ds.begin(), ds.begin() + folded)
                                                 : std::vector<size_t>{ds[folded + i - 1]};
        int64_t size = 1;
        for (size_t d : group) size *= k_.dims[d].size;
        const std::string name = fmt::format("{}{}", prefix, i);
        var_uops_[name] = e_.push(UOp{.kind = UOpKind::Special, .dtype = kIndex, .num = size, .name = name, .axis = axis});
        e_.trip *= size;
        (role == DimRole::Global ? p.dims.global : p.dims.local)[axis] = size;
        const ExprRef id = var(name, 0, size - 1);
        int64_t inner = size;
        for (size_t d : group) {
          inner /= k_.dims[d].size;
          vars_[d] = group.size() == 1 ? id : mod(floordiv(id, inner), k_.dims[d].size);
        }
      }
    }
    for (const Dim& d : k_.dims)
      if (d.role == DimRole::Group) fail("opt", "GROUP is not supported by this linearizer yet");
  }

  int open_range(size_t d, const char* prefix) {
    int n = 0;
    for (const UOp& u : e_.uops) n += u.kind == UOpKind::Range && u.name.starts_with(prefix);
    const std::string name = fmt::format("{}{}", prefix, n);
    const int lo = e_.cnst(int64_t{0}, kIndex), hi = e_.cnst(k_.dims[d].size, kIndex);
    const int u = e_.push(UOp{.kind = UOpKind::Range, .dtype = kIndex, .srcs = {lo, hi}, .name = name});
    vars_[d] = var(name, 0, k_.dims[d].size - 1);
    var_uops_[name] = u;
    e_.open_scope();
    e_.trip *= k_.dims[d].size;
    return u;
  }

  void close_range(int range) {
    e_.close_scope();
    e_.trip /= as_int(e_.uops[e_.uops[range].srcs[1]].value);
    e_.push(UOp{.kind = UOpKind::EndRange, .srcs = {range}});
  }

  // Every combination of values of the dims with this role, the last dim fastest.
  std::vector<std::vector<int64_t>> combos(DimRole role) const {
    std::vector<std::vector<int64_t>> out{{}};
    for (const Dim& d : k_.dims) {
      if (d.role != role) continue;
      std::vector<std::vector<int64_t>> next;
      for (const auto& c : out)
        for (int64_t v = 0; v < d.size; v++) {
          next.push_back(c);
          next.back().push_back(v);
        }
      out = std::move(next);
    }
    return out;
  }

  void bind(const std::vector<int64_t>& values, DimRole role) {
    size_t i = 0;
    for (size_t d = 0; d < k_.dims.size(); d++)
      if (k_.dims[d].role == role) vars_[d] = cnst(values[i++]);
  }

  // One expression per axis of the full shape; reduce axes read 0 outside the reduce.
  std::vector<ExprRef> axis_exprs(bool epilogue) const {
    std::vector<ExprRef> axes(k_.full_shape.size(), cnst(0));
    for (size_t d = 0; d < k_.dims.size(); d++) {
      const Dim& dim = k_.dims[d];
      const bool reduce_dim = dim.role == DimRole::Reduce || dim.role == DimRole::Unroll || dim.role == DimRole::Group;
      if (epilogue && reduce_dim) continue;
      axes[dim.axis] = add(axes[dim.axis], mul(vars_[d], dim.stride));
    }
    return axes;
  }

  int index(const ExprRef& e) {
    switch (e->op) {
      case ExprOp::Const: return e_.cnst(e->value, kIndex);
      case ExprOp::Var: return var_uops_.at(e->name);
      case ExprOp::Add: {
        int acc = index(e->srcs[0]);
        for (size_t i = 1; i < e->srcs.size(); i++) acc = e_.alu(Op::Add, kIndex, {acc, index(e->srcs[i])}, false);
        return acc;
      }
      case ExprOp::Mul: return e_.alu(Op::Mul, kIndex, {index(e->srcs[0]), e_.cnst(e->value, kIndex)}, false);
      case ExprOp::Div: return e_.alu(Op::IDiv, kIndex, {index(e->srcs[0]), e_.cnst(e->value, kIndex)}, false);
      case ExprOp::Mod: return e_.alu(Op::Mod, kIndex, {index(e->srcs[0]), e_.cnst(e->value, kIndex)}, false);
      case ExprOp::Lt: return e_.alu(Op::CmpLt, DType::Bool, {index(e->srcs[0]), e_.cnst(e->value, kIndex)}, false);
      case ExprOp::And: {
        int acc = index(e->srcs[0]);
        for (size_t i = 1; i < e->srcs.size(); i++) acc = e_.alu(Op::And, DType::Bool, {acc, index(e->srcs[i])}, false);
        return acc;
      }
    }
    return -1;
  }

  // A value that exists only where `valid` holds, and is 0 elsewhere.
  int guarded(const ExprRef& valid, DType t, const std::function<int()>& make) {
    if (is_const(valid, 0)) return e_.cnst(int64_t{0}, t);
    if (is_const(valid, 1)) return make();
    const int gate = index(valid);
    return e_.alu(Op::Where, t, {gate, make(), e_.cnst(int64_t{0}, t)}, false);
  }

  // n's value for one upcast combination; `epilogue` when outside the reduce (reduce axes read 0).
  int value(const AstNode& n, size_t upcast, bool epilogue) {
    switch (n.op) {
      case AstOp::Load: {
        const auto [idx, valid] = n.st->index_valid(axis_exprs(epilogue));
        if (is_const(valid, 0)) return e_.cnst(int64_t{0}, n.dtype);
        if (is_const(valid, 1)) return e_.pure(UOp{.kind = UOpKind::Load, .dtype = n.dtype, .srcs = {globals_.at(n.idx), index(idx)}});
        const int gate = index(valid), alt = e_.cnst(int64_t{0}, n.dtype);
        return e_.pure(UOp{.kind = UOpKind::Load, .dtype = n.dtype, .srcs = {globals_.at(n.idx), index(idx), alt, gate}});
      }
      case AstOp::Const: {
        const auto valid = n.st->index_valid(axis_exprs(epilogue)).second;
        return guarded(valid, n.dtype, [&] { return e_.cnst(n.value, n.dtype); });
      }
      case AstOp::Arange: {
        const auto [idx, valid] = n.st->index_valid(axis_exprs(epilogue));
        return guarded(valid, n.dtype, [&] { return e_.alu(Op::Cast, n.dtype, {index(idx)}, false); });
      }
      case AstOp::Alu: {
        std::vector<int> srcs;
        for (const AstRef& s : n.srcs) srcs.push_back(value(*s, upcast, epilogue));
        return e_.alu(n.alu, n.dtype, std::move(srcs), true);
      }
      case AstOp::Reduce:
        if (epilogue) return accs_.at(upcast);
        break;
      case AstOp::Store: break;
    }
    fail("value", "unexpected {} inside a kernel's value", ast_node_str(n));
  }
};

}  // namespace

UOpProgram linearize(const Kernel& k, const Target& target, const std::string& name) {
  return Linearizer(k, target).run(name);
}

}  // namespace tr
