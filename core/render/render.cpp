#include "core/render/render.h"

#include <algorithm>

#include "core/error.h"

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
  bool matrix_units = false;   // spells a step of an NVIDIA matrix unit (WMMA)
};

const std::vector<Backend>& table() {
  static const std::vector<Backend> t{
      {"c", render_c, true},        {"llvm", render_llvm, true},        {"opencl", render_opencl},
      {"metal", render_metal},      {"cuda", render_cuda, false, true}, {"ptx", render_ptx, false, true},
      {"hip", render_hip},          {"wgsl", render_wgsl},              {"qcom", render_qcom}};
  return t;
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
  for (const Backend& b : table()) {
    if (b.name != backend) continue;
    if (!b.cores_share && !core_locals(program).empty())
      fail("type", "{} has no memory that a CPU's cores share (a reduce that THREAD splits over the cores)", b.name);
    if (!b.matrix_units && has_wmma(program))
      fail("type", "{} does not spell the matrix unit's steps (a reduce that TC puts on tensor cores)", b.name);
    return b.render(program);
  }
  fail("value", "unknown backend '{}' (backends: {})", backend, fmt::join(backends(), ", "));
}

bool renders_matrix_units(std::string_view backend) {
  return std::any_of(table().begin(), table().end(), [&](const Backend& b) { return b.name == backend && b.matrix_units; });
}

bool has_wmma(const UOpProgram& p) {
  return std::any_of(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Wmma; });
}

bool is_local_id(const UOp& u) { return u.kind == UOpKind::Special && u.launch == LaunchKind::Local; }

bool has_local_ids(const std::vector<UOp>& uops) { return std::any_of(uops.begin(), uops.end(), is_local_id); }

}  // namespace tr
