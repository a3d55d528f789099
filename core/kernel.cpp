#include "core/kernel.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include <fmt/format.h>

#include "core/error.h"

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
  }
  return "?";
}

std::string_view opt_name(OptOp op) {
  switch (op) {
    case OptOp::Upcast: return "UPCAST";
    case OptOp::Unroll: return "UNROLL";
    case OptOp::Local: return "LOCAL";
    case OptOp::Group: return "GROUP";
    case OptOp::Thread: return "THREAD";
  }
  return "?";
}

std::optional<OptOp> parse_opt(std::string_view s) {
  for (OptOp op : {OptOp::Upcast, OptOp::Unroll, OptOp::Local, OptOp::Group, OptOp::Thread})
    if (opt_name(op) == s) return op;
  return std::nullopt;
}

std::string Opt::str() const { return fmt::format("{}({}, {})", opt_name(op), dim, amount); }

namespace {

const AstNode* find_reduce(const AstRef& ast) {
  return find_node(ast, [](const AstNode& n) { return n.op == AstOp::Reduce; });
}

// Reshapes every tracker: those under the reduce to `full`, the others to `full` with the reduce
// axes (from `first_reduce` on) set to 1.
AstRef reshape_all(const AstRef& ast, const Shape& full, int first_reduce) {
  std::unordered_set<const AstNode*> under;
  if (const AstNode* red = find_reduce(ast)) walk(red->srcs[0], [&](const AstNode& n) { under.insert(&n); });
  Shape outside = full;
  for (size_t i = first_reduce; i < outside.size(); i++) outside[i] = 1;
  std::vector<int> axes;
  for (int i = first_reduce; i < static_cast<int>(full.size()); i++) axes.push_back(i);
  return rebuild(ast, [&](const AstNode& original, AstNode& n) {
    if (n.op == AstOp::Reduce) n.axes = axes;
    if (n.st) n.st = n.st->reshape(under.count(&original) ? full : outside);
  });
}

AstRef permute_all(const AstRef& ast, const std::vector<int>& order) {
  return map_trackers(ast, [&](const ShapeTracker& st) { return st.permute(order); });
}

bool all_can_merge(const AstRef& ast, size_t i) {
  bool ok = true;
  walk(ast, [&](const AstNode& n) {
    if (n.st) ok = ok && n.st->can_merge(i);
  });
  return ok;
}

}  // namespace

