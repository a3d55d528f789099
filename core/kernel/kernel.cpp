#include "core/kernel/kernel.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/lazy/symbolic_shape.h"
#include "core/kernel/online_softmax.h"
#include "core/kernel/where_as_max.h"

namespace tr {

std::string_view dim_role_name(DimRole r) {
  switch (r) {
    case DimRole::Thread: return "thread";
    case DimRole::Global: return "global";
    case DimRole::Local: return "local";
    case DimRole::Reduce: return "reduce";
    case DimRole::Group: return "group";
    case DimRole::Upcast: return "upcast";
    case DimRole::Unroll: return "unroll";
    case DimRole::Block: return "block";
  }
  return "?";
}

std::string_view tc_part_name(TcPart p) {
  switch (p) {
    case TcPart::None: return "";
    case TcPart::MLanes: return "the matrix unit's rows: the warp's lanes (g)";
    case TcPart::NLanes: return "the matrix unit's columns: the warp's lanes (t)";
    case TcPart::MElems: return "the matrix unit's rows: a thread's elements 8 apart";
    case TcPart::NElems: return "the matrix unit's columns: a thread's neighbouring elements";
    case TcPart::K: return "the matrix unit's K: one step";
  }
  return "?";
}

namespace {

const AstNode* find_reduce(const AstRef& ast) {
  return find_node(ast, [](const AstNode& n) { return n.op == AstOp::Reduce; });
}

// A reduce walked inside each step of the kernel's rows (attention's scores, a sum over the head dim
// for each key, core/schedule/schedule.cpp): its axes follow the kernel's `rank` dims, which its
// input's trackers have first.
bool is_step(const AstNode& n, size_t rank) {
  return n.op == AstOp::Reduce && !n.axes.empty() &&
         std::all_of(n.axes.begin(), n.axes.end(), [&](int a) { return a >= static_cast<int>(rank); });
}

// The nodes under the step reduces of ast, whose store has the kernel's rank.
std::unordered_set<const AstNode*> under_steps(const AstRef& ast) {
  std::unordered_set<const AstNode*> under;
  const size_t rank = ast->st->shape().size();
  walk(ast, [&](const AstNode& red) {
    if (is_step(red, rank)) walk(red.srcs[0], [&](const AstNode& n) { under.insert(&n); });
  });
  return under;
}

// Reshapes every tracker: those under a reduce to `full`, the others (the epilogue) to `full` with the
// reduce axes (from `first_reduce` on) set to 1, or to `full` too when the store walks the rows. A step
// reduce's trackers keep their dims after the kernel's, which its axes name.
AstRef reshape_all(const AstRef& ast, const Shape& full, int first_reduce, bool rows_out) {
  const size_t rank = ast->st->shape().size();
  const std::unordered_set<const AstNode*> steps = under_steps(ast);
  std::unordered_set<const AstNode*> under;
  walk(ast, [&](const AstNode& red) {
    if (red.op == AstOp::Reduce) walk(red.srcs[0], [&](const AstNode& n) { under.insert(&n); });
  });
  Shape outside = full;
  if (!rows_out)
    for (size_t i = first_reduce; i < outside.size(); i++) outside[i] = 1;
  std::vector<int> axes;
  for (int i = first_reduce; i < static_cast<int>(full.size()); i++) axes.push_back(i);
  return rebuild(ast, [&](const AstNode& original, AstNode& n) {
    if (is_step(original, rank)) {
      for (size_t i = 0; i < n.axes.size(); i++) n.axes[i] = static_cast<int>(full.size() + i);
    } else if (n.op == AstOp::Reduce) {
      n.axes = axes;
    }
    if (!n.st) return;
    if (steps.count(&original)) {
      Shape shape = full;
      shape.insert(shape.end(), n.st->shape().begin() + static_cast<std::ptrdiff_t>(rank), n.st->shape().end());
      n.st = n.st->reshape(shape);
      return;
    }
    n.st = n.st->reshape(under.count(&original) ? full : outside);
  });
}

// How many reduces deep n's value is: 0 without one, 1 for a reduce of loads, 2 for a reduce that
// reads another's result (softmax's sum reads its max).
int reduce_depth(const AstNode& n, std::unordered_map<const AstNode*, int>& memo) {
  if (const auto it = memo.find(&n); it != memo.end()) return it->second;
  int d = 0;
  for (const AstRef& s : n.srcs) d = std::max(d, reduce_depth(*s, memo));
  if (n.op == AstOp::Reduce) d++;
  memo.emplace(&n, d);
  return d;
}

// A step reduce's trackers keep their own dims last.
AstRef permute_all(const AstRef& ast, const std::vector<int>& order) {
  return map_trackers(ast, [&](const ShapeTracker& st) {
    std::vector<int> all = order;
    for (size_t i = order.size(); i < st.shape().size(); i++) all.push_back(static_cast<int>(i));
    return st.permute(all);
  });
}

bool all_can_merge(const AstRef& ast, size_t i) {
  bool ok = true;
  walk(ast, [&](const AstNode& n) {
    if (n.st) ok = ok && n.st->can_merge(i);
  });
  return ok;
}

}  // namespace

Kernel Kernel::from_ast(const AstRef& original) {
  const AstRef ast = where_as_max(original);
  const AstNode* red = find_reduce(ast);
  AstRef a = ast;
  Shape full = ast->st->shape();
  std::vector<int> reduce_axes;
  if (red) {
    reduce_axes = red->axes;
    // every tracker under the reduce has the full shape, those of a step reduce under it followed by its own dims
    const std::unordered_set<const AstNode*> steps = under_steps(ast);
    const size_t rank = ast->st->shape().size();
    walk(red->srcs[0], [&](const AstNode& n) {
      if (n.st) full = steps.count(&n) ? Shape(n.st->shape().begin(), n.st->shape().begin() + static_cast<std::ptrdiff_t>(rank))
                                       : n.st->shape();
    });
  }
  const int ndim = static_cast<int>(full.size());
  std::vector<int> order;
  for (int i = 0; i < ndim; i++)
    if (std::find(reduce_axes.begin(), reduce_axes.end(), i) == reduce_axes.end()) order.push_back(i);
  for (int r : reduce_axes) order.push_back(r);
  if (!std::is_sorted(order.begin(), order.end())) a = permute_all(a, order);
  Shape permuted;
  for (int o : order) permuted.push_back(full[o]);
  int first_reduce = ndim - static_cast<int>(reduce_axes.size());

  // Size-1 axes carry nothing; adjacent axes of one kind merge where every tracker allows it.
  Shape shape;
  int kept_first_reduce = 0;
  for (int i = 0; i < ndim; i++) {
    if (permuted[i] == 1) continue;
    shape.push_back(permuted[i]);
    if (i < first_reduce) kept_first_reduce++;
  }
  first_reduce = kept_first_reduce;
  // the store has as many elements as the reduces' input: it walks the rows too (softmax's output)
  const bool rows_out = red && prod(ast->st->shape()) == prod(full);
  a = reshape_all(a, shape, first_reduce, rows_out);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; i--) {
    if ((i < first_reduce) != (i + 1 < first_reduce) || !all_can_merge(a, i)) continue;
    Shape merged = shape;
    merged[i] *= merged[i + 1];
    merged.erase(merged.begin() + i + 1);
    if (i + 1 < first_reduce) first_reduce--;
    shape = merged;
    a = reshape_all(a, shape, first_reduce, rows_out);
  }

