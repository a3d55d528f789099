// The third pass, for kernels with GROUP dims: each thread of a group reduced part of the reduce dim.
// Each leaves its partial results in local memory; after a barrier (linearize puts it before the first
// load of that memory), every thread combines its group's partials, and the group's first thread alone
// stores the result.
#include "core/codegen/lowering.h"

namespace tr {

UGraph group(UGraph g, const Lowering& low) {
  const Kernel& k = low.k;
  ExprRef member = cnst(0), thread = cnst(0);
  int64_t group_size = 1, local_size = 1;
  for (size_t d = 0; d < k.dims.size(); d++) {
    const Dim& dim = k.dims[d];
    if (dim.role == DimRole::Group) {
      member = add(mul(member, dim.size), low.dim_vars[d]);
      group_size *= dim.size;
    } else if (dim.role == DimRole::Local) {
      thread = add(mul(thread, dim.size), low.dim_vars[d]);
      local_size *= dim.size;
    }
  }
  if (group_size == 1) return g;

  std::map<int, int64_t> reduces;  // ASSIGN -> its accumulator's slot in local memory
  int accs = 0;
  for (int n : toposort(g)) {
    if (g[n].kind == UOpKind::Assign) reduces.emplace(n, static_cast<int64_t>(reduces.size()));
    accs += g[n].kind == UOpKind::DefineAcc;
  }
  const auto naccs = static_cast<int64_t>(reduces.size());
  Lowering with_range = low;  // its vars gain the RANGE over the partials once the output graph has its bounds
  const UOp range{.kind = UOpKind::Range, .dtype = DType::Int32, .range = RangeKind::GroupReduce,
                  .dim = static_cast<int>(k.dims.size())};
  const ExprRef partial = var(uop_name(range), 0, group_size - 1);
  // slot of (this thread's local id, member m of its group, accumulator u)
  const auto slot = [&](const ExprRef& m, int64_t u) { return add(mul(add(mul(thread, group_size), m), naccs), u); };

  std::vector<int> local_stores;
  return rewrite(g, [&](UGraph& out, int old, const UOp& moved) {
    if (const auto it = reduces.find(old); it != reduces.end()) {
      const int temp = out.add(UOp{.kind = UOpKind::DefineLocal, .dtype = moved.dtype, .ptr = true,
                                   .size = local_size * group_size * naccs});
      local_stores.push_back(out.add(UOp{.kind = UOpKind::Store,
                                         .srcs = {temp, index_node(out, low, slot(member, it->second)), out.add(moved)}}));
      UOp r = range;
      r.srcs = {out.cnst(int64_t{0}, DType::Int32), out.cnst(group_size, DType::Int32)};
      with_range.vars[uop_name(r)] = r;
      const int acc = out.add(UOp{.kind = UOpKind::DefineAcc, .dtype = moved.dtype, .value = out[moved.srcs[0]].value,
                                  .number = accs + static_cast<int>(it->second)});
      const int load = out.add(UOp{.kind = UOpKind::Load, .dtype = moved.dtype,
                                   .srcs = {temp, index_node(out, with_range, slot(partial, it->second))}});
      const int body = out.alu(out[moved.srcs[1]].alu, moved.dtype, {acc, load});
      return out.add(UOp{.kind = UOpKind::Assign, .dtype = moved.dtype, .srcs = {acc, body, out.add(r)}});
    }
    if (moved.kind == UOpKind::Store) {
      UOp store = moved;
      const int first = index_node(out, low, lt(member, 1));
      if (store.srcs.size() > 3) store.srcs[3] = out.alu(Op::And, DType::Bool, {store.srcs[3], first});
      else store.srcs.push_back(first);
      return out.add(std::move(store));
    }
    if (moved.kind == UOpKind::Sink) {
      UOp sink = moved;
      sink.srcs.insert(sink.srcs.begin(), local_stores.begin(), local_stores.end());
      return out.add(std::move(sink));
    }
    return out.add(moved);
  });
}

}  // namespace tr
