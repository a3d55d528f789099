#include "core/opt/apply_opt.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "core/ir/alu.h"
#include "core/codegen/launch_ids.h"
#include "core/base/error.h"
#include "core/opt/opt_table.h"

namespace tr {
namespace {

// The value of n at a padded position: every leaf reads 0 there (masked loads, constants and indices).
ConstValue value_where_padded(const AstNode& n, std::unordered_map<const AstNode*, ConstValue>& memo) {
  if (const auto it = memo.find(&n); it != memo.end()) return it->second;
  ConstValue v = cast_const(int64_t{0}, n.dtype);
  if (n.op == AstOp::Alu) {
    std::vector<ConstValue> srcs;
    for (const AstRef& s : n.srcs) srcs.push_back(value_where_padded(*s, memo));
    v = exec_alu(n.alu, n.dtype, n.srcs.back()->dtype, srcs);
  }
  memo.emplace(&n, v);
  return v;
}

const AstNode* reduce_of(const AstRef& ast) {
  const AstNode* r = nullptr;
  walk(ast, [&](const AstNode& n) {
    if (n.op == AstOp::Reduce) r = &n;
  });
  return r;
}

Kernel padded(const Kernel& k, const Opt& opt) {
  const Dim d = k.dims[opt.dim];
  if (std::count_if(k.dims.begin(), k.dims.end(), [&](const Dim& x) { return x.axis == d.axis; }) > 1)
    fail("opt", "{}: PADTO pads a whole axis, and axis {} is already split (apply PADTO first)", opt.str(), d.axis);
  const int64_t size = k.full_shape[d.axis];
  const int64_t to = (size + opt.amount - 1) / opt.amount * opt.amount;
  if (to == size) fail("opt", "{}: dim {} ({}) is already a multiple of {}", opt.str(), opt.dim, size, opt.amount);
  if (to - size >= size)
    fail("opt", "{}: padding {} up to {} would more than double it", opt.str(), size, to);
  if (d.role == DimRole::Reduce)
    if (const std::optional<std::string> why = unsafe_to_pad_reduce(k)) fail("opt", "{}: {}", opt.str(), *why);
  Kernel out = k;
  out.ast = map_trackers(k.ast, [&](const ShapeTracker& st) {
    // trackers outside the reduce have size 1 on reduce axes: nothing to pad there
    if (st.shape()[d.axis] != size) return st;
    std::vector<Range> pads(st.shape().size(), {0, 0});
    pads[d.axis] = {0, to - size};
    return st.pad(pads);
  });
  out.full_shape[d.axis] = to;
  out.dims[opt.dim].size = to;
  out.opts.push_back(opt);
  return out;
}

// A workgroup the device would refuse to launch (CUDA_ERROR_INVALID_VALUE, CL_INVALID_WORK_GROUP_SIZE)
// is refused here, where the opt that makes it is named.
void check_workgroup(const Kernel& k, const Opt& opt, const Target& target) {
  const std::array<int64_t, 3> local = launch_sizes(k, LaunchKind::Local, target);
  const int64_t threads = local[0] * local[1] * local[2];
  if (threads > target.max_threads)
    fail("opt", "{}: a workgroup of {} threads; the device allows {}", opt.str(), threads, target.max_threads);
  for (size_t a = 0; a < 3; a++)
    if (local[a] > target.max_threads_per_axis[a])
      fail("opt", "{}: {} threads of a workgroup on launch axis {}; the device allows {}", opt.str(), local[a], "xyz"[a],
           target.max_threads_per_axis[a]);
}

// The cores that split a reduce wait for each other before combining their partial results, so all of
// them run at once, and they combine one output's results at a time: no output dim may be a loop
// around them.
void check_cores_combine(const Kernel& k, const Opt& opt, const Target& target) {
  if (!target.cores_combine)
    fail("opt", "{}: this device runs a kernel's cores one by one, which cannot combine a split reduce", opt.str());
  if (opt.amount > target.cores)
    fail("opt", "{}: the cores of a split reduce run at once, and the CPU has {}", opt.str(), target.cores);
  for (const Dim& x : k.dims)
    if (x.role == DimRole::Global)
      fail("opt", "{}: the cores of a split reduce combine one output at a time; upcast the output dims first "
                  "(dim {} is a loop)", opt.str(), &x - k.dims.data());
}

// DOUBLE splits nothing: the staged tiles get two halves.
Kernel double_buffered(const Kernel& k, const Opt& opt) {
  if (k.dims[opt.dim].axis != k.stage_axis)
    fail("opt", "{}: DOUBLE takes the reduce dim whose tiles STAGE put in local memory", opt.str());
  if (opt.amount != 2) fail("opt", "{}: the amount is the number of halves, 2", opt.str());
  if (k.stage_halves) fail("opt", "{}: the staged tiles have two halves already", opt.str());
  Kernel out = k;
  out.stage_halves = true;
  out.opts.push_back(opt);
  return out;
}

// BLOCK: the dim's outer piece becomes the kernel's outermost loop. Of a reduce dim, each output keeps
// the partial result of the blocks so far in the output buffer, from which the next block's sum starts
// (core/codegen/loops.cpp). So the output must hold the reduce's own value between blocks: one reduce,
// of the output's dtype. The epilogue may read buffers: the scheduler gives no kernel with a reduce
// the buffer it reads as its output (an assign's value gets its own buffer first, core/schedule/schedule.cpp).
Kernel blocked(const Kernel& k, const Opt& opt) {
  const Dim d = k.dims[opt.dim];
  const auto refuse = [&](std::string_view why) { fail("opt", "{}: {}", opt.str(), why); };
  if (opt.amount >= d.size) refuse(fmt::format("a block of {} is the whole dim", opt.amount));
  if (d.role == DimRole::Reduce) {
    std::vector<const AstNode*> reduces;
    walk(k.ast, [&](const AstNode& n) {
      if (n.op == AstOp::Reduce) reduces.push_back(&n);
    });
    if (reduces.size() != 1 || k.row_passes != 1)
      refuse("BLOCK keeps one reduce's partial results in the output; this kernel has several, or walks its rows again");
    if (reduces[0]->dtype != k.ast->dtype)
      refuse(fmt::format("the partial results wait in the output, which is {} where the reduce is {}", name(k.ast->dtype),
                         name(reduces[0]->dtype)));
  }
  Kernel out = k;
  out.dims[opt.dim] = {d.axis, opt.amount, d.stride, d.role};
  out.dims.insert(out.dims.begin(), Dim{d.axis, d.size / opt.amount, d.stride * opt.amount, DimRole::Block});
  out.opts.push_back(opt);
  return out;
}

}  // namespace

std::optional<std::string> unsafe_to_pad_reduce(const Kernel& k) {
  const AstNode* red = reduce_of(k.ast);
  if (!red) return "the kernel has no reduce";
  if (red->alu != Op::Sum)
    return fmt::format("a {} reduce would take the padding's zeros in; only a sum ignores them",
                       red->alu == Op::ReduceMax ? "max" : "product");
  std::unordered_map<const AstNode*, ConstValue> memo;
  const ConstValue v = value_where_padded(*red->srcs[0], memo);
  if (as_double(v) != 0.0)
    return fmt::format("the summed value is {} where the loads read 0, so padding would change the sum",
                       as_double(v));
  return std::nullopt;
}

Kernel apply_opt(const Kernel& k, const Opt& opt, const Target& target) {
  const OptInfo& info = opt_info(opt.op);
  if (opt.dim < 0 || opt.dim >= static_cast<int>(k.dims.size()))
    fail("opt", "{}: the kernel has dims 0..{}", opt.str(), static_cast<int>(k.dims.size()) - 1);
  if (!target_has(target, info.needs)) fail("opt", "{} needs {}", info.name, needs_str(info.needs));
  const Dim d = k.dims[opt.dim];
  if (std::find(info.takes.begin(), info.takes.end(), d.role) == info.takes.end()) {
    std::vector<std::string_view> roles;
    for (const DimRole r : info.takes) roles.push_back(dim_role_name(r));
    fail("opt", "{} needs a {} dim; dim {} is {}", opt.str(), fmt::join(roles, " or "), opt.dim, dim_role_name(d.role));
  }
  if (opt.amount < 2) fail("opt", "{}: the amount must be at least 2", opt.str());
  if (d.sym) fail("opt", "{}: dim {} is the symbolic size {}; opts split only dims of a known size", opt.str(), opt.dim, render(d.sym));
  if (opt.op == OptOp::Tc) units_of_k(opt, target);
  check_combines(k, opt, d);
  if (opt.op == OptOp::Double) return double_buffered(k, opt);
  if (opt.op == OptOp::Padto) return padded(k, opt);
  if (d.size % opt.amount != 0) fail("opt", "{}: the amount must divide the dim's size {}", opt.str(), d.size);
  if (opt.op == OptOp::Block) return blocked(k, opt);
  if (opt.op == OptOp::Tc) {
    Kernel out = apply_tc(k, opt, target);
    check_workgroup(out, opt, target);
    return out;
  }
  if (opt.op == OptOp::Thread && d.role == DimRole::Reduce) check_cores_combine(k, opt, target);
  const int64_t rest = d.size / opt.amount;
  // the outer piece steps over the inner one's elements
  const Dim outer{d.axis, info.gives_outer ? opt.amount : rest, d.stride * (info.gives_outer ? rest : opt.amount),
                  info.gives_outer ? *info.gives : d.role};
  const Dim inner{d.axis, info.gives_outer ? rest : opt.amount, d.stride, info.gives_outer ? d.role : *info.gives};
  Kernel out = k;
  out.dims[opt.dim] = outer;
  out.dims.insert(out.dims.begin() + opt.dim + 1, inner);
  std::erase_if(out.dims, [](const Dim& x) { return x.size == 1; });
  out.opts.push_back(opt);
  if (opt.op == OptOp::Stage) out.stage_axis = d.axis;
  if (target.gpu) check_workgroup(out, opt, target);
  return out;
}

}  // namespace tr
