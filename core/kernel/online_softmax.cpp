#include "core/kernel/online_softmax.h"

#include <cmath>
#include <functional>
#include <unordered_map>

namespace tr {
namespace {

bool is_alu(const AstNode& n, Op op) { return n.op == AstOp::Alu && n.alu == op; }

class Finder {
 public:
  Finder(int first_reduce, size_t rank) : first_reduce_(first_reduce), rank_(rank) {}

  // A reduce inside each step of the rows (its axes follow the kernel's dims): a value of the step.
  bool outer_reduce(const AstNode& n) const {
    return n.op == AstOp::Reduce && (n.axes.empty() || n.axes.front() < static_cast<int>(rank_));
  }

  // Whether n's value is the same at every position of the rows: what it loads does not move along a
  // reduce axis (neither its index nor its validity), and a reduce's result is one value per row.
  bool row_constant(const AstNode& n) {
    if (const auto it = constant_.find(&n); it != constant_.end()) return it->second;
    bool ok = true;
    if (outer_reduce(n)) {
      ok = true;
    } else if (n.st) {
      for (int a = first_reduce_; ok && a < static_cast<int>(n.st->shape().size()); a++) ok = n.st->real_stride(a) == 0;
    } else {
      for (const AstRef& s : n.srcs) ok = ok && row_constant(*s);
    }
    return constant_[&n] = ok;
  }

  // The reduces whose results n reads, not looking inside them.
  void reduces_read(const AstNode& n, std::vector<const AstNode*>& out) {
    std::unordered_map<const AstNode*, bool> seen;
    const std::function<void(const AstNode&)> go = [&](const AstNode& x) {
      if (seen[&x]) return;
      seen[&x] = true;
      if (outer_reduce(x)) {
        out.push_back(&x);
        return;
      }
      for (const AstRef& s : x.srcs) go(*s);
    };
    go(n);
  }

  bool reads_reduce(const AstNode& n) {
    std::vector<const AstNode*> found;
    reduces_read(n, found);
    return !found.empty();
  }

  // exp2((x - max) * c) with max a ReduceMax of x that reads no reduce, and c a positive constant.
  bool exponent(const AstNode& f, OnlineSum& into) {
    if (!is_alu(f, Op::Exp2) || !is_alu(*f.srcs[0], Op::Mul)) return false;
    const AstNode& mul = *f.srcs[0];
    for (int i = 0; i < 2; i++) {
      const AstNode& diff = *mul.srcs[static_cast<size_t>(i)];
      const AstNode& scale = *mul.srcs[static_cast<size_t>(1 - i)];
      if (scale.op != AstOp::Const || !row_constant(scale) || !is_alu(diff, Op::Add)) continue;
      const double c = as_double(scale.value);
      if (!(c > 0) || !std::isfinite(c)) continue;
      for (int j = 0; j < 2; j++) {
        const AstNode& x = *diff.srcs[static_cast<size_t>(j)];
        const AstNode& neg = *diff.srcs[static_cast<size_t>(1 - j)];
        if (!is_alu(neg, Op::Neg) || !outer_reduce(*neg.srcs[0])) continue;
        const AstNode& max = *neg.srcs[0];
        if (max.alu != Op::ReduceMax || max.srcs[0].get() != &x || reads_reduce(x)) continue;
        into.max = &max;
        into.exponent = &f;
        into.c = scale.value;
        return true;
      }
    }
    return false;
  }

  // r as an online sum: its factors (the operands of its products) sorted into the exponent, those
  // that vary along the rows and read no reduce, and those constant along the rows.
  std::optional<OnlineSum> online(const AstNode& r) {
    if (r.alu != Op::Sum) return std::nullopt;
    OnlineSum s{.sum = &r};
    bool fits = true;
    const std::function<void(const AstRef&)> flatten = [&](const AstRef& x) {
      if (!is_alu(*x, Op::Mul)) {
        if (s.exponent == nullptr && exponent(*x, s)) return;
        if (row_constant(*x)) s.after.push_back(x);
        else if (!reads_reduce(*x)) s.per_step.push_back(x);
        else fits = false;  // varies along the rows and reads a reduce: not a product of steps
        return;
      }
      for (const AstRef& o : x->srcs) flatten(o);
    };
    flatten(r.srcs[0]);
    if (!fits) return std::nullopt;
    return s;
  }

 private:
  int first_reduce_;
  size_t rank_;
  std::unordered_map<const AstNode*, bool> constant_;
};

}  // namespace

std::optional<std::vector<OnlineSum>> online_sums(const AstRef& ast, int first_reduce) {
  Finder f(first_reduce, ast->st->shape().size());
  std::vector<const AstNode*> reduces;
  walk(ast, [&](const AstNode& n) {
    if (f.outer_reduce(n)) reduces.push_back(&n);
  });
  std::vector<OnlineSum> sums;
  bool carried = false;
  for (const AstNode* r : reduces) {
    std::vector<const AstNode*> read;
    f.reduces_read(*r->srcs[0], read);
    if (read.empty()) continue;
    std::optional<OnlineSum> s = f.online(*r);
    if (!s) return std::nullopt;
    carried = carried || (s->max && !s->per_step.empty());
    sums.push_back(std::move(*s));
  }
  if (!carried) return std::nullopt;
  return sums;
}

}  // namespace tr
