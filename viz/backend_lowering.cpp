#include "viz/backend_lowering.h"

#include <fmt/format.h>

#include "core/codegen/codegen.h"
#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"

namespace tr {
namespace {

// The backend's own device's target where it opens here and is of the backend's kind; else the
// backend's nominal GPU, or for C and LLVM IR the host's CPU.
std::pair<Target, std::string> target_of(std::string_view backend) {
  const BackendInfo& b = backend_info(backend);
  const std::string name(b.device);
  if (device_status(name).empty()) {
    const Target t = device(name).target();
    if (t.gpu == b.gpu) return {t, name};
  }
  if (!b.gpu) return {device("CPU").target(), "CPU"};
  return {b.nominal, fmt::format("a nominal {} GPU ({} does not open here)", name, name)};
}

}  // namespace

BackendLowering lowering_for_backend(const KernelRecord& r, std::string_view backend) {
  const Target own = device(r.device).target();
  const bool spelled = spells_matrix_units(backend, *r.program);
  if (!r.ast || (own.gpu == backend_info(backend).gpu && spelled)) return {*r.program, render_lines(backend, *r.program), ""};
  const auto [target, whose] = target_of(backend);
  const Kernel plain = Kernel::from_ast(r.ast);
  const Kernel k = settings().noopt ? plain : default_opts(plain, target);
  std::vector<std::string> opts;
  for (const Opt& o : k.opts) opts.push_back(o.str());
  UOpProgram program = codegen(k, target, r.name);
  RenderedSource source = render_lines(backend, program);
  return {std::move(program), std::move(source),
          fmt::format("lowered for {} with {}: {} (this kernel ran on {})", whose,
                      settings().noopt ? "no opts (NOOPT)" : "its default opts",
                      opts.empty() ? "none" : fmt::format("{}", fmt::join(opts, ", ")), r.device)};
}

}  // namespace tr
