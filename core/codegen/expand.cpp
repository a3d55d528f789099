// The expand pass (after loops, stage and tensor_cores): every dim that an opt unrolled is expanded. An
// UPCAST's RANGE becomes one copy of the graph per value (each with its own accumulator and store), an
// UNROLL's becomes a chain of combines inside its reduce, and the innermost upcast, where the target has
// vectors and the lanes sit side by side in memory, becomes the lanes of vector values: a load or store whose
// lanes' indices are one contiguous run (compared as simplified nodes) moves the vector whole. On a CPU
// without such an upcast, the stride-1 UNROLL of a row read in order becomes vector lanes instead
// (choose_row_lanes). On a CPU, a load whose lanes each run along another upcast (a transpose's tile) loads
// those runs whole and transposes them with shuffles (transposed_load), and a store of whole cache lines to
// an output larger than the last-level cache streams past it (streams).
#include <map>
#include <unordered_map>

#include "core/codegen/lowering.h"
#include "core/codegen/rules.h"
#include "core/base/error.h"

namespace tr {
namespace {

class Expander {
 public:
  Expander(const UGraph& g, const Lowering& low) : g_(g), low_(low), order_(toposort(g)) {
    for (int n : order_)
      if (g_[n].kind == UOpKind::Range && (g_[n].range == RangeKind::Upcast || g_[n].range == RangeKind::Unroll))
        slot_[n] = static_cast<int>(ranges_.size()), ranges_.push_back(n);
    bind_.assign(ranges_.size(), -1);
    // a binding's code counts each range's value + 1 (0: unbound) in mixed radix, so that (node, code)
    // names one copy of a node in one machine word
    const auto too_many = [] { fail("value", "the kernel's upcasts and unrolls make more copies than the lowering can count"); };
    for (int r : ranges_) {
      radix_.push_back(codes_);
      if (__builtin_mul_overflow(codes_, static_cast<uint64_t>(range_size(r) + 1), &codes_)) too_many();
    }
    if (uint64_t keys = 0; __builtin_mul_overflow(codes_, static_cast<uint64_t>(g_.size()), &keys)) too_many();
    deps_.assign(g_.size(), 0);
    has_value_.assign(g_.size(), false);
    for (int n : order_) {
      const UOp& u = g_[n];
      if (const auto it = slot_.find(n); it != slot_.end()) deps_[n] = uint64_t{1} << it->second;
      for (int s : u.srcs) {
        deps_[n] |= deps_[s];
        has_value_[n] = has_value_[n] || has_value_[s];
      }
      has_value_[n] = has_value_[n] || u.kind == UOpKind::Load || u.kind == UOpKind::Assign;
      if (u.kind == UOpKind::Assign)  // the unrolled ranges it closes are expanded inside it
        for (size_t i = 2; i < u.srcs.size(); i++) deps_[n] &= ~deps_[u.srcs[i]];
    }
    choose_vector_range();
    choose_row_lanes();
  }

  UGraph run() {
    std::vector<int> stores;
    for (int store : g_[g_.sink].srcs)
      for_each_combo(deps_[store] & ~vbit(), [&] { this->store(store, stores); });
    out_.sink = out_.add(UOp{.kind = UOpKind::Sink, .srcs = std::move(stores)});
    return std::move(out_);
  }

 private:
  const UGraph& g_;
  const Lowering& low_;
  const std::vector<int> order_;
  UGraph out_;
  std::vector<int> ranges_;             // the expanded RANGEs
  std::map<int, int> slot_;             // RANGE -> its position in ranges_ and bind_
  std::vector<int64_t> bind_;           // the value each expanded range has now; -1 when unbound
  std::vector<uint64_t> deps_;          // per node, the expanded ranges its value depends on
  std::vector<bool> has_value_;         // per node, whether a load or reduce is under it (not just index math)
  int vslot_ = -1;                      // the upcast whose lanes are vector lanes
  std::vector<bool> row_lanes_;         // per expanded range, whether it is a reduce accumulator's lanes
  int width_ = 1;
  int accs_ = 0;
  std::vector<uint64_t> radix_;         // per expanded range, its place value in a binding's code
  uint64_t codes_ = 1;                  // how many binding codes there are
  std::unordered_map<uint64_t, int> scalars_, vectors_;  // (node, binding code) -> the copy made
  std::map<int, int> simplified_;

