#include "core/opt/recipes/dims.h"

#include <algorithm>

#include "core/codegen/lowering.h"
#include "core/kernel/ast.h"
#include "core/opt/apply_opt.h"

namespace tr {

bool splittable(const Dim& d, DimRole role) { return d.role == role && !d.sym; }

int last_dim_with(const Kernel& k, DimRole role) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--)
    if (splittable(k.dims[i], role)) return i;
  return -1;
}

int first_dim_with(const Kernel& k, DimRole role) {
  for (int i = 0; i < static_cast<int>(k.dims.size()); i++)
    if (splittable(k.dims[i], role)) return i;
  return -1;
}

int last_global_on(const Kernel& k, int axis) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--)
    if (splittable(k.dims[i], DimRole::Global) && k.dims[i].axis == axis) return i;
  return -1;
}

int64_t largest_divisor_upto(int64_t n, int64_t limit) {
  for (int64_t a = std::min(n, limit); a >= 2; a--)
    if (n % a == 0) return a;
  return 1;
}

int64_t upcast_product(const Kernel& k) {
  int64_t n = 1;
  for (const Dim& d : k.dims)
    if ((d.role == DimRole::Upcast || d.role == DimRole::Unroll) && d.tc == TcPart::None) n *= d.size;
  return n;
}

int64_t body_ops(const Kernel& k) {
  int64_t n = 0;
  walk(k.ast, [&](const AstNode& node) { n += node.op == AstOp::Alu; });
  return std::max<int64_t>(n, 1);
}

int64_t body_copies(const Kernel& k, const Target& t) {
  const int vector = vector_upcast_dim(k, t);
  return upcast_product(k) / (vector >= 0 ? k.dims[static_cast<size_t>(vector)].size : 1);
}

int64_t upcast_along(const Kernel& k, int axis) {
  int64_t n = 1;
  for (const Dim& d : k.dims)
    if (d.role == DimRole::Upcast && d.axis == axis) n *= d.size;
  return n;
}

bool broadcast_by_a_load(const Kernel& k, int axis) {
  bool found = false;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op == AstOp::Load && n.st->real_stride(axis) == 0) found = true;
  });
  return found;
}

std::pair<int, int64_t> transposed_dim(const Kernel& k, int inner) {
  std::pair<int, int64_t> found{-1, 1};
  walk(k.ast, [&](const AstNode& n) {
    if (n.op != AstOp::Load) return;
    const std::optional<int64_t> along_inner = n.st->real_stride(k.dims[inner].axis);
    if (along_inner == 0 || along_inner == 1) return;
    for (int i = 0; i < static_cast<int>(k.dims.size()); i++)
      if (i != inner && splittable(k.dims[i], DimRole::Global) && n.st->real_stride(k.dims[i].axis) == 1)
        found = {i, itemsize(n.dtype)};
  });
  return found;
}

void pad_to_multiple(Kernel& k, int dim, int64_t multiple, const Target& target) {
  const int64_t n = k.dims[dim].size;
  const int64_t to = (n + multiple - 1) / multiple * multiple;
  if (to != n && (to - n) * 4 <= n) k = apply_opt(k, {OptOp::Padto, dim, multiple}, target);
}

void upcast_tile_dim(Kernel& k, int dim, const std::vector<int64_t>& amounts, int64_t then_split, const Target& target) {
  if (k.dims[dim].size > amounts.front() * then_split) pad_to_multiple(k, dim, amounts.front() * then_split, target);
  for (const int64_t amt : amounts)
    if (k.dims[dim].size % amt == 0 && k.dims[dim].size > amt) {
      k = apply_opt(k, {OptOp::Upcast, dim, amt}, target);
      return;
    }
}

int64_t group_reduce(Kernel& k, int r, const std::vector<int64_t>& amounts, int64_t threads, int64_t partials,
                     const Target& target) {
  if (!target.workgroup_in_parallel) return threads;
  for (const int64_t g : amounts) {
    if (k.dims[r].size % g != 0 || k.dims[r].size < 2 * g || threads * g > target.max_local ||
        threads * g * partials * 8 > target.local_memory)
      continue;
    k = apply_opt(k, {OptOp::Group, r, g}, target);
    return threads * g;
  }
  return threads;
}

}  // namespace tr
