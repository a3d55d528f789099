// The last pass: the graph as the numbered list that renderers read. Each node goes inside the loops
// it depends on and no deeper: nodes that depend on no loop come first, a node that depends on the
// outer loops only is placed before the inner ones open. An ASSIGN opens the reduce loops it closes,
// places its accumulator before them and its combine inside, and is read after them as the
// accumulator. A load of local memory comes after every store into it and a BARRIER.
#include <algorithm>
#include <unordered_map>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "core/codegen/lowering.h"
#include "core/codegen/tensor_cores.h"
#include "core/base/error.h"

namespace tr {
namespace {

class Linearizer {
 public:
  explicit Linearizer(const UGraph& g) : g_(g), order_(toposort(g)), placed_(g.size(), -1), stored_(g.size(), false) {
    ranges_.resize(g.size());
    reads_accumulator_.assign(g.size(), false);
    reads_reduce_.assign(g.size(), false);
    value_.assign(g.size(), false);
    find_ranges({});
    share_walks();
    // a load of local memory that is stored inside loops (a staged tile, core/codegen/stage.cpp) is read
    // inside them too, and so is everything that reads it
    for (int n : order_)
      if (g_[n].kind == UOpKind::Store && g_[g_[n].srcs[0]].kind == UOpKind::DefineLocal && !ranges_[n].empty())
        tiles_[g_[n].srcs[0]].insert(tiles_[g_[n].srcs[0]].end(), ranges_[n].begin(), ranges_[n].end());
    if (!tiles_.empty()) find_ranges(tiles_);
    // a tile also stored before its loops has two halves (the first turn's copies come before the loop)
    for (int n : order_)
      if (g_[n].kind == UOpKind::Store && tiles_.count(g_[n].srcs[0]) && ranges_[n].empty()) {
        first_turn_.push_back(n);
        halves_.insert(g_[n].srcs[0]);
      }
    for (int n : order_) {
      const UOp& u = g_[n];
      for (int s : u.srcs) {
        reads_reduce_[n] = reads_reduce_[n] || reads_reduce_[s] || g_[s].kind == UOpKind::Assign;
        reads_accumulator_[n] = reads_accumulator_[n] || reads_accumulator_[s] || reads_reduce_[n] ||
                                g_[s].kind == UOpKind::DefineAcc;
      }
      if (u.kind == UOpKind::Assign) closed_.insert(closed_.end(), u.srcs.begin() + 2, u.srcs.end());
      if (u.kind == UOpKind::Store && u.srcs.size() > 2) mark_value(u.srcs[2]);
      if (u.kind == UOpKind::Assign) mark_value(u.srcs[1]);
    }
    // what a reduce's loop or a loop's bound reads is early; what only a reduce's result reads is late
    early_.assign(g.size(), false);
    late_.assign(g.size(), false);
    for (int n : order_) {
      if (g_[n].kind == UOpKind::Assign) mark_early(g_[n].srcs[1]);
      if (g_[n].kind == UOpKind::Range)
        for (int s : g_[n].srcs) mark_early(s);
    }
    for (auto it = order_.rbegin(); it != order_.rend(); ++it)
      if (g_[*it].kind != UOpKind::Assign && (late_[*it] || reads_reduce_[*it]))
        for (int s : g_[*it].srcs) late_[s] = true;
  }

  Linearized run() {
    for (const UOpKind kind : {UOpKind::DefineGlobal, UOpKind::DefineVar, UOpKind::DefineLocal, UOpKind::Special})
      for (int n : sorted(kind)) need(n);
    for (int n : first_turn_) need(n);
    std::vector<int> loops;
    for (int n : order_)
      if (g_[n].kind == UOpKind::Range && std::find(closed_.begin(), closed_.end(), n) == closed_.end()) loops.push_back(n);
    std::sort(loops.begin(), loops.end(), [&](int a, int b) { return nest(a) < nest(b); });
    hoist(-1);
    for (int r : loops) {
      reduces_ready();
      open(r);
      hoist(r);
    }
    for (int s : g_[g_.sink].srcs) need(s);
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) close(*it);
    // what the linearizer adds (an ENDRANGE, a BARRIER) has no node; an ENDRANGE comes from its RANGE's row
    std::vector<int> rows(out_.size(), -1);
    for (size_t i = 0; i < out_.size(); i++)
      if (const auto it = node_at_.find(static_cast<int>(i)); it != node_at_.end()) rows[i] = g_.origin(it->second);
      else if (out_[i].kind == UOpKind::EndRange) rows[i] = rows[static_cast<size_t>(out_[i].srcs[0])];
    return {std::move(out_), std::move(rows), flops_};
  }

