// The staging pass, for a kernel with a STAGE opt: each global load inside the staged reduce loop that
// some threads of the workgroup read alike (a matmul's rows of A are read alike by the threads along
// N, its columns of B by those along M) reads local memory instead. Each turn of the loop the
// workgroup's T threads first copy the turn's tile of it (every element that some thread's upcasts,
// unrolls and local ids read in that turn) from global into local memory, thread t taking elements
// t, t + T, ... in the order of global memory (the variable with the largest stride outermost), so
// that neighbouring threads copy neighbouring elements; where the tile's innermost variables step
// through neighbouring elements (a row, of a multiple of 4) and the target has vectors, each thread
// copies 4 neighbours at once. The tile lies in local memory in that order too, unless the compute
// reads it as vectors along another axis (lay_out). Half that a target keeps only in its buffers stays
// there. With DOUBLE, where the tiles fit local memory twice, each has two halves: the first turn's
// copies come before the loop, and each turn copies the next turn's tile into the half it does not
// read, so that those loads arrive while the turn computes; linearize puts them at the turn's start,
// their stores at its end and one barrier at the next turn's start. Otherwise the turn's own copies
// come first, with a barrier after them and one before, which waits until every thread has read the
// last turn's tiles.
#include <algorithm>
#include <limits>

#include "core/ir/alu.h"
#include "core/codegen/launch_ids.h"
#include "core/codegen/lowering.h"

namespace tr {
namespace {


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
    // the full shape's axis each variable walks (-1: a launch id that numbers several dims)
    const std::vector<LaunchId> ids = launch_ids(low.k, LaunchKind::Local, low.target);
    const int vector_dim = vector_upcast_dim(low.k, low.target);
    for (int v : vars_) {
      const UOp& u = g_[v];
      if (u.kind == UOpKind::Range) axis_[v] = low.k.dims[u.dim].axis;
      if (u.kind == UOpKind::Range && u.dim == vector_dim) vector_ = v;
      for (const LaunchId& id : ids)
        if (u.kind == UOpKind::Special && id.axis == u.axis) axis_[v] = id.dims.size() == 1 ? low.k.dims[id.dims[0]].axis : -1;
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
      // outermost first: the variable along which the index steps furthest; one that does not step it
      // at 1 goes outside them all (a launch id that numbers several dims, of which the load reads only
      // the outer: its tile holds a copy per value of the inner ones)
      std::map<int, int64_t> zero_done;
      const int64_t base = evaluate(g_, u.srcs[1], {}, zero_done);
      std::map<int, int64_t> stride;
      for (int v : t.spans) {
        std::map<int, int64_t> done;
        stride[v] = evaluate(g_, u.srcs[1], {{v, 1}}, done) - base;
      }
      const auto outward = [&](int v) { return stride[v] == 0 ? std::numeric_limits<int64_t>::max() : std::abs(stride[v]); };
      std::stable_sort(t.spans.begin(), t.spans.end(), [&](int a, int b) { return outward(a) > outward(b); });
      lay_out(t, stride, kBankRow / itemsize(u.dtype), low.k.tc.has_value());
      if (t.size * itemsize(u.dtype) > room) continue;
      const bool ungated = u.srcs.size() == 2;
      if (ungated && low.target.vector_width >= 4 && t.row % 4 == 0 && (!t.scatter || size(t.spans.back()) % 4 == 0)) t.width = 4;
      room -= t.size * itemsize(u.dtype);
      tiles_[n] = std::move(t);
    }
    // with DOUBLE, where the tiles fit twice, each has two halves: a turn reads one while its copies
    // fill the other with the next turn's elements
    int64_t used = 0;
    for (const auto& [n, t] : tiles_) used += t.size * itemsize(g_[n].dtype);
    double_ = low.k.stage_halves && 2 * used <= low.target.local_memory;
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
    std::vector<int> spans;      // its variables, outermost first
    std::vector<int64_t> dense;  // per span, its step in the tile's elements counted without padding
    std::vector<int64_t> inner;  // per span, its step in local memory
    int64_t elements = 0;        // the tile's elements
    int64_t size = 0;            // the local array's elements, padding included
    int64_t row = 1;             // the innermost elements that are neighbours in global memory
    bool scatter = false;        // the copies' neighbours are not neighbours in local memory
    int width = 1;               // elements a thread copies at once
  };
  // Where the matrix unit's lanes read a tile (A's rows g = 0..7, B's rows 2t), 8 of them read 8 rows
  // of it at once; a row a multiple of 32 bytes long would put them in the same banks of local memory,
  // so each row of a TC kernel's tiles is followed by this many unused bytes (which also keeps a row's
  // start 16-byte aligned, as vector copies need). So is each row of a tile whose copies scatter, which
  // 4 threads would otherwise store into one bank at once.
  static constexpr int64_t kBankRow = 16;
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
  bool double_ = false;            // each tile has a half for this turn and one for the next
  std::map<int, int> axis_;        // variable -> the full shape's axis it walks (-1: several)
  int vector_ = -1;                // the upcast RANGE whose copies the compute reads as one vector