  uint64_t vbit() const { return vslot_ < 0 ? 0 : uint64_t{1} << vslot_; }
  int64_t range_size(int r) const { return as_int(*g_.const_of(g_[r].srcs[1])); }

  void choose_vector_range() {
    const int d = vector_upcast_dim(low_.k, low_.target);
    for (size_t i = 0; i < ranges_.size(); i++)
      if (g_[ranges_[i]].range == RangeKind::Upcast && g_[ranges_[i]].dim == d) {
        vslot_ = static_cast<int>(i);
        width_ = static_cast<int>(low_.k.dims[d].size);
      }
  }

  // On a CPU, without an output vector, a stride-1 unroll of the last reduce axis is a row's lanes
  // when every load reads that axis in order (or the same element for each lane). In a reduce's walk
  // they become the lanes of its accumulator: each lane sums its own share of the row from whole
  // vector loads, and the lanes are combined once after the loop (a row sum vectorized along the
  // row; the order of the additions changes, as GROUP's does). In the walk of a store over the rows
  // (softmax's last) they are the store's vector lanes. Not on a GPU, whose neighbouring threads
  // already read neighbouring elements.
  void choose_row_lanes() {
    const Kernel& k = low_.k;
    row_lanes_.assign(ranges_.size(), false);
    if (vslot_ >= 0 || low_.target.gpu || low_.target.vector_width < 2 || !vector_values(k)) return;
    for (size_t i = 0; i < ranges_.size(); i++) {
      if (g_[ranges_[i]].range != RangeKind::Unroll) continue;
      const Dim& dim = k.dims[g_[ranges_[i]].dim];
      const bool pow2 = (dim.size & (dim.size - 1)) == 0;
      const bool in_order = dim.axis == static_cast<int>(k.full_shape.size()) - 1 && loads_in_order(k, dim.axis);
      row_lanes_[i] = in_order && dim.stride == 1 && pow2 && dim.size <= low_.target.vector_width;
    }
    for (int store : g_[g_.sink].srcs)
      for (size_t i = 0; i < ranges_.size(); i++)
        if (row_lanes_[i] && (deps_[store] >> i & 1)) {
          vslot_ = static_cast<int>(i);
          width_ = static_cast<int>(range_size(ranges_[i]));
          row_lanes_[i] = false;
        }
  }

  // Calls f once for every combination of values of the ranges in `bits`, the last range fastest.
  void for_each_combo(uint64_t bits, const std::function<void()>& f) {
    std::vector<int> slots;
    for (size_t i = 0; i < ranges_.size(); i++)
      if (bits >> i & 1) slots.push_back(static_cast<int>(i));
    const std::function<void(size_t)> go = [&](size_t at) {
      if (at == slots.size()) return f();
      for (int64_t v = 0; v < range_size(ranges_[slots[at]]); v++) {
        bind_[slots[at]] = v;
        go(at + 1);
      }
      bind_[slots[at]] = -1;
    };
    go(0);
  }

  // n's copy under the current values of the ranges it depends on
  uint64_t key(int n) const {
    uint64_t code = 0;
    for (uint64_t bits = deps_[n]; bits; bits &= bits - 1) {
      const int i = __builtin_ctzll(bits);
      code += static_cast<uint64_t>(bind_[i] + 1) * radix_[i];
    }
    return static_cast<uint64_t>(n) * codes_ + code;
  }

