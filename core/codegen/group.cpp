// The group pass (after expand), for kernels with GROUP dims, or a THREAD dim of a reduce (the CPU's cores in
// place of a workgroup's threads): each thread of a group reduced part of the reduce dim. Each leaves its
// partial results in local memory (for the cores, memory they share), each reduce in memory of its own; after
// a barrier (linearize puts one before the first load of each), every thread combines its group's partials,
// so that a later walk of the rows (a softmax's) has the whole result; the group's first thread alone stores
// a result, unless the store walks the rows, where each thread stores its own part of them.
#include "core/codegen/lowering.h"

namespace tr {

UGraph group(UGraph g, const Lowering& low) {
  const Kernel& k = low.k;
  ExprRef member = cnst(0), thread = cnst(0);
  int64_t group_size = 1, local_size = 1;
  LaunchKind shared_by = LaunchKind::Local;
  for (size_t d = 0; d < k.dims.size(); d++) {
    const Dim& dim = k.dims[d];
    const bool cores = dim.role == DimRole::Thread && dim.axis >= k.first_reduce;
    if (cores) shared_by = LaunchKind::Core;
    if (dim.role == DimRole::Group || cores) {
      member = add(mul(member, dim.size), low.dim_vars[d]);
      group_size *= dim.size;
    } else if (dim.role == DimRole::Local) {
      thread = add(mul(thread, dim.size), low.dim_vars[d]);
      local_size *= dim.size;
    }
  }
  if (group_size == 1) return g;

  std::map<int, int> reduces;  // ASSIGN -> its number: of its local memory and its loop over the partials
  int accs = 0;
  for (int n : toposort(g)) {
    if (g[n].kind == UOpKind::Assign) reduces.emplace(n, static_cast<int>(reduces.size()));
    accs += g[n].kind == UOpKind::DefineAcc;
  }
  Lowering with_range = low;  // it binds each RANGE over the partials once the output graph has its bounds
  // a reduce's loop over the partials of its group: a loop of its own, so that one reduce's combine
  // can follow another's walk of the rows
  const auto range_of = [&](int u) {
    return UOp{.kind = UOpKind::Range, .dtype = DType::Int32, .range = RangeKind::GroupReduce,
               .dim = static_cast<int>(k.dims.size()), .number = u};
  };
  // slot of (this thread's local id, member m of its group), each slot a whole accumulator: the lanes
  // of a CPU's vector accumulator (core/codegen/expand.cpp) lie side by side
  const auto slot = [&](const ExprRef& m, int vec) { return mul(add(mul(thread, group_size), m), vec); };

  std::vector<int> local_stores;
  return rewrite(g, [&](UGraph& out, int old, const UOp& moved) {
    if (const auto it = reduces.find(old); it != reduces.end()) {
      const int vec = moved.vec;
      const int temp = out.add(UOp{.kind = UOpKind::DefineLocal, .dtype = moved.dtype, .ptr = true,
                                   .size = local_size * group_size * vec, .launch = shared_by, .number = it->second});
      local_stores.push_back(out.add(UOp{.kind = UOpKind::Store,
                                         .srcs = {temp, index_node(out, low, slot(member, vec)), out.add(moved)}}));
      UOp r = range_of(it->second);
      r.srcs = {out.cnst(int64_t{0}, DType::Int32), out.cnst(group_size, DType::Int32)};
      const ExprRef m = with_range.bind(r, group_size);
      const int acc = out.add(UOp{.kind = UOpKind::DefineAcc, .dtype = moved.dtype, .vec = vec,
                                  .value = out[moved.srcs[0]].value, .number = accs + static_cast<int>(it->second)});
      const int load = out.add(UOp{.kind = UOpKind::Load, .dtype = moved.dtype, .vec = vec,
                                   .srcs = {temp, index_node(out, with_range, slot(m, vec))}});
      const int body = out.alu(out[moved.srcs[1]].alu, moved.dtype, {acc, load}, vec);
      return out.add(UOp{.kind = UOpKind::Assign, .dtype = moved.dtype, .vec = vec, .srcs = {acc, body, out.add(r)}});
    }
    if (moved.kind == UOpKind::Store && !low.store_walks_rows) {
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