  std::unordered_map<const AstNode*, int> depths;
  const bool online = red && !rows_out && online_sums(a, first_reduce).has_value();
  const int passes = red && !online ? reduce_depth(*a, depths) + (rows_out ? 1 : 0) : 1;
  Kernel k{a, shape, first_reduce, {}, {}, passes, {}, std::nullopt, -1};
  k.online_softmax = online;
  std::vector<const ShapeTracker*> trackers;
  walk(a, [&](const AstNode& n) {
    if (n.st) trackers.push_back(&*n.st);
  });
  k.vars = kernel_vars(trackers);
  for (int i = 0; i < static_cast<int>(shape.size()); i++) {
    ExprRef sym;
    for (const ShapeTracker* st : trackers)
      if (static_cast<size_t>(i) < st->sym().size() && st->sym()[i]) sym = st->sym()[i];
    k.dims.push_back({i, shape[i], 1, i < first_reduce ? DimRole::Global : DimRole::Reduce, sym});
  }
  return k;
}

int64_t Kernel::output_size() const {
  int64_t n = 1;
  for (int i = 0; i < first_reduce; i++) n *= full_shape[i];
  return n;
}

std::string Kernel::base_name() const {
  const bool reduces = first_reduce < static_cast<int>(full_shape.size());
  std::vector<std::string> sizes;
  // a symbolic dim is named by its Variable (a name is an identifier: n, not (n*2))
  for (const Dim& d : dims) sizes.push_back(d.sym ? size_variable(d.sym)->name : std::to_string(d.size));
  if (sizes.empty()) sizes.push_back("1");
  return fmt::format("{}_{}", reduces ? "r" : "E", fmt::join(sizes, "_"));
}

bool loads_in_order(const Kernel& k, int axis) {
  bool ok = true;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op != AstOp::Load) return;
    const std::optional<int64_t> stride = n.st->real_stride(axis);
    ok = ok && (stride == 0 || stride == 1);
  });
  return ok;
}

bool vector_values(const Kernel& k) {
  bool ok = true;
  walk(k.ast, [&](const AstNode& n) {
    ok = ok && (n.dtype == DType::Float32 || n.dtype == DType::Float64 || n.dtype == DType::Int32 ||
                n.dtype == DType::Int64);
  });
  return ok;
}

}  // namespace tr
