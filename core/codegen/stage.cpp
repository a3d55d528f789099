// The staging pass, for a kernel with a STAGE opt: each global load inside the staged reduce loop that
// some threads of the workgroup read alike (a matmul's rows of A are read alike by the threads along
// N, its columns of B by those along M) reads local memory instead. Each turn of the loop the
// workgroup's T threads first copy the turn's tile of it (every element that some thread's upcasts,
// unrolls and local ids read in that turn) from global into local memory, thread t taking elements
// t, t + T, ...; the tile lies in local memory in the order of its elements in global memory (the
// variable with the largest stride outermost), so that neighbouring threads copy neighbouring
// elements; where the innermost variable steps 1 element through global memory and the target has
// vectors, each thread copies 4 neighbours at once. Half that a target keeps only in its buffers stays
// there. linearize puts a barrier after the copies and one before them, which waits until every thread
// has read the last turn's tiles.
#include <algorithm>

#include "core/alu.h"
#include "core/codegen/lowering.h"

namespace tr {
namespace {

constexpr DType kIndex = DType::Int32;

// The value of index node n where the nodes of `at` have their values and every other variable is 0.
int64_t evaluate(const UGraph& g, int n, const std::map<int, int64_t>& at, std::map<int, int64_t>& done) {
  if (const auto it = at.find(n); it != at.end()) return it->second;
  if (const auto it = done.find(n); it != done.end()) return it->second;
  const UOp& u = g[n];
  int64_t v = 0;
  if (u.kind == UOpKind::Const) v = as_int(u.value);
  if (u.kind == UOpKind::Alu) {
    std::vector<ConstValue> srcs;
    for (int s : u.srcs) srcs.push_back(cast_const(evaluate(g, s, at, done), g[s].dtype));
    v = as_int(exec_alu(u.alu, u.dtype, g[u.srcs.back()].dtype, srcs));
  }
  return done[n] = v;
}

class Stager {
 public:
  Stager(const UGraph& g, const Lowering& low) : g_(g), order_(toposort(g)) {
    int loop_dim = -1;
    for (size_t d = 0; d < low.k.dims.size(); d++)
      if (low.k.dims[d].role == DimRole::Reduce && low.k.dims[d].axis == low.k.stage_axis) loop_dim = static_cast<int>(d);
    // the variables a tile spans (upcasts, unrolls, local ids) and the staged loop, each a bit
    for (int n : order_) {
      const UOp& u = g_[n];
      const bool spans = (u.kind == UOpKind::Range && (u.range == RangeKind::Upcast || u.range == RangeKind::Unroll)) ||
                         (u.kind == UOpKind::Special && u.launch == LaunchKind::Local);
      if (spans || (u.kind == UOpKind::Range && u.range == RangeKind::Reduce && u.dim == loop_dim)) {
        if (!spans) loop_ = n;
        bit_[n] = static_cast<int>(vars_.size());
        vars_.push_back(n);
      }
    }
    deps_.assign(g_.size(), 0);
    for (int n : order_) {
      if (const auto it = bit_.find(n); it != bit_.end()) deps_[n] |= uint64_t{1} << it->second;
      for (int s : g_[n].srcs) deps_[n] |= deps_[s];
    }
    uint64_t locals = 0;
    for (int v : vars_)
      if (g_[v].kind == UOpKind::Special) {
        locals |= uint64_t{1} << bit_.at(v);
        threads_ *= g_[v].size;
      }
    int64_t room = low.target.local_memory;
    for (int n : order_) {
      const UOp& u = g_[n];
      if (loop_ < 0 || u.kind != UOpKind::Load || g_[u.srcs[0]].kind != UOpKind::DefineGlobal) continue;
      const uint64_t d = deps_[n];
      if (!(d >> bit_.at(loop_) & 1) || (d & locals) == locals) continue;  // not in the loop, or no two threads share it
      // half that the target keeps only in its buffers (OpenCL without cl_khr_fp16) has no local arrays
      if (u.dtype == DType::Float16 && !low.target.half_arithmetic) continue;
      Tile t;
      for (int v : vars_)
        if (v != loop_ && (d >> bit_.at(v) & 1)) t.spans.push_back(v);
      // outermost first: the variable along which the index steps furthest
      std::map<int, int64_t> zero_done;
      const int64_t base = evaluate(g_, u.srcs[1], {}, zero_done);
      std::map<int, int64_t> stride;
      for (int v : t.spans) {
        std::map<int, int64_t> done;
        stride[v] = evaluate(g_, u.srcs[1], {{v, 1}}, done) - base;
      }
      std::stable_sort(t.spans.begin(), t.spans.end(), [&](int a, int b) { return std::abs(stride[a]) > std::abs(stride[b]); });
      t.elements = 1;
      for (int v : t.spans) t.elements *= size(v);
      if (t.elements * itemsize(u.dtype) > room) continue;
      const bool ungated = u.srcs.size() == 2;
      if (ungated && low.target.vector_width >= 4 && !t.spans.empty() && stride[t.spans.back()] == 1 && size(t.spans.back()) % 4 == 0)
        t.width = 4;
      room -= t.elements * itemsize(u.dtype);
      tiles_[n] = std::move(t);
    }
  }

