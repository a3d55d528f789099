// Fusion: each realized node becomes one kernel whose AST inlines every unrealized element-wise
// node beneath it, and at most one reduce. Anything that cannot be inlined is realized first, into
// its own buffer, and the reason is kept in words for :explain and DEBUG output.
#include "core/schedule.h"

#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"

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
  }

  std::vector<ScheduleItem> items;

 private:
  std::map<const LazyNode*, std::vector<const LazyNode*>> users_;  // base -> the unrealized bases reading it
  std::set<const LazyNode*> visited_;
  std::map<const LazyNode*, std::string> reasons_;  // nodes that get their own buffer, and why
  std::set<const LazyNode*> scheduled_;
  std::map<std::pair<const LazyNode*, const LazyNode*>, bool> feeds_;  // only_feeds, while no mark is added

  void count_consumers(const LazyRef& base) {
    if (base->buffer || !visited_.insert(base.get()).second) return;
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

  // Whether every use of n, followed up through the element-wise nodes that inline it, ends in the
  // kernel that writes `root`: then fusing n there computes it once for all of them.
  bool only_feeds(const LazyNode* n, const LazyNode* root) {
    const auto key = std::make_pair(n, root);
    if (const auto it = feeds_.find(key); it != feeds_.end()) return it->second;
    bool ok = true;
    if (const auto it = users_.find(n); it != users_.end())
      for (const LazyNode* u : it->second)
        if (u != root && (u->buffer || reasons_.count(u) || is_reduce(u->op) || !only_feeds(u, root))) {
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
    KernelBuilder kb{*this, n};
    AstRef value = kb.build(n, ShapeTracker::contiguous(n->shape));
    ShapeTracker out = ShapeTracker::contiguous(n->shape);
    if (kb.reduce_shape && *kb.reduce_shape != n->shape) {
      // the reduce's output shape is the kernel's: its epilogue is read through a plain reshape
      value = kb.reshape_epilogue(value, *kb.reduce_shape);
      out = out.reshape(*kb.reduce_shape);
    }
    std::vector<LazyRef> outputs{n};
    items.push_back({ScheduleItem::Kind::Kernel, ast_store(0, out, value), outputs, kb.inputs, reasons_.at(n.get()),
                     kb.fused});
  }

  struct KernelBuilder {
    Scheduler& s;
    LazyRef root;
    std::vector<LazyRef> inputs{};
    std::vector<uint64_t> fused{};
    std::optional<Shape> reduce_shape{};  // set once the kernel holds a reduce
    // a node read twice through the same tracker is one subtree, built once
    std::unordered_map<ViewedNode, AstRef, ViewedNodeHash> built{};

    int input_index(const LazyRef& b) {
      for (size_t i = 0; i < inputs.size(); i++)
        if (inputs[i] == b) return static_cast<int>(i) + 1;
      inputs.push_back(b);
      return static_cast<int>(inputs.size());
    }

    AstRef load(const LazyRef& b, const ShapeTracker& st) {
      s.schedule(b);
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
        case Op::Sum: case Op::ReduceMax: case Op::Prod: return reduce(b, st);
        default: break;
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

    AstRef reduce(const LazyRef& b, const ShapeTracker& st) {
      std::string why;
      if (!(st.contiguous() && st.size() == prod(b->shape))) {
        bool expands = false;
        for (const View& v : st.views())
          for (size_t d = 0; d < v.shape.size(); d++) expands = expands || (v.strides[d] == 0 && v.shape[d] > 1);
        why = expands ? "its result is expanded (broadcast) to a larger shape; fusing would redo the reduce for every element"
                      : "its result is read through a view (permute, pad, shrink or flip) that its own kernel cannot express";
      } else if (reduce_shape) {
        why = "its result feeds another reduce, and a kernel holds one reduce";
      } else if (b != root && !s.only_feeds(b.get(), root.get())) {
        why = "its result is used more than once, by different kernels; computing it once is cheaper than redoing it in each";
      }
      if (!why.empty()) {
        s.mark(b, std::move(why));
        return load(b, st);
      }
      reduce_shape = b->shape;
      fused.push_back(b->id);
      const LazyRef& x = b->srcs[0];
      AstRef in = build(base_of(x), x->st());
      return ast_reduce(b->op, b->dtype, std::move(in), std::get<std::vector<int>>(b->arg));
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
};

}  // namespace

std::vector<ScheduleItem> create_schedule(const std::vector<LazyRef>& outs) { return Scheduler(outs).items; }

}  // namespace tr