  // n with every range it depends on bound to a value.
  int scalar(int n) {
    const uint64_t k = key(n);
    if (const auto it = scalars_.find(k); it != scalars_.end()) return it->second;
    const FromAstRow from(out_, g_.origin(n));
    const int made = make_scalar(n);
    return scalars_[k] = made;
  }

  int make_scalar(int n) {
    const UOp& u = g_[n];
    if (const auto it = slot_.find(n); it != slot_.end()) return out_.cnst(bind_[it->second], u.dtype);
    if (u.kind == UOpKind::Assign) return reduce(n, false);
    UOp moved = u;
    for (int& s : moved.srcs) s = scalar(s);
    return out_.add(std::move(moved));
  }

  // n as a vector over the vector range's lanes (a scalar where n does not depend on it).
  int vector(int n) {
    if (!(deps_[n] & vbit())) return scalar(n);
    const uint64_t k = key(n);
    if (const auto it = vectors_.find(k); it != vectors_.end()) return it->second;
    const FromAstRow from(out_, g_.origin(n));
    const int made = make_vector(n);
    return vectors_[k] = made;
  }

  int make_vector(int n) {
    const UOp& u = g_[n];
    if (u.kind == UOpKind::Load) return load(n);
    if (u.kind == UOpKind::Assign) return reduce(n, true);
    if ((u.kind != UOpKind::Alu && u.kind != UOpKind::Cast) || !has_value_[n]) return per_lane(n);
    std::vector<int> srcs;
    for (int s : u.srcs) srcs.push_back(vector(s));
    return alu(u, srcs);
  }

  int per_lane(int n) {
    std::vector<int> lanes;
    for (int l = 0; l < width_; l++) lanes.push_back(lane(n, l));
    return out_.vectorize(std::move(lanes));
  }
  int lane(int n, int l) {
    bind_[vslot_] = l;
    const int x = scalar(n);
    bind_[vslot_] = -1;
    return x;
  }
  int simplified_lane(int n, int l) { return simplify_node(out_, lane(n, l), simplified_); }

  // An ALU or CAST over vector sources: one vector op where the target applies it to whole vectors.
  int alu(const UOp& u, const std::vector<int>& srcs) {
    const bool whole = u.kind == UOpKind::Alu && low_.target.vector_alu &&
                       (u.alu == Op::Add || u.alu == Op::Mul || u.alu == Op::Neg || u.alu == Op::Max || u.alu == Op::MaxNan ||
                        u.alu == Op::Exp2 || u.alu == Op::Log2 || u.alu == Op::Sin || u.alu == Op::Sqrt);
    if (whole) {
      std::vector<int> vs;
      for (int s : srcs) vs.push_back(out_.broadcast(s, width_));
      return out_.alu(u.alu, u.dtype, std::move(vs), width_);
    }
    std::vector<int> lanes;
    for (int l = 0; l < width_; l++) {
      UOp one = u;
      for (size_t i = 0; i < srcs.size(); i++) one.srcs[i] = out_[srcs[i]].vec > 1 ? out_.gep(srcs[i], l) : srcs[i];
      lanes.push_back(out_.add(std::move(one)));
    }
    return out_.vectorize(std::move(lanes));
  }

  // Whether the lanes are one contiguous run from the first lane's address, with one gate.
  struct Lanes {
    std::vector<int> index, gate;
    bool contiguous = true, same = true;
  };
  Lanes lanes_of(const UOp& access, size_t index_src, std::optional<size_t> gate_src) {
    Lanes out;
    for (int l = 0; l < width_; l++) {
      out.index.push_back(simplified_lane(access.srcs[index_src], l));
      out.gate.push_back(gate_src ? simplified_lane(access.srcs[*gate_src], l) : -1);
      const bool same_gate = out.gate[l] == out.gate[0];
      const auto [base, offset] = split_offset(out_, out.index[l]);
      const auto [base0, offset0] = split_offset(out_, out.index[0]);
      out.contiguous = out.contiguous && same_gate && base == base0 && offset == offset0 + l;
      out.same = out.same && same_gate && out.index[l] == out.index[0];
    }
    return out;
  }