  UGraph run() {
    return rewrite(g_, [&](UGraph& out, int old, const UOp& moved) {
      if (moved.kind == UOpKind::Sink) {
        // after the kernel's stores, whose reduce places the copies inside its loop
        UOp sink = moved;
        sink.srcs.insert(sink.srcs.end(), copies_.begin(), copies_.end());
        return out.add(std::move(sink));
      }
      const int n = out.add(moved);
      if (bit_.count(old)) new_[old] = n;
      const auto it = tiles_.find(old);
      return it == tiles_.end() ? n : staged(out, moved, it->second);
    });
  }

 private:
  struct Tile {
    std::vector<int> spans;  // its variables, outermost first
    int64_t elements = 0;
    int width = 1;           // elements a thread copies at once
  };
  const UGraph& g_;
  const std::vector<int> order_;
  std::vector<int> vars_;
  std::map<int, int> bit_;         // variable -> its bit in deps_
  std::vector<uint64_t> deps_;     // per node, the variables under it
  int loop_ = -1;                  // the staged loop's RANGE
  int64_t threads_ = 1;            // the workgroup's threads
  std::map<int, Tile> tiles_;      // staged load -> its tile
  std::map<int, int> new_;         // variable -> its node in the graph being built
  std::vector<int> copies_;        // the stores into local memory, roots of the graph
  int locals_ = 0;

  int64_t size(int v) const {
    const UOp& u = g_[v];
    return u.kind == UOpKind::Special ? u.size : as_int(*g_.const_of(u.srcs[1]));
  }

  // The thread's number in its workgroup: x fastest.
  int thread_id(UGraph& out) const {
    std::vector<int> ids;
    for (int v : vars_)
      if (g_[v].kind == UOpKind::Special) ids.push_back(v);
    std::sort(ids.begin(), ids.end(), [&](int a, int b) { return g_[a].axis > g_[b].axis; });
    int tid = out.cnst(int64_t{0}, kIndex);
    for (int v : ids) tid = out.alu(Op::Add, kIndex, {out.alu(Op::Mul, kIndex, {tid, out.cnst(g_[v].size, kIndex)}), new_.at(v)});
    return tid;
  }

  int staged(UGraph& out, const UOp& load, const Tile& t) {
    const int local = out.add(UOp{.kind = UOpKind::DefineLocal, .dtype = load.dtype, .ptr = true, .size = t.elements,
                                  .launch = LaunchKind::Local, .number = locals_++});
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    std::vector<int64_t> inner(t.spans.size(), 1);
    for (size_t i = t.spans.size() - 1; i-- > 0;) inner[i] = inner[i + 1] * size(t.spans[i + 1]);
    const int tid = thread_id(out);
    // a thread copies `width` neighbours at once: the tile counted in groups of them, the innermost
    // variable stepping by the width
    const int64_t groups = t.elements / t.width;
    for (int64_t first = 0; first < groups; first += threads_) {
      const int group = out.alu(Op::Add, kIndex, {tid, c(first)});
      std::map<int, int> with;
      for (size_t i = 0; i < t.spans.size(); i++) {
        const bool last = i + 1 == t.spans.size();
        const int64_t step = last ? 1 : inner[i] / t.width, count = last ? size(t.spans[i]) / t.width : size(t.spans[i]);
        const int value = out.alu(Op::Mod, kIndex, {out.alu(Op::IDiv, kIndex, {group, c(step)}), c(count)});
        with[new_.at(t.spans[i])] = last && t.width > 1 ? out.alu(Op::Mul, kIndex, {value, c(t.width)}) : value;
      }
      std::map<int, int> done;
      UOp copy = load;
      copy.vec = t.width;
      for (size_t s = 1; s < copy.srcs.size(); s++) copy.srcs[s] = substitute(out, copy.srcs[s], with, done);
      const int at = t.width > 1 ? out.alu(Op::Mul, kIndex, {group, c(t.width)}) : group;
      UOp store{.kind = UOpKind::Store, .srcs = {local, at, out.add(std::move(copy))}};
      // the last turn's threads past the tile copy nothing (their element numbers wrap around: no load
      // reads outside the tile)
      if (first + threads_ > groups) store.srcs.push_back(out.alu(Op::CmpLt, DType::Bool, {group, c(groups)}));
      copies_.push_back(out.add(std::move(store)));
    }
    int position = c(0);
    for (size_t i = 0; i < t.spans.size(); i++)
      position = out.alu(Op::Add, kIndex, {position, out.alu(Op::Mul, kIndex, {new_.at(t.spans[i]), c(inner[i])})});
    return out.add(UOp{.kind = UOpKind::Load, .dtype = load.dtype, .srcs = {local, position}});
  }
};

}  // namespace

UGraph stage(const UGraph& g, const Lowering& low) {
  if (low.k.stage_axis < 0) return g;
  return Stager(g, low).run();
}

}  // namespace tr