Kernel Kernel::from_ast(const AstRef& ast) {
  const AstNode* red = find_reduce(ast);
  AstRef a = ast;
  Shape full = ast->st->shape();
  std::vector<int> reduce_axes;
  if (red) {
    reduce_axes = red->axes;
    // every tracker under the reduce has the full shape
    walk(red->srcs[0], [&](const AstNode& n) {
      if (n.st) full = n.st->shape();
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
  a = reshape_all(a, shape, first_reduce);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; i--) {
    if ((i < first_reduce) != (i + 1 < first_reduce) || !all_can_merge(a, i)) continue;
    Shape merged = shape;
    merged[i] *= merged[i + 1];
    merged.erase(merged.begin() + i + 1);
    if (i + 1 < first_reduce) first_reduce--;
    shape = merged;
    a = reshape_all(a, shape, first_reduce);
  }

  Kernel k{a, shape, first_reduce, {}, {}};
  for (int i = 0; i < static_cast<int>(shape.size()); i++)
    k.dims.push_back({i, shape[i], 1, i < first_reduce ? DimRole::Global : DimRole::Reduce});
  return k;
}

int64_t Kernel::output_size() const {
  int64_t n = 1;
  for (int i = 0; i < first_reduce; i++) n *= full_shape[i];
  return n;
}

std::string Kernel::base_name() const {
  const bool reduces = first_reduce < static_cast<int>(full_shape.size());
  std::vector<int64_t> sizes;
  for (const Dim& d : dims) sizes.push_back(d.size);
  if (sizes.empty()) sizes.push_back(1);
  return fmt::format("{}_{}", reduces ? "r" : "E", fmt::join(sizes, "_"));
}

Kernel apply_opt(const Kernel& k, const Opt& opt) {
  if (opt.dim < 0 || opt.dim >= static_cast<int>(k.dims.size()))
    fail("opt", "{}: the kernel has dims 0..{}", opt.str(), static_cast<int>(k.dims.size()) - 1);
  const Dim d = k.dims[opt.dim];
  const bool output = d.role == DimRole::Global;
  const bool reduce = d.role == DimRole::Reduce;
  const bool wants_output = opt.op == OptOp::Upcast || opt.op == OptOp::Local || opt.op == OptOp::Thread;
  if (wants_output && !output) fail("opt", "{} needs an output (global) dim; dim {} is {}", opt.str(), opt.dim, dim_role_name(d.role));
  if (!wants_output && !reduce) fail("opt", "{} needs a reduce dim; dim {} is {}", opt.str(), opt.dim, dim_role_name(d.role));
  if (opt.amount < 2 || d.size % opt.amount != 0)
    fail("opt", "{}: amount must be >= 2 and divide the dim's size {}", opt.str(), d.size);
  if (opt.op == OptOp::Thread && std::any_of(k.dims.begin(), k.dims.end(), [](const Dim& x) { return x.role == DimRole::Thread; }))
    fail("opt", "{}: the kernel is already split over threads", opt.str());
  Kernel out = k;
  const int64_t rest = d.size / opt.amount;
  Dim outer{d.axis, rest, d.stride * opt.amount, d.role};
  Dim inner{d.axis, opt.amount, d.stride, d.role};
  switch (opt.op) {
    case OptOp::Upcast: inner.role = DimRole::Upcast; break;
    case OptOp::Unroll: inner.role = DimRole::Unroll; break;
    case OptOp::Local: inner.role = DimRole::Local; break;
    case OptOp::Group: inner.role = DimRole::Group; break;
    case OptOp::Thread:
      // the outer piece goes to threads so that each core walks one contiguous block
      outer = {d.axis, opt.amount, d.stride * rest, DimRole::Thread};
      inner = {d.axis, rest, d.stride, DimRole::Global};
      break;
  }
  out.dims[opt.dim] = outer;
  out.dims.insert(out.dims.begin() + opt.dim + 1, inner);
  std::erase_if(out.dims, [](const Dim& x) { return x.size == 1; });
  out.opts.push_back(opt);
  return out;
}

namespace {

int last_dim_with(const Kernel& k, DimRole role) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--)
    if (k.dims[i].role == role) return i;
  return -1;
}

int64_t largest_divisor_upto(int64_t n, int64_t limit) {
  for (int64_t a = std::min(n, limit); a >= 2; a--)
    if (n % a == 0) return a;
  return 1;
}

// Whether some load reads the same element for every value of this axis: upcasting it reuses that load.
bool broadcast_by_a_load(const Kernel& k, int axis) {
  bool found = false;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op == AstOp::Load && n.st->real_stride(axis) == 0) found = true;
  });
  return found;
}

// Whether every load steps 0 or 1 elements along axis.
bool loads_in_order(const Kernel& k, int axis) {
  bool ok = true;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op != AstOp::Load) return;
    const std::optional<int64_t> stride = n.st->real_stride(axis);
    ok = ok && (stride == 0 || stride == 1);
  });
  return ok;
}

int64_t upcast_product(const Kernel& k) {
  int64_t n = 1;
  for (const Dim& d : k.dims)
    if (d.role == DimRole::Upcast || d.role == DimRole::Unroll) n *= d.size;
  return n;
}

}  // namespace

bool vector_values(const Kernel& k) {
  bool ok = true;
  walk(k.ast, [&](const AstNode& n) {
    ok = ok && (n.dtype == DType::Float32 || n.dtype == DType::Float64 || n.dtype == DType::Int32 ||
                n.dtype == DType::Int64);
  });
  return ok;
}