  int load(int n) {
    const UOp& u = g_[n];
    const bool gated = u.srcs.size() > 3;
    const Lanes l = lanes_of(u, 1, gated ? std::optional<size_t>(3) : std::nullopt);
    const auto one = [&](int index, int gate, int vec) {
      UOp load{.kind = UOpKind::Load, .dtype = u.dtype, .vec = vec, .srcs = {scalar(u.srcs[0]), index}};
      if (gated) load.srcs.insert(load.srcs.end(), {scalar(u.srcs[2]), gate});
      return out_.add(std::move(load));
    };
    if (l.same) return out_.broadcast(one(l.index[0], l.gate[0], 1), width_);
    if (l.contiguous) return one(l.index[0], l.gate[0], width_);
    if (const std::optional<int> t = transposed_load(n)) return *t;
    std::vector<int> lanes;
    for (int i = 0; i < width_; i++) lanes.push_back(one(l.index[i], l.gate[i], 1));
    return out_.vectorize(std::move(lanes));
  }

  // A load whose lanes are not one run, where another upcast walks each lane's elements in order (a
  // transpose's tile): each lane's run of `width_` along that upcast loads as one vector, and the
  // square of vectors is transposed in registers by log2(width) rounds of shuffles, each interleaving
  // the halves of two vectors. Loading each lane's element alone reads every line of the tile once per
  // lane (16 lines in one set of an 8-way L1 where the rows lie a power of two apart): on the 2-core
  // AVX-512 VM, in a C harness, the 4096x4096 transpose in 16x16 float32 tiles took 9 ms that way
  // with plain or streaming stores, 3.5 ms with the shuffles and streaming stores.
  // Only on a CPU whose renderer has whole-vector ops (a GPU's neighbouring threads read neighbouring
  // elements instead), and not of bfloat16, which the bfloat16 pass widens lane by lane.
  std::optional<int> transposed_load(int n) {
    const UOp& u = g_[n];
    const bool pow2 = (width_ & (width_ - 1)) == 0;
    if (low_.target.gpu || !low_.target.vector_alu || !pow2 || u.srcs.size() > 3 || u.dtype == DType::BFloat16)
      return std::nullopt;
    for (size_t r = 0; r < ranges_.size(); r++) {
      const int slot = static_cast<int>(r);
      if (slot == vslot_ || g_[ranges_[r]].range != RangeKind::Upcast || !(deps_[n] >> r & 1) ||
          range_size(ranges_[r]) % width_ != 0)
        continue;
      const int64_t at = bind_[r], first = at / width_ * width_;
      // index[l][t]: lane l's element at the upcast's value first + t
      std::vector<std::vector<int>> index(width_);
      bool runs = true;
      for (int l = 0; l < width_ && runs; l++)
        for (int t = 0; t < width_ && runs; t++) {
          bind_[r] = first + t;
          index[l].push_back(simplified_lane(u.srcs[1], l));
          const auto [base, offset] = split_offset(out_, index[l][t]);
          const auto [base0, offset0] = split_offset(out_, index[l][0]);
          runs = base == base0 && offset == offset0 + t;
        }
      bind_[r] = at;
      if (!runs) continue;
      std::vector<int> rows;
      for (int l = 0; l < width_; l++)
        rows.push_back(out_.add(UOp{.kind = UOpKind::Load, .dtype = u.dtype, .vec = width_, .srcs = {scalar(u.srcs[0]), index[l][0]}}));
      return transpose(rows)[at - first];
    }
    return std::nullopt;
  }