  // The tile's steps: dense, in the order of global memory (the copies'), and in local memory. There
  // the tile keeps that order, unless the compute reads it as vectors along an upcast that is not the
  // innermost in global memory (B of x @ w.T, read along N, lies along K): then the spans of that
  // upcast's axis go innermost, so the compute's vectors are neighbours, and the copies scatter. The
  // local row (the spans of that axis, else the innermost run that neighbours in global memory) is
  // followed by `pad` unused elements where `pad_rows` or the copies scatter.
  void lay_out(Tile& t, const std::map<int, int64_t>& stride, int64_t pad, bool pad_rows) const {
    const size_t n = t.spans.size();
    t.dense.assign(n, 1);
    t.inner.assign(n, 1);
    size_t row_spans = 0;  // the spans of the local row, innermost first
    bool in_row = n > 0 && stride.at(t.spans.back()) == 1;
    for (size_t i = n; i-- > 0;) {
      if (i + 1 < n) t.dense[i] = t.dense[i + 1] * size(t.spans[i + 1]);
      in_row = in_row && stride.at(t.spans[i]) == t.dense[i];
      if (in_row) {
        t.row = t.dense[i] * size(t.spans[i]);
        row_spans++;
      }
    }
    t.elements = n ? t.dense[0] * size(t.spans[0]) : 1;
    std::vector<size_t> local(n);  // positions in t.spans, outermost first in local memory
    for (size_t i = 0; i < n; i++) local[i] = i;
    const auto along_vector = [&](size_t i) { return vector_ >= 0 && axis_.at(t.spans[i]) == axis_.at(vector_); };
    if (std::find(t.spans.begin(), t.spans.end(), vector_) != t.spans.end() && stride.at(vector_) != 1) {
      std::stable_partition(local.begin(), local.end(), [&](size_t i) { return !along_vector(i); });
      t.scatter = true;
      row_spans = static_cast<size_t>(std::count_if(local.begin(), local.end(), along_vector));
    }
    int64_t step = 1;
    for (size_t p = n; p-- > 0;) {
      if (n - 1 - p == row_spans && row_spans > 0 && (pad_rows || t.scatter)) step += pad;
      t.inner[local[p]] = step;
      step *= size(t.spans[local[p]]);
    }
    t.size = step;
  }