 private:
  const UGraph& g_;
  const std::vector<int> order_;
  std::vector<std::vector<int>> ranges_;  // per node, the RANGEs it depends on, outermost first
  std::map<int, std::vector<int>> shared_;  // ASSIGN -> the RANGEs of the reduces it steps with (share_walks)
  std::vector<bool> reads_accumulator_;   // per node, whether an accumulator (or a reduce's result) is under it
  std::vector<bool> reads_reduce_;        // per node, whether a reduce's result is under it
  std::vector<bool> value_;               // per node, whether it computes a value (not an index)
  std::vector<bool> early_;               // per node, whether a reduce's loop or a loop's bound reads it
  std::vector<bool> late_;                // per node, whether something after a reduce reads it
  std::vector<int> closed_;               // RANGEs that an ASSIGN closes
  std::vector<int> placed_;               // node -> its position in out_, while its scope is open
  std::vector<bool> stored_;              // per STORE, whether it is placed
  std::map<int, std::vector<int>> tiles_;  // local buffer stored inside loops -> those loops (RANGEs)
  std::set<int> halves_;                   // tiles with two halves: each turn fills the next turn's
  std::vector<int> first_turn_;            // their stores before the loop
  std::map<int, std::vector<int>> next_turn_;  // RANGE -> the stores into halves_ placed at its turn's end
  std::vector<int> open_;                 // the open RANGEs, outermost first
  std::vector<std::vector<int>> scopes_{1};  // nodes placed in each open scope, to forget at its end
  std::vector<int> barriers_;             // local buffers whose BARRIER is placed
  int last_barrier_ = -1;                 // where the latest BARRIER is in out_, and the RANGEs open there
  std::vector<int> open_at_barrier_;
  std::vector<UOp> out_;
  std::unordered_map<int, int> node_at_;  // position in out_ -> the node placed there
  int64_t trip_ = 1;
  int64_t flops_ = 0;

  // Per node, the RANGEs it depends on; a load of a local buffer in `tiles` depends on those given.
  void find_ranges(const std::map<int, std::vector<int>>& tiles) {
    for (int n : order_) {
      const UOp& u = g_[n];
      std::vector<int> r = u.kind == UOpKind::Range ? std::vector<int>{n} : std::vector<int>{};
      if (const auto it = u.kind == UOpKind::Load ? tiles.find(u.srcs[0]) : tiles.end(); it != tiles.end()) r = it->second;
      for (int s : u.srcs) r.insert(r.end(), ranges_[s].begin(), ranges_[s].end());
      if (const auto it = shared_.find(n); it != shared_.end()) r.insert(r.end(), it->second.begin(), it->second.end());
      if (u.kind == UOpKind::Assign)
        for (size_t i = 2; i < u.srcs.size(); i++) std::erase(r, u.srcs[i]);
      std::sort(r.begin(), r.end(), [&](int a, int b) { return nest(a) < nest(b); });
      r.erase(std::unique(r.begin(), r.end()), r.end());
      ranges_[n] = std::move(r);
    }
  }