  // rows[l][t] becomes out[t][l]: after round k, vector i holds the lanes of the rows whose numbers
  // agree with it in their low k bits (the perfect shuffle: each round sends the halves of vectors i
  // and i + width/2 to vectors 2i and 2i + 1, lane by lane in turn).
  std::vector<int> transpose(std::vector<int> rows) {
    const int half = width_ / 2;
    for (int round = 1; round < width_; round *= 2) {
      std::vector<int> next;
      for (int i = 0; i < half; i++)
        for (int part = 0; part < 2; part++) {
          std::vector<int> lanes;
          for (int p = 0; p < half; p++) lanes.insert(lanes.end(), {part * half + p, part * half + p + width_});
          next.push_back(out_.add(UOp{.kind = UOpKind::Shuffle, .dtype = out_[rows[i]].dtype, .vec = width_,
                                      .srcs = {rows[i], rows[i + half]}, .lanes = std::move(lanes)}));
        }
      rows = std::move(next);
    }
    return rows;
  }

  // Whether a whole-vector store streams past the cache (core/ir/uops.h): on an x86 CPU, where the vector
  // is a whole cache line, the output outgrows the last-level cache (so no later kernel finds it
  // there anyway) and the kernel reads nothing of it back. A plain store reads each line before
  // writing it; on the 2-core AVX-512 VM the 4096x4096 transpose took 3.5 ms with streaming stores of
  // its 16x16 tiles against 6.2 ms with plain ones (the copy loop: 3.7 ms).
  bool streams(const UOp& store) const {
    const Target& t = low_.target;
    const DType dtype = g_[store.srcs[2]].dtype;
    const int64_t line = 64, llc = t.caches.last_level();
    if (t.gpu || !isa_streams(t.isa) || width_ * itemsize(dtype) != line || llc <= 0 ||
        low_.k.output_size() * itemsize(dtype) <= llc)
      return false;
    return std::none_of(order_.begin(), order_.end(),
                        [&](int n) { return g_[n].kind == UOpKind::Load && g_[n].srcs[0] == store.srcs[0]; });
  }

  void store(int n, std::vector<int>& stores) {
    const FromAstRow from(out_, g_.origin(n));
    const UOp& u = g_[n];
    const bool gated = u.srcs.size() > 3;
    if (u.kind != UOpKind::Store || !(deps_[n] & vbit())) {
      stores.push_back(scalar(n));
      return;
    }
    const Lanes l = lanes_of(u, 1, gated ? std::optional<size_t>(3) : std::nullopt);
    const int value = vector(u.srcs[2]);
    const auto one = [&](int index, int gate, int v, bool whole) {
      UOp store{.kind = UOpKind::Store, .srcs = {scalar(u.srcs[0]), index, v}, .streams = whole && streams(u)};
      if (gated) store.srcs.push_back(gate);
      stores.push_back(out_.add(std::move(store)));
    };
    if (l.contiguous) return one(l.index[0], l.gate[0], out_.broadcast(value, width_), true);
    for (int i = 0; i < width_; i++)
      one(l.index[i], l.gate[i], out_[value].vec > 1 ? out_.gep(value, i) : value, false);
  }

  // An ASSIGN's value for this binding: one accumulator with the unrolled values combined into it in
  // turn, or, where it closes a row's lanes, vector accumulators whose lanes are combined after the loop.
  int reduce(int n, bool as_vector) {
    const UOp& a = g_[n];
    // only where the lanes are summed over a loop that stays: a reduce unrolled whole gains nothing
    int lanes = -1;
    bool loops = false;
    for (size_t i = 2; i < a.srcs.size(); i++) {
      const auto it = slot_.find(a.srcs[i]);
      if (it == slot_.end()) loops = true;
      else if (row_lanes_[it->second] && (deps_[g_[a.srcs[1]].srcs[1]] >> it->second & 1)) lanes = it->second;
    }
    if (lanes < 0 || !loops) return accumulate(n, as_vector, 0);
    // the reduce's other unrolls each get an accumulator of their own (several sums in flight, not one
    // chain), combined after the loop
    const int outer_slot = vslot_, outer_width = width_;
    vslot_ = lanes;
    width_ = static_cast<int>(range_size(ranges_[lanes]));
    uint64_t others = 0;
    for (size_t i = 2; i < a.srcs.size(); i++)
      if (slot_.count(a.srcs[i])) others |= deps_[a.srcs[i]] & ~vbit();
    const UOp& body = g_[a.srcs[1]];
    int acc = -1;
    for_each_combo(others, [&] {
      const int one = accumulate(n, true, others);
      acc = acc < 0 ? one : alu(body, {acc, one});
    });
    int total = out_.gep(acc, 0);
    for (int l = 1; l < width_; l++) total = out_.alu(body.alu, body.dtype, {total, out_.gep(acc, l)});
    vslot_ = outer_slot;
    width_ = outer_width;
    return total;
  }

