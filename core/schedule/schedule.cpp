// Fusion: each realized node becomes one kernel whose AST inlines every unrealized element-wise
// node beneath it, and the reduces that walk the same rows. Anything that cannot be inlined is realized first, into
// its own buffer, and the reason is kept in words for :explain and DEBUG output.
#include "core/schedule/schedule.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/context.h"
#include "core/base/error.h"
#include "core/base/hash.h"
#include "core/kernel/kernel.h"
#include "core/schedule/row_fits.h"

namespace tr {
namespace {

struct ViewedNode {
  const LazyNode* node;
  ShapeTracker st;
  bool operator==(const ViewedNode&) const = default;
};
struct ViewedNodeHash {
  size_t operator()(const ViewedNode& v) const { return hash_mix(std::hash<const LazyNode*>{}(v.node), v.st.hash()); }
};

class Scheduler {
 public:
  explicit Scheduler(const std::vector<LazyRef>& outs) {
    for (const LazyRef& o : outs) count_consumers(base_of(o));
    for (const LazyRef& o : outs) {
      const LazyRef b = base_of(o);
      if (b->buffer) continue;
      mark(b, o->depth >= kMaxLazyDepth ? fmt::format("the graph reached {} ops deep, where it is cut", kMaxLazyDepth)
                                        : "an output of this realize");
    }
    for (const LazyRef& o : outs) schedule(base_of(o));
    order_writes();
  }

  std::vector<ScheduleItem> items;

 private:
  std::map<const LazyNode*, std::vector<const LazyNode*>> users_;  // base -> the unrealized bases reading it
  std::set<const LazyNode*> visited_;
  std::map<const LazyNode*, std::string> reasons_;  // nodes that get their own buffer, and why
  std::set<const LazyNode*> scheduled_;
  std::map<std::pair<const LazyNode*, const LazyNode*>, bool> feeds_;  // only_feeds, while no mark is added
  // assigns whose value this schedule computes into a buffer of its own first, and that value's node
  std::map<const LazyNode*, LazyRef> own_values_;
  std::map<std::string, Target> targets_;

  const Target& target_of(const std::string& name) {
    if (const auto it = targets_.find(name); it != targets_.end()) return it->second;
    return targets_.emplace(name, device(name).target()).first->second;
  }

  void count_consumers(const LazyRef& base) {
    if (base->buffer || !visited_.insert(base.get()).second) return;
    if (base->op == Op::Assign) {
      mark(base, fmt::format("assign() writes the value into the buffer of #{}, in place", base_of(base->srcs[0])->id));
    }
    if (base->forced) mark(base, base->op == Op::Contiguous ? "contiguous() asks for its own buffer"
                                                           : "realize()/contiguous() asks for its own buffer");
    if (base->op == Op::Copy) {
      mark(base, base->srcs.empty() ? "data comes from the host" : fmt::format("a copy to {}", base->device));
    }
    for (const LazyRef& s : base->srcs) {
      const LazyRef b = base_of(s);
      users_[b.get()].push_back(base.get());
      if (base->op == Op::Copy) mark(b, "the source of a copy between devices");
      count_consumers(b);
    }
  }

  void mark(const LazyRef& n, std::string reason) {
    reasons_.emplace(n.get(), std::move(reason));
    feeds_.clear();  // a new boundary can end a path that only_feeds followed
  }

  // Whether every use of n, followed up through the element-wise nodes and reduces that inline it, ends
  // in the kernel that writes `root`: then fusing n there computes it once for all of them.
  bool only_feeds(const LazyNode* n, const LazyNode* root) {
    const auto key = std::make_pair(n, root);
    if (const auto it = feeds_.find(key); it != feeds_.end()) return it->second;
    bool ok = true;
    if (const auto it = users_.find(n); it != users_.end())
      for (const LazyNode* u : it->second)
        if (u != root && (u->buffer || reasons_.count(u) || !only_feeds(u, root))) {
          ok = false;
          break;
        }
    return feeds_[key] = ok;
  }