  // Reduces whose combines read each other's accumulators (an online softmax's sums read its running
  // maximum, core/codegen/loops.cpp) step together: each takes the loops of all of them, so that one
  // loop holds them all, though the maximum alone would be placed outside the loops of the outputs
  // it does not vary over.
  void share_walks() {
    std::map<int, int> owner;  // DEFINE_ACC -> its ASSIGN
    std::vector<int> group(g_.size());
    std::iota(group.begin(), group.end(), 0);
    for (int n : order_)
      if (g_[n].kind == UOpKind::Assign) owner[g_[n].srcs[0]] = n;
    const std::function<int(int)> root = [&](int n) { return group[n] == n ? n : group[n] = root(group[n]); };
    bool any = false;
    for (const auto& entry : owner) {
      const int n = entry.second;
      walk_value(g_[n].srcs[1], [&](int x) {
        const auto it = owner.find(x);
        if (it == owner.end() || it->second == n) return;
        group[root(it->second)] = root(n);
        any = true;
      });
    }
    if (!any) return;
    std::map<int, std::vector<int>> loops;  // group -> the RANGEs of its members
    std::map<int, int> members;
    for (const auto& [acc, n] : owner) {
      loops[root(n)].insert(loops[root(n)].end(), ranges_[n].begin(), ranges_[n].end());
      members[root(n)]++;
    }
    for (const auto& [acc, n] : owner)
      if (members[root(n)] > 1) shared_[n] = loops[root(n)];
    find_ranges({});
  }

  // Loops nest in the order of the dims they walk.
  std::pair<int, int> nest(int range) const { return {g_[range].dim, g_[range].number}; }
  // A loop to a symbolic size counts its largest value (its Variable's largest, through the size's +
  // and *): the estimate holds for every value the kernel serves.
  int64_t size_of(int range) const { return largest(g_[range].srcs[1]); }
  int64_t largest(int u) const {
    const UOp& x = g_[u];
    if (x.kind == UOpKind::DefineVar) return x.size;
    if (x.kind == UOpKind::Alu && (x.alu == Op::Add || x.alu == Op::Mul)) {
      const int64_t a = largest(x.srcs[0]), b = largest(x.srcs[1]);
      return x.alu == Op::Add ? a + b : a * b;
    }
    return as_int(*g_.const_of(u));
  }

  void mark_early(int n) {
    if (early_[n]) return;
    early_[n] = true;
    for (int s : g_[n].srcs) mark_early(s);
  }

  // The value a store writes or a reduce combines counts FLOPs; loads' indices and gates do not.
  void mark_value(int n) {
    if (value_[n]) return;
    value_[n] = true;
    if (g_[n].kind == UOpKind::Load) return;
    for (int s : g_[n].srcs) mark_value(s);
  }

  std::vector<int> sorted(UOpKind kind) const {
    std::vector<int> out;
    for (int n : order_)
      if (g_[n].kind == kind) out.push_back(n);
    std::sort(out.begin(), out.end(), [&](int a, int b) {
      return std::tie(g_[a].buffer, g_[a].launch, g_[a].number) < std::tie(g_[b].buffer, g_[b].launch, g_[b].number);
    });
    return out;
  }

  // Places every computation whose innermost loop is `range` (-1: none) and that no reduce feeds. One
  // that only the code after a reduce reads (a matmul's bias) waits until it is needed there: placed
  // before the reduce's loop it would hold registers through the loop (the 1024 matmul with a bias
  // and relu after it ran at half the matmul's speed on the 2-core AVX-512 VM).
  void hoist(int range) {
    for (int n : order_) {
      const UOp& u = g_[n];
      const bool pure = u.kind == UOpKind::Alu || u.kind == UOpKind::Cast || u.kind == UOpKind::Load ||
                        u.kind == UOpKind::Vectorize || u.kind == UOpKind::Gep || u.kind == UOpKind::Shuffle;
      const int innermost = ranges_[n].empty() ? -1 : ranges_[n].back();
      const bool local = u.kind == UOpKind::Load && g_[u.srcs[0]].kind == UOpKind::DefineLocal;
      if (pure && !local && innermost == range && !reads_accumulator_[n] && (early_[n] || !late_[n])) need(n);
    }
  }

