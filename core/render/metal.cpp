// Metal Shading Language: buffers bound by [[buffer(i)]], launch ids as attributed uint3
// parameters (the workgroup and the thread in it, or the thread in the grid when the kernel has
// no local dims). Metal has no float64. A TC kernel's steps are simdgroup_matrix multiplies.
#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/cstyle.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::string metal_type(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: return "char";
    case DType::UInt8: return "uchar";
    case DType::Int16: return "short";
    case DType::UInt16: case DType::BFloat16: return "ushort";
    case DType::Int32: return "int";
    case DType::UInt32: return "uint";
    case DType::Int64: return "long";
    case DType::UInt64: return "ulong";
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: break;
  }
  fail("type", "Metal has no {}", name(t));
}

// One simdgroup_multiply_accumulate: the thread's elements of A, B and the accumulator become its
// thread_elements() of three 8x8 simdgroup matrices (the tensor_cores pass read them where those
// hold them) and the result's come back.
std::string simdgroup_decl(const MatrixUnit& m, const std::string& fn) {
  const std::string in = metal_type(m.in), acc = metal_type(m.acc);
  const int elems = m.m * m.n / 32;
  std::vector<std::string> params, sets, result;
  for (const char x : {'a', 'b'})
    for (int i = 0; i < elems; i++) {
      params.push_back(fmt::format("{} {}{}", in, x, i));
      sets.push_back(fmt::format("  {0}.thread_elements()[{1}] = {0}{1};\n", x, i));
    }
  for (int i = 0; i < elems; i++) {
    sets.push_back(fmt::format("  d.thread_elements()[{}] = c.{};\n", i, xyzw(i)));
    result.push_back(fmt::format("d.thread_elements()[{}]", i));
  }
  return fmt::format("{0}{1} {2}({3}, {0}{1} c) {{\n  simdgroup_{4}{5}x{6} a, b;\n  simdgroup_{0}{5}x{6} d;\n{7}"
                     "  simdgroup_multiply_accumulate(d, a, b, d);\n  return {0}{1}({8});\n}}\n",
                     acc, elems, fn, fmt::join(params, ", "), in, m.m, m.n, fmt::join(sets, ""), fmt::join(result, ", "));
}

}  // namespace

RenderedSource render_metal(const UOpProgram& p) {
  static const CStyleLanguage lang{
      .name = "Metal",
      .prelude = "#include <metal_stdlib>\nusing namespace metal;\n",
      .kernel_prefix = "kernel void ",
      .global_space = "device ",
      .local_decl = "threadgroup ",
      .buffer_attr = " [[buffer({})]]",
      .var_param = "constant int& {0} [[buffer({1})]]",
      .barrier = "threadgroup_barrier(mem_flags::mem_threadgroup);",
      .int64_suffix = "l",
      .uint64_suffix = "ul",
      .vector_arith = true,
      .type = metal_type,
      .launch_params = [](const UOpProgram& prog) -> std::vector<std::string> {
        if (has_local_ids(prog.uops))
          return {"uint3 gid [[threadgroup_position_in_grid]]", "uint3 lid [[thread_position_in_threadgroup]]"};
        if (std::any_of(prog.uops.begin(), prog.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Special; }))
          return {"uint3 gid [[thread_position_in_grid]]"};
        return {};
      },
      .special = [](const UOp& u, const UOpProgram&) { return fmt::format("{}.{}", is_local_id(u) ? "lid" : "gid", xyzw(u.axis)); },
      // the built-in functions are overloaded for half and float
      .math = [](const std::string& fn, DType, const std::string& x) { return fmt::format("{}({})", fn, x); },
      .vector_type = [](DType t, int n) -> std::string {
        if (n < 2 || n > 4) return "";
        return fmt::format("{}{}", metal_type(t), n);
      },
      .vector_make = [](const std::string& type, const std::vector<std::string>& lanes) {
        return fmt::format("{}({})", type, fmt::join(lanes, ","));
      },
      .gep = [](const std::string& x, int lane) { return fmt::format("{}.{}", x, xyzw(lane)); },
      .bitcast = [](DType, DType to, const std::string& x) { return fmt::format("as_type<{}>({})", metal_type(to), x); },
      .wmma_decl = simdgroup_decl,
  };
  return render_cstyle(lang, p);
}

}  // namespace tr