  void schedule(const LazyRef& n) {
    if (n->buffer || !scheduled_.insert(n.get()).second) return;
    // a tensor with no elements has nothing to compute or copy: realize gives it an empty buffer
    if (prod(n->shape) == 0) return;
    if (n->op == Op::Copy) {
      for (const LazyRef& s : n->srcs) schedule(base_of(s));
      std::vector<LazyRef> inputs;
      for (const LazyRef& s : n->srcs) inputs.push_back(base_of(s));
      items.push_back({ScheduleItem::Kind::Copy, nullptr, {n}, inputs, reasons_.at(n.get()), {}});
      return;
    }
    // a reduce broadcast over the kernel's rows is fused only where it becomes an online softmax
    std::optional<KernelBuilder> kb;
    AstRef value;
    for (const bool online : {settings().online_softmax, false}) {
      kb.emplace(KernelBuilder{.s = *this, .root = n, .online = online});
      value = kb->build(n, n->st());
      VarVals unused;
      if (!kb->across || Kernel::from_ast(kernel_ast(*kb, value, unused)).online_softmax) break;
    }
    if (n->op == Op::Assign && !kb->reads_in_place_only()) {
      value_into_own_buffer(n, kb->rows.has_value());
      scheduled_.erase(n.get());
      return schedule(n);
    }
    std::vector<LazyRef> outputs{n};
    VarVals vars;
    const AstRef ast = kernel_ast(*kb, value, vars);
    items.push_back({ScheduleItem::Kind::Kernel, ast, outputs, kb->inputs, reasons_.at(n.get()), kb->fused, std::move(vars)});
  }

  // Where a kernel stores: its own new buffer in order, or for an assign its target's view of its buffer.
  static ShapeTracker store_st(const LazyNode& n) {
    return n.op == Op::Assign ? n.srcs[0]->st() : n.st();
  }

  // Which values of a buffer a node holds: the buffer, and how many assigns of this schedule have
  // written it by then (0: the values from before this schedule).
  static std::pair<const Buffer*, int> version(const LazyNode* n) {
    int k = 0;
    while (!n->buffer && n->op == Op::Assign) {
      n = &n->srcs[0]->base();
      k++;
    }
    return {n->buffer.get(), k};
  }

  // Assigns overwrite buffers that other kernels of this schedule read. A kernel that reads a buffer's
  // values from before an assign runs before that assign, and the assigns to one buffer run in the
  // order they were made; otherwise the order of dependencies stays, earliest first.
  void order_writes() {
    std::map<std::pair<const Buffer*, int>, size_t> writers;
    for (size_t i = 0; i < items.size(); i++)
      if (items[i].outputs[0]->op == Op::Assign) writers.emplace(version(items[i].outputs[0].get()), i);
    if (writers.empty()) return;
    std::map<const LazyNode*, size_t> item_of;
    for (size_t i = 0; i < items.size(); i++) item_of.emplace(items[i].outputs[0].get(), i);
    std::vector<std::vector<size_t>> after(items.size());
    std::vector<int> waiting(items.size(), 0);
    const auto edge = [&](size_t first, size_t then) {
      if (first == then) return;
      after[first].push_back(then);
      waiting[then]++;
    };
    for (size_t j = 0; j < items.size(); j++) {
      for (const LazyRef& in : items[j].inputs) {
        if (const auto it = item_of.find(in.get()); it != item_of.end()) edge(it->second, j);
        auto [buffer, k] = version(in.get());
        if (const auto w = writers.find({buffer, k + 1}); w != writers.end()) edge(j, w->second);
      }
    }
    for (const auto& [v, i] : writers)
      if (const auto w = writers.find({v.first, v.second + 1}); w != writers.end()) edge(i, w->second);
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t i = 0; i < items.size(); i++)
      if (waiting[i] == 0) ready.push(i);
    std::vector<ScheduleItem> ordered;
    while (!ready.empty()) {
      const size_t i = ready.top();
      ready.pop();
      ordered.push_back(std::move(items[i]));
      for (size_t j : after[i])
        if (--waiting[j] == 0) ready.push(j);
    }
    if (ordered.size() != items.size()) {
      fail("value", "a kernel reads a tensor's values from both before and after an assign() to it; realize one of "
                    "them before the assign");
    }
    items = std::move(ordered);
  }

  // An assign whose kernel would read its own buffer where it does not write it (another position, or
  // inside a reduce) could read a value it has already overwritten, and one whose kernel reduces may
  // store partial results before it reads (BLOCK): its value gets its own buffer first.
  void value_into_own_buffer(const LazyRef& assign, bool reduces) {
    const LazyRef value = assign->srcs[1];
    const LazyRef c = make_node(Op::Contiguous, value->dtype, value->shape, value->device, {value});
    auto& readers = users_[base_of(value).get()];
    std::replace(readers.begin(), readers.end(), static_cast<const LazyNode*>(assign.get()),
                 static_cast<const LazyNode*>(c.get()));
    users_[c.get()].push_back(assign.get());
    mark(c, reduces ? "the value of an assign reduces and reads the buffer it overwrites, which a reduce walked in blocks "
                      "would have overwritten with partial results, so it is computed into its own buffer first"
                    : "the value of an assign reads the buffer it overwrites at other positions, so it is computed into its "
                      "own buffer first");
    own_values_.emplace(assign.get(), c);
  }