  // The ASSIGN's accumulator, and its unrolled values (but those of the ranges in `bound`, which have
  // their values already) combined into it in turn.
  int accumulate(int n, bool as_vector, uint64_t bound) {
    const UOp& a = g_[n];
    const UOp& body = g_[a.srcs[1]];
    const UOp& acc = g_[a.srcs[0]];
    const bool wmma = body.kind == UOpKind::Wmma;  // its accumulator is the last source, a vector of the unit's tile
    const int x = body.srcs[1];
    const int vec = wmma ? acc.vec : as_vector && (deps_[x] & vbit()) ? width_ : 1;
    const int fresh = out_.add(UOp{.kind = UOpKind::DefineAcc, .dtype = acc.dtype, .vec = vec, .value = acc.value,
                                   .number = accs_++});
    int cur = fresh;
    uint64_t unrolled = 0;
    std::vector<int> kept;
    for (size_t i = 2; i < a.srcs.size(); i++) {
      if (slot_.count(a.srcs[i])) unrolled |= deps_[a.srcs[i]] & ~vbit() & ~bound;
      else kept.push_back(scalar(a.srcs[i]));
    }
    for_each_combo(unrolled, [&] {
      if (wmma) {
        UOp step = body;
        for (size_t i = 0; i + 1 < step.srcs.size(); i++) step.srcs[i] = scalar(step.srcs[i]);
        step.srcs.back() = cur;
        cur = out_.add(std::move(step));
        return;
      }
      const int v = vec > 1 ? vector(x) : scalar(x);
      cur = vec > 1 ? alu(body, {cur, v}) : out_.alu(body.alu, body.dtype, {cur, v});
    });
    std::vector<int> srcs{fresh, cur};
    srcs.insert(srcs.end(), kept.begin(), kept.end());
    return out_.add(UOp{.kind = UOpKind::Assign, .dtype = a.dtype, .vec = vec, .srcs = std::move(srcs)});
  }
};

}  // namespace

// The innermost upcast: so the store is one vector store.
int vector_upcast_dim(const Kernel& k, const Target& target) {
  const bool ok = target.vector_width >= 2 && vector_values(k) &&
                  std::none_of(k.dims.begin(), k.dims.end(), [](const Dim& d) { return d.role == DimRole::Group; });
  int best = -1;
  for (size_t d = 0; d < k.dims.size(); d++)
    if (k.dims[d].role == DimRole::Upcast) best = static_cast<int>(d);
  if (!ok || best < 0) return -1;
  const Dim& dim = k.dims[best];
  const bool pow2 = (dim.size & (dim.size - 1)) == 0;
  return dim.axis == k.first_reduce - 1 && dim.stride == 1 && pow2 && dim.size <= target.vector_width ? best : -1;
}

UGraph expand(const UGraph& g, const Lowering& low) {
  // an online softmax has no upcast or unroll (core/opt/opt_table.cpp refuses them), and its combines
  // rescale the accumulators, which this pass's rebuilt combines (acc <op> x) would drop
  if (low.k.online_softmax) return g;
  return Expander(g, low).run();
}

}  // namespace tr