  // Places every reduce whose loops could open here: before a loop it does not depend on, so that a
  // walk of the rows after it (softmax's store) reads its result instead of redoing it per element.
  void reduces_ready() {
    for (int n : order_)
      if (g_[n].kind == UOpKind::Assign && placed_[n] < 0 &&
          std::all_of(ranges_[n].begin(), ranges_[n].end(),
                      [&](int r) { return std::find(open_.begin(), open_.end(), r) != open_.end(); }))
        need(n);
  }

  int place(int n, UOp u, bool global_scope) {
    if (u.kind == UOpKind::Store) stored_[n] = true;
    out_.push_back(std::move(u));
    const int at = static_cast<int>(out_.size()) - 1;
    placed_[n] = at;
    node_at_[at] = n;
    (global_scope ? scopes_.front() : scopes_.back()).push_back(n);
    return at;
  }

  UOp moved(int n) const {
    UOp u = g_[n];
    for (int& s : u.srcs) s = placed_[s];
    return u;
  }

  void open(int range) {
    for (int s : g_[range].srcs) need(s);
    place(range, moved(range), false);
    open_.push_back(range);
    scopes_.emplace_back();
    trip_ *= size_of(range);
  }

  void close(int range) {
    if (const auto it = next_turn_.find(range); it != next_turn_.end()) {
      for (int n : it->second) need(n);
      next_turn_.erase(it);
    }
    const int at = placed_[range];
    for (int n : scopes_.back()) placed_[n] = -1;
    scopes_.pop_back();
    open_.pop_back();
    trip_ /= size_of(range);
    out_.push_back(UOp{.kind = UOpKind::EndRange, .srcs = {at}});
  }

  void need(int n) {
    // a store inside a loop was placed there once; its scope's end forgot it
    if (placed_[n] >= 0 || (g_[n].kind == UOpKind::Store && stored_[n])) return;
    const UOp& u = g_[n];
    for (int r : ranges_[n])
      if (std::find(open_.begin(), open_.end(), r) == open_.end() && r != n)
        fail("value", "{} {} is needed outside its loop {}", n, uop_kind_name(u.kind), uop_name(g_[r]));
    switch (u.kind) {
      case UOpKind::Assign: return reduce(n);
      case UOpKind::Range: fail("value", "the loop {} is used but never opened", uop_name(u));
      case UOpKind::Load:
        if (g_[u.srcs[0]].kind == UOpKind::DefineLocal) barrier(u.srcs[0]);
        break;
      case UOpKind::Special: trip_ *= u.size; break;
      case UOpKind::DefineGlobal: case UOpKind::DefineVar: case UOpKind::DefineLocal: case UOpKind::DefineAcc:
      case UOpKind::Const: case UOpKind::EndRange: case UOpKind::Store: case UOpKind::Alu: case UOpKind::Cast: case UOpKind::If:
      case UOpKind::EndIf: case UOpKind::Barrier: case UOpKind::Vectorize: case UOpKind::Gep: case UOpKind::Shuffle:
      case UOpKind::Wmma: case UOpKind::Sink: break;
    }
    if (u.kind == UOpKind::Store) need(u.srcs[2]);  // the value, then where it goes (tinygrad's order)
    for (int s : u.srcs) need(s);
    // a reduce among its sources that is walked inside the open loops (a step reduce) placed it already,
    // with what else reads that reduce's result, right after its loop
    if (placed_[n] >= 0) return;
    const bool global = u.kind == UOpKind::Const || u.kind == UOpKind::DefineGlobal || u.kind == UOpKind::DefineVar ||
                        u.kind == UOpKind::DefineLocal || u.kind == UOpKind::Special;
    // a MULACC is the multiply and the add it fuses, as tinygrad counts it: a matmul's FLOPs do not halve
    // where the target has the instruction
    if (u.kind == UOpKind::Alu && value_[n]) flops_ += trip_ * u.vec * (u.alu == Op::MulAcc ? 2 : 1);
    // a matrix unit's step: a multiply and an add per element of its three tiles, shared by the warp
    if (u.kind == UOpKind::Wmma) flops_ += trip_ * 2 * u.unit.m * u.unit.n * u.unit.k / TcLayout::kWarp;
    place(n, moved(n), global);
  }

