#include "core/render/render.h"

#include <algorithm>
#include <optional>

#include "core/base/error.h"

namespace tr {

std::string render_c(const UOpProgram& p);
std::string render_llvm(const UOpProgram& p);
std::string render_opencl(const UOpProgram& p);
std::string render_metal(const UOpProgram& p);
std::string render_cuda(const UOpProgram& p);
std::string render_hip(const UOpProgram& p);
std::string render_ptx(const UOpProgram& p);
std::string render_wgsl(const UOpProgram& p);
std::string render_qcom(const UOpProgram& p);

namespace {

struct Backend {
  std::string name;
  std::string (*render)(const UOpProgram&);
  bool cores_share = false;    // spells memory that a CPU's cores share and their barrier (core_locals)
  std::vector<MatrixUnit> matrix_units{};  // the units whose steps (WMMA) it spells
};

const std::vector<Backend>& table() {
  // every unit of the m16n8 family is on an sm_90 GPU
  static const std::vector<Backend> t{
      {"c", render_c, true},
      {"llvm", render_llvm, true},
      {"opencl", render_opencl},
      {"metal", render_metal, false, metal_matrix_units()},
      {"cuda", render_cuda, false, cuda_matrix_units(9, 0)},
      {"ptx", render_ptx, false, cuda_matrix_units(9, 0)},
      {"hip", render_hip},
      {"wgsl", render_wgsl},
      {"qcom", render_qcom}};
  return t;
}

const Backend& backend_named(std::string_view backend) {
  for (const Backend& b : table())
    if (b.name == backend) return b;
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
    for (const Backend& b : table()) n.push_back(b.name);
    return n;
  }();
  return names;
}

bool has_backend(std::string_view backend) {
  return std::any_of(table().begin(), table().end(), [&](const Backend& b) { return b.name == backend; });
}

std::string render(std::string_view backend, const UOpProgram& program) {
  const Backend& b = backend_named(backend);
  if (!b.cores_share && !core_locals(program).empty())
    fail("type", "{} has no memory that a CPU's cores share (a reduce that THREAD splits over the cores)", b.name);
  if (const std::optional<MatrixUnit> unit = unspelled_unit(b, program))
    fail("type", "{} does not spell the steps of the matrix unit {} (a reduce that TC puts on tensor cores)", b.name,
         matrix_unit_name(*unit));
  return b.render(program);
}

const std::vector<MatrixUnit>& spelled_matrix_units(std::string_view backend) { return backend_named(backend).matrix_units; }

bool spells_matrix_units(std::string_view backend, const UOpProgram& p) { return !unspelled_unit(backend_named(backend), p); }

bool is_local_id(const UOp& u) { return u.kind == UOpKind::Special && u.launch == LaunchKind::Local; }

bool has_local_ids(const std::vector<UOp>& uops) { return std::any_of(uops.begin(), uops.end(), is_local_id); }

}  // namespace tr