  struct Load {
    const LazyNode* node;
    ShapeTracker st;
    bool in_reduce;
  };

  struct KernelBuilder {
    Scheduler& s;
    LazyRef root;
    std::vector<LazyRef> inputs{};
    std::vector<uint64_t> fused{};
    std::optional<Shape> reduce_shape{};  // the output shape of a reduce the kernel stores through
    std::optional<std::pair<Shape, std::vector<int>>> rows{};  // its reduces' input shape and axes
    bool online = false;  // may fuse reduces broadcast over the kernel's rows (see `across` in reduce())
    std::vector<Load> loads{};
    bool reducing = false;  // building a reduce's input
    bool across = false;    // a reduce was fused across the kernel's rows
    // a node read twice through the same tracker is one subtree, built once
    std::unordered_map<ViewedNode, AstRef, ViewedNodeHash> built{};

    int input_index(const LazyRef& b) {
      for (size_t i = 0; i < inputs.size(); i++)
        if (inputs[i] == b) return static_cast<int>(i) + 1;
      inputs.push_back(b);
      return static_cast<int>(inputs.size());
    }

    // True when the kernel reads the buffer that it (an assign) writes only where it writes it, and
    // does not reduce: so no kernel with a reduce reads the buffer it writes, and BLOCK may keep partial
    // results in the output of any.
    bool reads_in_place_only() const {
      const Buffer* written = buffer_of(*root).get();
      const ShapeTracker out = store_st(*root).simplify();
      for (const Load& l : loads)
        if (buffer_of(*l.node).get() == written && (rows || l.in_reduce || !(l.st == out))) return false;
      return true;
    }

    AstRef load(const LazyRef& b, const ShapeTracker& st) {
      s.schedule(b);
      loads.push_back(Load{b.get(), st.simplify(), reducing});
      return ast_load(input_index(b), b->dtype, st.simplify());
    }

    // b seen through st: st reads b's contiguous result and has the kernel's current shape.
    AstRef build(const LazyRef& b, const ShapeTracker& st) {
      ViewedNode key{b.get(), st};
      if (const auto it = built.find(key); it != built.end()) return it->second;
      AstRef made = make(b, st);
      return built.emplace(std::move(key), std::move(made)).first->second;
    }

    AstRef make(const LazyRef& b, const ShapeTracker& st) {
      if (b != root && (b->buffer || s.reasons_.count(b.get()))) return load(b, st);
      switch (b->op) {
        case Op::Const: return ast_const(std::get<ConstValue>(b->arg), b->dtype, st.simplify());
        case Op::Arange: return ast_arange(b->dtype, st.simplify());
        case Op::Contiguous: return src(b, 0, st);
        case Op::Assign: {
          const auto own = s.own_values_.find(b.get());
          return own != s.own_values_.end() ? build(own->second, st) : src(b, 1, st);
        }
        case Op::Sum: case Op::ReduceMax: case Op::Prod: return reduce(b, st);
        // every op on a MULTI runs on its shards, and realize() schedules the shards: none is a source
        case Op::Multi: fail("device", "a tensor on {} cannot be one kernel's source; its shards are", b->device);
        // elementwise: fused below. A copy has its own buffer (loaded above) and src() builds the base
        // of a view, so neither reaches here; no lazy graph holds MulAcc.
        case Op::Neg: case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: case Op::Recip: case Op::Trunc:
        case Op::Cast: case Op::Bitcast:
        case Op::Add: case Op::Mul: case Op::IDiv: case Op::Mod: case Op::Max: case Op::MaxNan: case Op::CmpLt: case Op::CmpNe:
        case Op::And: case Op::Or: case Op::Xor:
        case Op::Where: case Op::MulAcc: case Op::Copy: case Op::View: break;
      }
      fused.push_back(b->id);
      std::vector<AstRef> srcs;
      for (size_t i = 0; i < b->srcs.size(); i++) srcs.push_back(src(b, i, st));
      const AstRef value = ast_alu(b->op, b->dtype, std::move(srcs));
      // Masked positions read 0 from every source, and most ops map 0 to 0; these do not, so where the
      // view hides the value it is zeroed explicitly (a True constant seen through st is the validity).
      const bool zero_preserving = b->op != Op::Exp2 && b->op != Op::Log2 && b->op != Op::Recip;
      if (zero_preserving || !masked(st)) return value;
      return ast_alu(Op::Where, b->dtype, {ast_const(true, DType::Bool, st.simplify()), value,
                                           ast_const(int64_t{0}, b->dtype, st.simplify())});
    }