  // The value of a span of `size` values whose step in the tile is `dense` at the first element of copy
  // group `group` (`width` elements a group), spelled as simply as the sizes allow.
  static int copied_value(UGraph& out, int group, int64_t dense, int64_t size, int64_t width) {
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    if (dense % width == 0) return out.alu(Op::Mod, kIndex, {out.alu(Op::IDiv, kIndex, {group, c(dense / width)}), c(size)});
    if (width % (dense * size) == 0) return c(0);  // the span lies inside one group
    if (width % dense == 0 && (size * dense) % width == 0)
      return out.alu(Op::Mul, kIndex, {out.alu(Op::Mod, kIndex, {group, c(size * dense / width)}), c(width / dense)});
    const int element = out.alu(Op::Mul, kIndex, {group, c(width)});
    return out.alu(Op::Mod, kIndex, {out.alu(Op::IDiv, kIndex, {element, c(dense)}), c(size)});
  }

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
    const int local = out.add(UOp{.kind = UOpKind::DefineLocal, .dtype = load.dtype, .ptr = true, .size = t.size * (double_ ? 2 : 1),
                                  .launch = LaunchKind::Local, .number = locals_++});
    const auto c = [&](int64_t v) { return out.cnst(v, kIndex); };
    const int loop = new_.at(loop_);
    // where a turn's tile lies: its half of a double tile
    const auto in_half = [&](int at, int turn) {
      return double_ ? out.alu(Op::Add, kIndex, {at, out.alu(Op::Mul, kIndex, {out.alu(Op::Mod, kIndex, {turn, c(2)}), c(t.size)})}) : at;
    };
    // the copies: each turn's own tile, or the first turn's before the loop and each turn the next
    // one's (the last turn reads its own again rather than past the loop's end; no turn reads that half)
    struct Turn {
      int reads, fills;
    };
    std::vector<Turn> turns{{loop, loop}};
    if (double_) {
      const int next = out.alu(Op::Add, kIndex, {loop, c(1)});
      const int in_loop = out.alu(Op::Where, kIndex, {out.alu(Op::CmpLt, DType::Bool, {next, out[loop].srcs[1]}), next, loop});
      turns = {{out[loop].srcs[0], out[loop].srcs[0]}, {in_loop, next}};
    }
    const auto position = [&](const std::vector<int>& values) {
      int at = c(0);
      for (size_t i = 0; i < t.spans.size(); i++) at = out.alu(Op::Add, kIndex, {at, out.alu(Op::Mul, kIndex, {values[i], c(t.inner[i])})});
      return at;
    };
    const int tid = thread_id(out);
    // a thread copies `width` neighbours at once (within a row, so neighbours in both memories): the
    // tile counted in groups of them
    const int64_t groups = t.elements / t.width;
    for (int64_t first = 0; first < groups; first += threads_) {
      const int group = out.alu(Op::Add, kIndex, {tid, c(first)});
      const int element = out.alu(Op::Mul, kIndex, {group, c(t.width)});
      std::map<int, int> with;
      std::vector<int> values;
      for (size_t i = 0; i < t.spans.size(); i++) {
        values.push_back(copied_value(out, group, t.dense[i], size(t.spans[i]), t.width));
        with[new_.at(t.spans[i])] = values.back();
      }
      const int at = t.size == t.elements && !t.scatter ? element : position(values);
      for (const Turn& turn : turns) {
        if (double_) with[loop] = turn.reads;
        std::map<int, int> done;
        UOp copy = load;
        copy.vec = t.width;
        for (size_t s = 1; s < copy.srcs.size(); s++) copy.srcs[s] = substitute(out, copy.srcs[s], with, done);
        const int loaded = out.add(std::move(copy));
        const auto store = [&](int where, int value) {
          UOp st{.kind = UOpKind::Store, .srcs = {local, in_half(where, turn.fills), value}};
          // the last turn's threads past the tile copy nothing (their element numbers wrap around: no
          // load reads outside the tile)
          if (first + threads_ > groups) st.srcs.push_back(out.alu(Op::CmpLt, DType::Bool, {group, c(groups)}));
          copies_.push_back(out.add(std::move(st)));
        };
        if (!t.scatter || t.width == 1) {
          store(at, loaded);
          continue;
        }
        // each lane at its own place: the innermost span's value and the lane
        for (int lane = 0; lane < t.width; lane++) {
          std::vector<int> at_lane = values;
          at_lane.back() = out.alu(Op::Add, kIndex, {values.back(), c(lane)});
          store(position(at_lane), out.gep(loaded, lane));
        }
      }
    }
    std::vector<int> own;
    for (int v : t.spans) own.push_back(new_.at(v));
    return out.add(UOp{.kind = UOpKind::Load, .dtype = load.dtype, .srcs = {local, in_half(position(own), loop)}});
  }
};

}  // namespace

UGraph stage(const UGraph& g, const Lowering& low) {
  if (low.k.stage_axis < 0) return g;
  return Stager(g, low).run();
}

}  // namespace tr
