// TC: a sum of products of two 16-bit float values, accumulated in float, on the GPU's matrix unit.
// The M, N and K dims are split after the unit's layout (core/codegen/tensor_cores.h): M into the
// warp's 8 lanes and the layout's elements, N into 4 lanes and 2 elements, K into the unit's k; the
// lowering's tensor_cores pass turns each step of that K into one WMMA.
#include <algorithm>

#include <fmt/format.h>

#include "core/codegen/tensor_cores.h"
#include "core/base/error.h"
#include "core/opt/apply_opt.h"

namespace tr {
namespace {

// The innermost whole output dim that `varies` changes along and `other` does not, of a size the
// unit's tile divides; -1 where none is.
int tile_dim(const Kernel& k, const AstRef& varies, const AstRef& other, int64_t tile) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--) {
    const Dim& d = k.dims[i];
    if (d.role == DimRole::Global && !d.sym && d.size % tile == 0 && !reads_along(other, d.axis) &&
        reads_along(varies, d.axis))
      return i;
  }
  return -1;
}

}  // namespace

std::vector<MatrixUnit> units_of_k(const Opt& opt, const Target& target) {
  std::vector<MatrixUnit> of_k;
  for (const MatrixUnit& u : target.matrix_units)
    if (u.k == opt.amount && tc_layout(u)) of_k.push_back(u);
  if (of_k.empty()) {
    std::vector<std::string> units;
    for (const MatrixUnit& u : target.matrix_units) units.push_back(matrix_unit_name(u));
    fail("opt", "{}: the amount is the matrix unit's K; this GPU's units are {}", opt.str(), fmt::join(units, ", "));
  }
  return of_k;
}

Kernel apply_tc(const Kernel& k, const Opt& opt, const Target& target) {
  const std::vector<MatrixUnit> of_k = units_of_k(opt, target);
  std::vector<const AstNode*> reduces;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op == AstOp::Reduce) reduces.push_back(&n);
  });
  // the unit whose input dtype the reduce's products have
  std::optional<std::pair<AstRef, AstRef>> ab;
  const MatrixUnit* unit = nullptr;
  for (size_t i = 0; i < of_k.size() && reduces.size() == 1 && !ab; i++) {
    ab = tc_products(*reduces[0], of_k[i]);
    unit = &of_k[i];
  }
  if (!ab) {
    std::vector<std::string> inputs;
    for (const MatrixUnit& u : of_k) inputs.push_back(std::string(name(u.in)));
    fail("opt", "{}: the matrix unit sums products of two {} values in {}; this kernel's reduce is not one", opt.str(),
         fmt::join(inputs, " or "), name(of_k[0].acc));
  }
  const auto [a, b] = *ab;
  const int im = tile_dim(k, a, b, unit->m), in = tile_dim(k, b, a, unit->n);
  if (im < 0 || in < 0)
    fail("opt", "{}: no output dim of a multiple of {} that only one operand reads along, and one of {} for the other "
                "(a padded output dim does not count: the other operand reads along it through the padding's mask)",
         opt.str(), unit->m, unit->n);
  const Dim m = k.dims[im], n = k.dims[in], kd = k.dims[opt.dim];
  const TcLayout& layout = *tc_layout(*unit);
  Kernel out = k;
  using enum DimRole;
  out.dims[im] = {m.axis, m.size / unit->m, m.stride * unit->m, Global};
  out.dims[in] = {n.axis, n.size / unit->n, n.stride * unit->n, Global};
  out.dims[opt.dim] = {kd.axis, kd.size / unit->k, kd.stride * unit->k, Reduce};
  out.dims.insert(out.dims.begin() + opt.dim + 1, {kd.axis, unit->k, kd.stride, Unroll, nullptr, TcPart::K});
  // after the output dims: the warp's lanes are the workgroup's last two dims (launch axes y and x, so
  // that 4 * g + t numbers the warp's threads), the elements upcasts
  const auto reduce_side = std::find_if(out.dims.begin(), out.dims.end(), [&](const Dim& d) { return d.axis >= k.first_reduce; });
  out.dims.insert(reduce_side, {Dim{m.axis, TcLayout::kLanesM, m.stride, Local, nullptr, TcPart::MLanes},
                                Dim{n.axis, TcLayout::kLanesN, n.stride * TcLayout::kElemsN, Local, nullptr, TcPart::NLanes},
                                Dim{m.axis, layout.elems_m, m.stride * TcLayout::kLanesM, Upcast, nullptr, TcPart::MElems},
                                Dim{n.axis, TcLayout::kElemsN, n.stride, Upcast, nullptr, TcPart::NElems}});
  std::erase_if(out.dims, [](const Dim& x) { return x.size == 1; });
  out.tc = *unit;
  out.opts.push_back(opt);
  return out;
}

}  // namespace tr