  // Every store into local memory `buf`, then one BARRIER, before the first load of it. Stores that
  // the latest BARRIER already follows (the partials of reduces that share their loops), in a loop still
  // open, need no other.
  //
  // Stores inside a loop (a staged tile's copy, core/codegen/stage.cpp) are stored anew each turn: every
  // local buffer stored in that loop is stored at once, after a barrier that waits until every thread
  // has read the last turn's, and one barrier follows them all. A tile with two halves needs only the
  // first: its stores fill the half that the next turn reads, so they go at the end of the turn (their
  // loads stay here, and take the turn's compute to arrive), and the next turn's barrier orders them.
  void barrier(int buf) {
    if (std::find(barriers_.begin(), barriers_.end(), buf) != barriers_.end()) return;
    std::vector<int> bufs{buf};
    const bool turns = tiles_.count(buf) > 0;
    if (turns) {
      for (const auto& [other, loops] : tiles_)
        if (other != buf && std::find(barriers_.begin(), barriers_.end(), other) == barriers_.end()) bufs.push_back(other);
      out_.push_back(UOp{.kind = UOpKind::Barrier, .launch = g_[buf].launch});
    }
    barriers_.insert(barriers_.end(), bufs.begin(), bufs.end());
    bool before_last = !turns && last_barrier_ >= 0 && open_.size() >= open_at_barrier_.size() &&
                       std::equal(open_at_barrier_.begin(), open_at_barrier_.end(), open_.begin());
    bool halves = false;
    for (int n : order_) {
      if (g_[n].kind != UOpKind::Store || std::find(bufs.begin(), bufs.end(), g_[n].srcs[0]) == bufs.end()) continue;
      if (halves_.count(g_[n].srcs[0]) && !ranges_[n].empty()) {
        need(g_[n].srcs[2]);
        next_turn_[ranges_[n].back()].push_back(n);
        halves = true;
        continue;
      }
      need(n);
      before_last = before_last && placed_[n] < last_barrier_;
    }
    if (before_last || halves) return;
    out_.push_back(UOp{.kind = UOpKind::Barrier, .launch = g_[buf].launch});
    last_barrier_ = static_cast<int>(out_.size()) - 1;
    open_at_barrier_ = open_;
  }

  // The ranges an ASSIGN closes, outermost first.
  std::vector<int> closes(int n) const {
    std::vector<int> loops(g_[n].srcs.begin() + 2, g_[n].srcs.end());
    std::sort(loops.begin(), loops.end(), [&](int x, int y) { return nest(x) < nest(y); });
    return loops;
  }

  // Each node of value n once, without entering a reduce (an ASSIGN is visited, what it reads is not)
  // or an accumulator.
  void walk_value(int n, const std::function<void(int)>& visit) const {
    std::vector<bool> seen(g_.size(), false);
    const std::function<void(int)> go = [&](int x) {
      if (seen[x]) return;
      seen[x] = true;
      visit(x);
      if (g_[x].kind == UOpKind::Assign || g_[x].kind == UOpKind::DefineAcc) return;
      for (int s : g_[x].srcs) go(s);
    };
    go(n);
  }

  // The local memory that a value's loads read, not counting what other reduces read.
  std::vector<int> local_memory_read(int n) const {
    std::vector<int> found;
    walk_value(n, [&](int x) {
      if (g_[x].kind == UOpKind::Load && g_[g_[x].srcs[0]].kind == UOpKind::DefineLocal) found.push_back(g_[x].srcs[0]);
    });
    return found;
  }

  // The ASSIGNs whose results a value reads (not those they read in turn): a reduce that reads another
  // one's result places that one first, outside its own loops.
  std::vector<int> reduces_under(int n) const {
    std::vector<int> found;
    walk_value(n, [&](int x) {
      if (g_[x].kind == UOpKind::Assign) found.push_back(x);
    });
    return found;
  }

