#include "core/render/render.h"

#include <algorithm>
#include <optional>

#include "core/base/error.h"

namespace tr {

RenderedSource render_c(const UOpProgram& p);
RenderedSource render_llvm(const UOpProgram& p);
RenderedSource render_opencl(const UOpProgram& p);
RenderedSource render_metal(const UOpProgram& p);
RenderedSource render_cuda(const UOpProgram& p);
RenderedSource render_hip(const UOpProgram& p);
RenderedSource render_ptx(const UOpProgram& p);
RenderedSource render_wgsl(const UOpProgram& p);
RenderedSource render_qcom(const UOpProgram& p);

namespace {

struct Backend {
  BackendInfo info;
  RenderedSource (*render)(const UOpProgram&);
  bool cores_share = false;    // spells memory that a CPU's cores share and their barrier (core_locals)
  std::vector<MatrixUnit> matrix_units{};  // the units whose steps (WMMA) it spells
};

Target nominal_gpu(int64_t local_memory, int vector_width, bool vector_alu, int warp, std::vector<MatrixUnit> units) {
  return {.gpu = true, .local_memory = local_memory, .cores = 1, .max_local = 256, .vector_width = vector_width,
          .vector_alu = vector_alu, .warp_size = warp, .matrix_units = std::move(units)};
}

Backend gpu_backend(std::string_view name, std::string_view device, SourceSyntax syntax, RenderedSource (*render)(const UOpProgram&),
                    Target nominal) {
  std::vector<MatrixUnit> units = nominal.matrix_units;
  return {{name, device, true, syntax, std::move(nominal)}, render, false, std::move(units)};
}

const std::vector<Backend>& table() {
  using enum SourceSyntax;
  // every unit of the m16n8 family is on an sm_90 GPU
  static const std::vector<Backend> t{
      {{"c", "CPU", false, C}, render_c, true},
      {{"llvm", "LLVM", false, LlvmIr}, render_llvm, true},
      gpu_backend("opencl", "OPENCL", C, render_opencl, nominal_gpu(48 << 10, 4, true, 32, {})),
      gpu_backend("metal", "METAL", C, render_metal, nominal_gpu(32 << 10, 0, false, 32, metal_matrix_units())),
      gpu_backend("cuda", "CUDA", C, render_cuda, nominal_gpu(48 << 10, 4, false, 32, cuda_matrix_units(9, 0))),
      gpu_backend("ptx", "NV", C, render_ptx, nominal_gpu(48 << 10, 4, false, 32, cuda_matrix_units(9, 0))),
      gpu_backend("hip", "AMD", C, render_hip, nominal_gpu(64 << 10, 4, false, 64, {})),
      gpu_backend("wgsl", "WEBGPU", Wgsl, render_wgsl, nominal_gpu(16 << 10, 4, true, 0, {})),
      gpu_backend("qcom", "QCOM", C, render_qcom, nominal_gpu(48 << 10, 4, true, 32, {}))};
  return t;
}

const Backend& backend_named(std::string_view backend) {
  for (const Backend& b : table())
    if (b.info.name == backend) return b;
  fail("value", "unknown backend '{}' (backends: {})", backend, fmt::join(backends(), ", "));
}

// The first of the program's matrix units that the backend does not spell.
std::optional<MatrixUnit> unspelled_unit(const Backend& b, const UOpProgram& p) {
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::Wmma && std::find(b.matrix_units.begin(), b.matrix_units.end(), u.unit) == b.matrix_units.end())
      return u.unit;
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& backends() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Backend& b : table()) n.push_back(std::string(b.info.name));
    return n;
  }();
  return names;
}

bool has_backend(std::string_view backend) {
  return std::any_of(table().begin(), table().end(), [&](const Backend& b) { return b.info.name == backend; });
}

std::string render(std::string_view backend, const UOpProgram& program) { return render_lines(backend, program).text; }

RenderedSource render_lines(std::string_view backend, const UOpProgram& program) {
  const Backend& b = backend_named(backend);
  if (!b.cores_share && !core_locals(program).empty())
    fail("type", "{} has no memory that a CPU's cores share (a reduce that THREAD splits over the cores)", b.info.name);
  if (const std::optional<MatrixUnit> unit = unspelled_unit(b, program))
    fail("type", "{} does not spell the steps of the matrix unit {} (a reduce that TC puts on tensor cores)", b.info.name,
         matrix_unit_name(*unit));
  return b.render(program);
}

const std::vector<MatrixUnit>& spelled_matrix_units(std::string_view backend) { return backend_named(backend).matrix_units; }

const BackendInfo& backend_info(std::string_view backend) { return backend_named(backend).info; }

std::string_view line_comment(SourceSyntax s) { return s == SourceSyntax::LlvmIr ? "; " : "// "; }

bool spells_matrix_units(std::string_view backend, const UOpProgram& p) { return !unspelled_unit(backend_named(backend), p); }

bool is_local_id(const UOp& u) { return u.kind == UOpKind::Special && u.launch == LaunchKind::Local; }

bool has_local_ids(const std::vector<UOp>& uops) { return std::any_of(uops.begin(), uops.end(), is_local_id); }

}  // namespace tr