    static bool masked(const ShapeTracker& st) {
      for (const View& v : st.views())
        if (v.mask) return true;
      return false;
    }

    AstRef src(const LazyRef& b, size_t i, const ShapeTracker& st) {
      const LazyRef& x = b->srcs[i];
      return build(base_of(x), x->st().compose(st));
    }

    // Several reduces share a kernel when they walk the same rows: the same input shape and axes. One
    // whose result is read again along its own row (softmax's max, under its sum and its output) makes
    // the kernel walk the row once more, which pays while the row stays in the cache.
    AstRef reduce(const LazyRef& b, const ShapeTracker& st) {
      const Shape& in_shape = b->srcs[0]->shape;
      const auto& axes = std::get<std::vector<int>>(b->arg);
      const bool plain = st.contiguous() && st.size() == prod(b->shape);
      const bool along_row = !plain && st.simplify() == ShapeTracker::contiguous(b->shape).expand(in_shape).simplify();
      // inside a reduce's input: a reduce over rows that are the kernel's, broadcast over its other output
      // dims (attention's max and sum of exps, read by the weighted sum over the same keys), or one whose
      // result is a step of the kernel's rows (attention's scores, a sum over the head dim for each key):
      // its input seen over the kernel's rows, and the axes it reduces there
      std::optional<std::pair<ShapeTracker, std::vector<int>>> within;
      if (!plain && !along_row && online && rows && reducing) {
        within = seen_over_rows(*b, st, *rows, false);
        if (!within) within = seen_over_rows(*b, st, *rows, true);
      }
      std::string why;
      if (!plain && !along_row && !within) {
        bool expands = false;
        for (const View& v : st.views())
          for (size_t d = 0; d < v.shape.size(); d++) expands = expands || (v.strides[d] == 0 && v.shape[d] > 1);
        why = expands ? "its result is expanded (broadcast) to a larger shape; fusing would redo the reduce for every element"
                      : "its result is read through a view (permute, pad, shrink or flip) that its own kernel cannot express";
      } else if (!within && rows && (rows->first != in_shape || rows->second != axes)) {
        why = reducing ? "its result feeds another reduce over other rows, and the reduces of a kernel walk the same rows"
                       : "it reduces other rows than the kernel's other reduce, and the reduces of a kernel walk the same rows";
      } else if (b != root && !s.only_feeds(b.get(), root.get())) {
        why = "its result is used more than once, by different kernels; computing it once is cheaper than redoing it in each";
      } else if (along_row) {
        int64_t row = 1;
        for (int a : axes) row *= in_shape[a];
        if (auto too_long = row_too_long(s.target_of(b->device), row, b->srcs[0]->dtype)) why = std::move(*too_long);
      }
      if (!why.empty()) {
        s.mark(b, std::move(why));
        return load(b, st);
      }
      // the kernel stores through the first reduce of its epilogue, not one inside another's input
      if (plain && !reduce_shape && !reducing) reduce_shape = b->shape;
      if (!within) rows = std::make_pair(in_shape, axes);
      across = across || within.has_value();
      fused.push_back(b->id);
      const LazyRef& x = b->srcs[0];
      const bool was_reducing = reducing;
      reducing = true;
      AstRef in = build(base_of(x), within ? x->st().compose(within->first) : x->st());
      reducing = was_reducing;
      return ast_reduce(b->op, b->dtype, std::move(in), within ? within->second : axes);
    }