  // An ASSIGN and every other one over the same loops share one pass of those loops (an upcast's
  // accumulators; the reduces of one walk of the rows, which cannot read each other's results, since
  // a reduce that reads another's is in a later walk), so that no loop opens twice.
  void reduce(int n) {
    const std::vector<int> loops = closes(n);
    // the reduces whose results n reads come first, outside n's loops, but those inside each step of
    // them (attention's scores for each key), which its combine places there
    const auto in_step = [&](int m) {
      return std::any_of(ranges_[m].begin(), ranges_[m].end(),
                         [&](int r) { return std::find(loops.begin(), loops.end(), r) != loops.end(); });
    };
    for (int inner : reduces_under(g_[n].srcs[1]))
      if (!in_step(inner)) need(inner);
    std::vector<int> together{n};
    const auto placed = [&](int x) { return placed_[x] >= 0 || in_step(x); };
    const auto inside_open = [&](int m) {
      return std::all_of(ranges_[m].begin(), ranges_[m].end(),
                         [&](int r) { return std::find(open_.begin(), open_.end(), r) != open_.end(); });
    };
    for (int m : order_)
      if (m != n && g_[m].kind == UOpKind::Assign && !placed(m) && closes(m) == loops && inside_open(m)) {
        const std::vector<int> under = reduces_under(g_[m].srcs[1]);
        if (std::all_of(under.begin(), under.end(), placed)) together.push_back(m);
      }
    // an accumulator that another's combine reads (the online softmax's maximum, which rescales its
    // sums) takes its new value after that combine has read the old one
    const auto read_by_another = [&](int a) {
      bool read = false;
      for (int b : together)
        if (b != a) walk_value(g_[b].srcs[1], [&](int x) { read = read || x == g_[a].srcs[0]; });
      return read;
    };
    std::stable_partition(together.begin(), together.end(), [&](int a) { return !read_by_another(a); });
    for (int a : together) need(g_[a].srcs[0]);
    // a GROUP's combine reads the partials in local memory: their stores and the barrier come before
    // its loop, not once per partial inside it
    for (int a : together)
      for (int buf : local_memory_read(g_[a].srcs[1]))
        if (!tiles_.count(buf)) barrier(buf);
    for (int r : loops) open(r);
    for (int a : together) {
      need(g_[a].srcs[1]);
      out_.push_back(UOp{.kind = UOpKind::Assign, .dtype = g_[a].dtype, .vec = g_[a].vec,
                         .srcs = {placed_[g_[a].srcs[0]], placed_[g_[a].srcs[1]]}});
    }
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) close(*it);
    for (int a : together) {
      placed_[a] = placed_[g_[a].srcs[0]];
      scopes_.back().push_back(a);
    }
    finish_reduces();
  }

  // Right after a reduce's loop, what reads only finished reduces' results and open loops' values (a
  // vector accumulator's lanes combined, a mean's division): placed once here, not inside each later
  // walk of the rows that reads it.
  void finish_reduces() {
    std::vector<int8_t> ready(g_.size(), -1);
    const std::function<bool(int)> is_ready = [&](int x) -> bool {
      if (ready[x] >= 0) return ready[x] == 1;
      const UOp& u = g_[x];
      bool ok = placed_[x] >= 0 || (u.kind != UOpKind::DefineAcc && u.kind != UOpKind::Assign && u.kind != UOpKind::Range);
      for (size_t i = 0; ok && placed_[x] < 0 && i < u.srcs.size(); i++) ok = is_ready(u.srcs[i]);
      ready[x] = ok ? 1 : 0;
      return ok;
    };
    for (int n : order_) {
      const UOpKind k = g_[n].kind;
      const bool pure = k == UOpKind::Alu || k == UOpKind::Cast || k == UOpKind::Vectorize || k == UOpKind::Gep ||
                        k == UOpKind::Shuffle;
      if (pure && placed_[n] < 0 && reads_reduce_[n] && is_ready(n) &&
          std::all_of(ranges_[n].begin(), ranges_[n].end(),
                      [&](int r) { return std::find(open_.begin(), open_.end(), r) != open_.end(); }))
        need(n);
    }
  }
};

}  // namespace

Linearized linearize(const UGraph& g) { return Linearizer(g).run(); }

}  // namespace tr