Kernel default_opts(const Kernel& k, const Target& target) {
  Kernel out = k;
  int64_t work = 1;
  for (const Dim& d : k.dims) work *= d.size;
  const bool reduces = k.first_reduce < static_cast<int>(k.full_shape.size());
  // A reduce whose output dims are broadcast by its loads (a matmul): a register tile of 4 rows by
  // up to 16 columns reuses every load across the tile.
  if (reduces) {
    std::vector<int> tile;
    for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && tile.size() < 2; i--)
      if (out.dims[i].role == DimRole::Global && broadcast_by_a_load(out, out.dims[i].axis)) tile.push_back(i);
    if (tile.size() == 2) {
      // A GPU thread's wide upcast of columns would scatter its neighbours' loads: 4 columns by 8 rows
      // there (on an H200 the 4096 matmul went from 12.2 to 19.6 TFLOPS with 8 rows instead of 4).
      const auto upcast_by_first_fit = [&](int dim, std::vector<int64_t> amounts) {
        for (int64_t amt : amounts)
          if (out.dims[dim].size % amt == 0 && out.dims[dim].size > amt) {
            out = apply_opt(out, {OptOp::Upcast, dim, amt});
            return;
          }
      };
      upcast_by_first_fit(tile[0], target.gpu ? std::vector<int64_t>{4} : std::vector<int64_t>{16, 8, 4});
      upcast_by_first_fit(tile[1], target.gpu ? std::vector<int64_t>{8, 4} : std::vector<int64_t>{4});
    }
  }
  // Unroll a reduce dim: wholly when it is tiny, else by 4.
  if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && upcast_product(out) < 64) {
    const int64_t n = out.dims[r].size;
    if (n <= 8 && n > 1) out = apply_opt(out, {OptOp::Unroll, r, n});
    else if (n % 4 == 0) out = apply_opt(out, {OptOp::Unroll, r, 4});
  }
  // A GPU that moves aligned vectors: each thread of an element-wise kernel takes 4 neighbouring
  // elements as one vector, when every load reads them in order (or broadcasts them).
  if (target.gpu && target.vector_width >= 4 && !reduces && vector_values(out)) {
    const int g = last_dim_with(out, DimRole::Global);
    if (g >= 0 && out.dims[g].axis == out.first_reduce - 1 && out.dims[g].size % 4 == 0 &&
        out.dims[g].size > 4 && loads_in_order(out, out.dims[g].axis))
      out = apply_opt(out, {OptOp::Upcast, g, 4});
  }
  // Upcast the innermost output dims into registers: small ones wholly, larger ones by 4. Not on a
  // GPU, where neighbouring threads reading neighbouring elements is what makes loads fast.
  for (int pass = 0; pass < 2 && !target.gpu && upcast_product(out) < 16; pass++) {
    const int g = last_dim_with(out, DimRole::Global);
    if (g < 0) break;
    const int64_t n = out.dims[g].size;
    const int64_t amt = n <= 4 ? n : (n % 4 == 0 ? 4 : 1);
    if (amt < 2 || upcast_product(out) * amt > 16) break;
    out = apply_opt(out, {OptOp::Upcast, g, amt});
  }
  // A GPU workgroup: threads along the innermost output dim (neighbours read neighbours), then up
  // to 8 along the next, within the device's limit.
  if (target.gpu && target.local_memory) {
    int64_t threads = 1;
    // few outputs with a long reduce: a group of threads shares each output's reduce
    if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && out.output_size() <= 4096 &&
                                                            out.dims[r].size >= 256 && out.dims[r].size % 16 == 0) {
      out = apply_opt(out, {OptOp::Group, r, 16});
      threads = 16;
    }
    int placed = 0;
    for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && placed < 2; i--) {
      if (out.dims[i].role != DimRole::Global) continue;
      // an element-wise kernel fills the workgroup along x; a reduce makes a 16x4 workgroup (64
      // threads measured faster than 256 for the 4096 matmul on an H200: 20.2 against 17.9 TFLOPS)
      const int64_t want = placed ? 4 : (reduces ? 16 : 256);
      const int64_t amt = largest_divisor_upto(out.dims[i].size, std::min<int64_t>(want, target.max_local / threads));
      placed++;
      if (amt < 2) continue;
      out = apply_opt(out, {OptOp::Local, i, amt});
      threads *= amt;
    }
  }
  // Split the outermost output dim over the cores when there is enough work to pay for threads.
  if (!target.gpu && target.cores > 1 && work >= (1 << 16)) {
    for (int i = 0; i < static_cast<int>(out.dims.size()); i++) {
      if (out.dims[i].role != DimRole::Global) continue;
      const int64_t amt = largest_divisor_upto(out.dims[i].size, target.cores);
      if (amt >= 2) out = apply_opt(out, {OptOp::Thread, i, amt});
      break;
    }
  }
  return out;
}

}  // namespace tr