    // b's input seen over the kernel's rows (shape `rows.first`, reduced along `rows.second`) where st
    // reads b's result over them, and the axes b reduces there; nothing where st cannot. Across the rows
    // (`step` false): b's output dims are kernel output dims in order, b's reduced axes the kernel's
    // reduced axes in order, of the same sizes, and the kernel's other dims read the same value. As a
    // step of the rows: b's output dims are kernel dims in order, reduced or not, and b's reduced axes
    // follow the kernel's dims, walked inside each step.
    static std::optional<std::pair<ShapeTracker, std::vector<int>>> seen_over_rows(
        const LazyNode& b, const ShapeTracker& st, const std::pair<Shape, std::vector<int>>& rows, bool step) {
      const auto& [kernel_shape, reduced] = rows;
      const ShapeTracker seen = st.simplify();
      if (seen.views().size() != 1 || seen.shape() != kernel_shape) return std::nullopt;
      const View& v = seen.views()[0];
      if (v.mask || v.offset != 0 || !v.sym.empty() || !b.srcs[0]->st().sym().empty()) return std::nullopt;
      const Shape& in = b.srcs[0]->shape;
      const auto& axes = std::get<std::vector<int>>(b.arg);
      // of the dims of more than one element, the only ones read below
      const std::vector<int64_t> in_strides = View::contiguous_of(in).strides, out_strides = View::contiguous_of(b.shape).strides;
      std::vector<size_t> outs, reds;  // b's dims of more than one element: kept, reduced
      for (size_t i = 0; i < in.size(); i++)
        if (in[i] > 1) (std::find(axes.begin(), axes.end(), static_cast<int>(i)) != axes.end() ? reds : outs).push_back(i);
      Shape shape = kernel_shape;
      std::vector<int64_t> strides(shape.size(), 0);
      std::vector<int> over = step ? std::vector<int>{} : reduced;
      size_t next_out = 0, next_red = 0;
      for (size_t d = 0; d < kernel_shape.size(); d++) {
        if (kernel_shape[d] == 1) continue;
        if (!step && std::find(reduced.begin(), reduced.end(), static_cast<int>(d)) != reduced.end()) {
          if (v.strides[d] != 0 || next_red == reds.size() || in[reds[next_red]] != kernel_shape[d]) return std::nullopt;
          strides[d] = in_strides[reds[next_red++]];
        } else if (v.strides[d] != 0) {
          if (next_out == outs.size()) return std::nullopt;
          const size_t o = outs[next_out++];
          if (out_strides[o] != v.strides[d] || in[o] != kernel_shape[d]) return std::nullopt;
          strides[d] = in_strides[o];
        }
      }
      for (; step && next_red < reds.size(); next_red++) {
        over.push_back(static_cast<int>(shape.size()));
        shape.push_back(in[reds[next_red]]);
        strides.push_back(in_strides[reds[next_red]]);
      }
      // a step's value changes along the rows; one that does not is no step of them
      const bool varies = std::any_of(reduced.begin(), reduced.end(), [&](int d) { return v.strides[static_cast<size_t>(d)] != 0; });
      if (next_out != outs.size() || next_red != reds.size() || over.empty() || (step && !varies)) return std::nullopt;
      return std::make_pair(ShapeTracker({View::make(shape, strides)}), over);
    }

    static AstRef reshape_epilogue(const AstRef& ast, const Shape& shape) {
      return rebuild(
          ast,
          [&](const AstNode&, AstNode& n) {
            if (n.st) n.st = n.st->reshape(shape);
          },
          [](const AstNode& n) { return n.op == AstOp::Reduce; });
    }
  };

  // The kernel's AST: the store of its value, through a plain reshape where a reduce's output shape is
  // the kernel's; the Variables its trackers hold go to vars.
  AstRef kernel_ast(KernelBuilder& kb, AstRef value, VarVals& vars) const {
    ShapeTracker out = store_st(*kb.root);
    if (kb.reduce_shape && *kb.reduce_shape != kb.root->shape) {
      value = kb.reshape_epilogue(value, *kb.reduce_shape);
      out = out.reshape(*kb.reduce_shape);
    }
    return map_trackers(ast_store(0, out, value), [&](const ShapeTracker& st) { return unbind(st, vars); });
  }
};

}  // namespace

BufferRef buffer_of(const LazyNode& n) {
  const LazyNode* x = &n;
  while (!x->buffer && x->op == Op::Assign) x = &x->srcs[0]->base();
  return x->buffer;
}

std::vector<ScheduleItem> create_schedule(const std::vector<LazyRef>& outs) {
  // a tensor on several devices is computed as its shards
  std::vector<LazyRef> roots;
  for (const LazyRef& o : outs) {
    if (o->op != Op::Multi) roots.push_back(o);
    else
      for (const LazyRef& s : o->srcs) roots.push_back(base_of(s));
  }
  return Scheduler(roots).items;
}

}  // namespace tr
