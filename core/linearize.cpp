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

  // An ALU (or CAST): folded when its sources are constants, counted as FLOPs when asked.
  int alu(Op op, DType t, std::vector<int> srcs, bool count, int vec = 1) {
    const DType in = uops[srcs.back()].dtype;
    std::vector<ConstValue> values;
    for (int s : srcs)
      if (const ConstValue* c = const_of(s)) values.push_back(*c);
    if (values.size() == srcs.size()) return cnst(exec_alu(op, t, in, values), t);
    if (const int same = identity_operand(op, t, srcs); same >= 0) return same;
    const size_t before = uops.size();
    const int u = pure(op == Op::Cast ? UOp{.kind = UOpKind::Cast, .dtype = t, .vec = vec, .srcs = srcs}
                                      : UOp{.kind = UOpKind::Alu, .dtype = t, .vec = vec, .srcs = srcs, .alu = op});
    if (count && uops.size() > before) flops += trip * vec;
    return u;
  }

  int vectorize(std::vector<int> lanes) {
    const DType t = uops[lanes[0]].dtype;
    const int n = static_cast<int>(lanes.size());
    return pure(UOp{.kind = UOpKind::Vectorize, .dtype = t, .vec = n, .srcs = std::move(lanes)});
  }

  // Lane `lane` of a vector; a lane of a VECTORIZE is simply its source.
  int gep(int v, int lane) {
    if (uops[v].kind == UOpKind::Vectorize) return uops[v].srcs[lane];
    return pure(UOp{.kind = UOpKind::Gep, .dtype = uops[v].dtype, .srcs = {v}, .num = lane});
  }

  // acc = value. A pure UOp that read acc saw its value before this point, so none is reused after it.
  void assign(int acc, int value) {
    push(UOp{.kind = UOpKind::Assign, .dtype = uops[acc].dtype, .vec = uops[acc].vec, .srcs = {acc, value}});
    for (auto& scope : scopes_)
      std::erase_if(scope, [&](const auto& entry) {
        const std::vector<int>& srcs = uops[entry.second].srcs;
        return std::find(srcs.begin(), srcs.end(), acc) != srcs.end();
      });
  }

  int pure(UOp u) {
    const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", static_cast<int>(u.kind), static_cast<int>(u.dtype),
                                        u.vec, fmt::join(u.srcs, ","), static_cast<int>(u.alu),
                                        const_str(u.value, u.dtype), u.num, u.name);
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
    switch (u.kind) {
      case UOpKind::Const: case UOpKind::Alu: case UOpKind::Cast: case UOpKind::Load: case UOpKind::Vectorize:
      case UOpKind::Gep: return true;
      default: return false;
    }
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
  Linearizer(const Kernel& k, const Target& target) : k_(k), target_(target), vars_(k.dims.size()) {
    choose_vector_dim();
  }

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
        accs_.push_back(e_.push(UOp{.kind = UOpKind::DefineAcc, .dtype = red->dtype, .vec = width_,
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
          acc = alu(reduce_combine(red->alu), red->dtype, {acc, value(*red->srcs[0], u, false)});
        }
        e_.assign(accs_[u], acc);
      }
      for (auto it = rloops.rbegin(); it != rloops.rend(); ++it) close_range(*it);
      if (has(DimRole::Group)) combine_group(*red);
    }
    for (size_t u = 0; u < upcasts.size(); u++) {
      bind(upcasts[u], DimRole::Upcast);
      store(value(*k_.ast->srcs[0], u, true));
    }
    if (group_if_ >= 0) {
      e_.close_scope();
      e_.push(UOp{.kind = UOpKind::EndIf, .srcs = {group_if_}});
    }
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) close_range(*it);
    p.uops = eliminate_dead(std::move(e_.uops));
    p.passes.push_back({"linearize", p.uops});
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
  int group_if_ = -1;  // the IF around the epilogue of a GROUP reduce
  int vdim_ = -1;  // the upcast dim whose lanes make one vector value, if any
  int width_ = 1;

  // The innermost upcast dim becomes a vector when it is the stride-1 piece of the last output axis
  // (so the store is one vector store) and every value in the kernel has a type vectors can hold.
  void choose_vector_dim() {
    const bool ok = target_.vector_width >= 2 && !has(DimRole::Group) && vector_values(k_);
    for (int d = static_cast<int>(k_.dims.size()) - 1; ok && d >= 0; d--) {
      const Dim& dim = k_.dims[d];
      if (dim.role != DimRole::Upcast) continue;
      const bool pow2 = (dim.size & (dim.size - 1)) == 0;
      if (dim.axis == k_.first_reduce - 1 && dim.stride == 1 && pow2 && dim.size <= target_.vector_width) {
        vdim_ = d;
        width_ = static_cast<int>(dim.size);
      }
      break;
    }
  }

  bool has(DimRole role) const {
    return std::any_of(k_.dims.begin(), k_.dims.end(), [&](const Dim& d) { return d.role == role; });
  }

  // GROUP: the threads of a group each reduced part of the reduce dim. Each leaves its partial
  // results in local memory; after a barrier, the group's first thread combines them and alone runs
  // the epilogue.
  void combine_group(const AstNode& red) {
    ExprRef group = cnst(0), local = cnst(0);
    int64_t group_size = 1, local_size = 1;
    for (size_t d = 0; d < k_.dims.size(); d++) {
      const Dim& dim = k_.dims[d];
      if (dim.role == DimRole::Group) {
        group = add(mul(group, dim.size), vars_[d]);
        group_size *= dim.size;
      } else if (dim.role == DimRole::Local) {
        local = add(mul(local, dim.size), vars_[d]);
        local_size *= dim.size;
      }
    }
    const auto naccs = static_cast<int64_t>(accs_.size());
    const int temp = e_.push(UOp{.kind = UOpKind::DefineLocal, .dtype = red.dtype, .ptr = true,
                                 .num = local_size * group_size * naccs, .name = "temp0"});
    // slot of (this thread's local id, member g of its group, accumulator u)
    const auto slot = [&](const ExprRef& g, int64_t u) { return add(mul(add(mul(local, group_size), g), naccs), u); };
    for (int64_t u = 0; u < naccs; u++) e_.push(UOp{.kind = UOpKind::Store, .srcs = {temp, index(slot(group, u)), accs_[u]}});
    e_.push(UOp{.kind = UOpKind::Barrier});
    group_if_ = e_.push(UOp{.kind = UOpKind::If, .srcs = {index(lt(group, 1))}});
    e_.open_scope();
    std::vector<int> combined;
    for (int64_t u = 0; u < naccs; u++)
      combined.push_back(e_.push(UOp{.kind = UOpKind::DefineAcc, .dtype = red.dtype, .value = e_.uops[accs_[u]].value,
                                     .name = fmt::format("acc{}", naccs + u)}));
    const int lo = e_.cnst(int64_t{0}, kIndex), hi = e_.cnst(group_size, kIndex);
    const int range = e_.push(UOp{.kind = UOpKind::Range, .dtype = kIndex, .srcs = {lo, hi}, .name = "gridx0"});
    var_uops_["gridx0"] = range;
    e_.open_scope();
    e_.trip *= group_size;
    for (int64_t u = 0; u < naccs; u++) {
      const int part = e_.pure(UOp{.kind = UOpKind::Load, .dtype = red.dtype,
                                   .srcs = {temp, index(slot(var("gridx0", 0, group_size - 1), u))}});
      const int next = alu(reduce_combine(red.alu), red.dtype, {combined[u], part});
      e_.assign(combined[u], next);
    }
    close_range(range);
    accs_ = std::move(combined);
  }

  // make() once per lane of the vector dim, gathered into one vector.
  int per_lane(const std::function<int()>& make) {
    std::vector<int> lanes;
    for (int l = 0; l < width_; l++) {
      vars_[vdim_] = cnst(l);
      lanes.push_back(make());
    }
    vars_[vdim_] = cnst(0);
    return e_.vectorize(std::move(lanes));
  }

  // The index and validity of a tracker at every lane; whether the lanes are one contiguous run
  // (or all the same element) with one validity.
  struct Lanes {
    std::vector<std::pair<ExprRef, ExprRef>> at;
    bool contiguous = true, same = true;
  };
  Lanes lanes_of(const ShapeTracker& st, bool epilogue) {
    Lanes out;
    for (int l = 0; l < width_; l++) {
      vars_[vdim_] = cnst(l);
      out.at.push_back(st.index_valid(axis_exprs(epilogue)));
      const bool same_valid = render(out.at[l].second) == render(out.at[0].second);
      out.contiguous = out.contiguous && same_valid && render(out.at[l].first) == render(add(out.at[0].first, l));
      out.same = out.same && same_valid && render(out.at[l].first) == render(out.at[0].first);
    }
    vars_[vdim_] = cnst(0);
    return out;
  }

  int alu(Op op, DType t, std::vector<int> srcs) {
    if (width_ == 1 || (target_.vector_alu && (op == Op::Add || op == Op::Mul || op == Op::Neg)))
      return e_.alu(op, t, std::move(srcs), true, width_);
    std::vector<int> lanes;
    for (int l = 0; l < width_; l++) {
      std::vector<int> lane_srcs;
      for (int s : srcs) lane_srcs.push_back(e_.gep(s, l));
      lanes.push_back(e_.alu(op, t, std::move(lane_srcs), true));
    }
    return e_.vectorize(std::move(lanes));
  }

  int load(const AstNode& n, const ExprRef& idx, const ExprRef& valid, int vec) {
    const auto zero = [&] {
      const int z = e_.cnst(int64_t{0}, n.dtype);
      return vec == 1 ? z : e_.vectorize(std::vector<int>(vec, z));
    };
    if (is_const(valid, 0)) return zero();
    if (is_const(valid, 1))
      return e_.pure(UOp{.kind = UOpKind::Load, .dtype = n.dtype, .vec = vec, .srcs = {globals_.at(n.idx), index(idx)}});
    const int gate = index(valid), alt = zero();
    return e_.pure(UOp{.kind = UOpKind::Load, .dtype = n.dtype, .vec = vec, .srcs = {globals_.at(n.idx), index(idx), alt, gate}});
  }

  int load(const AstNode& n, bool epilogue) {
    if (width_ == 1) {
      const auto [idx, valid] = n.st->index_valid(axis_exprs(epilogue));
      return load(n, idx, valid, 1);
    }
    const Lanes l = lanes_of(*n.st, epilogue);
    if (l.same) return e_.vectorize(std::vector<int>(width_, load(n, l.at[0].first, l.at[0].second, 1)));
    if (l.contiguous) return load(n, l.at[0].first, l.at[0].second, width_);
    std::vector<int> lanes;
    for (const auto& [idx, valid] : l.at) lanes.push_back(load(n, idx, valid, 1));
    return e_.vectorize(std::move(lanes));
  }

  // The store's tracker is the contiguous output: always valid.
  void store(int v) {
    const ShapeTracker& st = *k_.ast->st;
    if (width_ == 1) {
      e_.push(UOp{.kind = UOpKind::Store, .srcs = {globals_.at(0), index(st.index_valid(axis_exprs(true)).first), v}});
      return;
    }
    const Lanes l = lanes_of(st, true);
    if (l.contiguous) {
      e_.push(UOp{.kind = UOpKind::Store, .srcs = {globals_.at(0), index(l.at[0].first), v}});
      return;
    }
    for (int i = 0; i < width_; i++)
      e_.push(UOp{.kind = UOpKind::Store, .srcs = {globals_.at(0), index(l.at[i].first), e_.gep(v, i)}});
  }

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
    for (const Dim& d : k_.dims)
      if (d.role == DimRole::Thread && target_.gpu)
        fail("opt", "THREAD splits a dim over CPU cores; this device is a GPU (use LOCAL)");
    for (const Dim& d : k_.dims)
      if ((d.role == DimRole::Local || d.role == DimRole::Group) && !target_.local_memory)
        fail("opt", "{} needs a device with workgroups and local memory", d.role == DimRole::Local ? "LOCAL" : "GROUP");
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
        if (k_.dims[d].role == role || (role == DimRole::Local && k_.dims[d].role == DimRole::Group)) ds.push_back(d);
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
    for (size_t i = 0; i < k_.dims.size(); i++) {
      const Dim& d = k_.dims[i];
      if (d.role != role || static_cast<int>(i) == vdim_) continue;
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
      if (k_.dims[d].role == role && static_cast<int>(d) != vdim_) vars_[d] = cnst(values[i++]);
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

  // A CONST or ARANGE source: a scalar, 0 where its tracker's mask hides it.
  int leaf(const AstNode& n, bool epilogue) {
    const auto [idx, valid] = n.st->index_valid(axis_exprs(epilogue));
    if (n.op == AstOp::Const) return guarded(valid, n.dtype, [&] { return e_.cnst(n.value, n.dtype); });
    // idx copied into the capture: clang before 16 cannot capture a structured binding
    return guarded(valid, n.dtype, [&, idx = idx] { return e_.alu(Op::Cast, n.dtype, {index(idx)}, false); });
  }

  // n's value for one upcast combination; `epilogue` when outside the reduce (reduce axes read 0).
  int value(const AstNode& n, size_t upcast, bool epilogue) {
    switch (n.op) {
      case AstOp::Load: return load(n, epilogue);
      case AstOp::Const:
      case AstOp::Arange: return width_ == 1 ? leaf(n, epilogue) : per_lane([&] { return leaf(n, epilogue); });
      case AstOp::Alu: {
        std::vector<int> srcs;
        for (const AstRef& s : n.srcs) srcs.push_back(value(*s, upcast, epilogue));
        return alu(n.alu, n.dtype, std::move(srcs));
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
