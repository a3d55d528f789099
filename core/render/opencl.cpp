// OpenCL C: workgroups and their threads by get_group_id/get_local_id, or get_global_id alone when
// the kernel has no local dims and the device picks the workgroup size.
#include <array>

#include <fmt/format.h>

#include "core/render/cstyle.h"
#include "core/render/opencl.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::string opencl_type(DType t) {
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
    case DType::Float64: return "double";
  }
  return "?";
}

// Without cl_khr_fp16, half exists only in memory: vload_half/vstore_half move it, registers hold
// float, and a round trip through a private half rounds each result to half precision (from double
// too, where cl_khr_fp64 gives vstore_half_rte a double).
constexpr const char* kRoundHalf =
    "float tr_round_half(float x) { ushort h; vstore_half_rte(x, 0, (half*)&h); return vload_half(0, (const half*)&h); }\n";
constexpr const char* kFp64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
constexpr const char* kRoundHalfFromDouble =
    "float tr_round_half_d(double x) { ushort h; vstore_half_rte(x, 0, (half*)&h); return vload_half(0, (const half*)&h); }\n";

}  // namespace

CStyleLanguage opencl_language(bool native_half) {
  CStyleLanguage lang{
      .name = "OpenCL",
      // each + and * rounds on its own, as on the CPU (-ffp-contract=off) and in the reference: OpenCL C
      // contracts a * b + c into one fma by default, and a chain of them drifted an ulp from the CPU's
      .prelude = "#pragma OPENCL FP_CONTRACT OFF\n",
      .half_prelude = native_half ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : kRoundHalf,
      .double_prelude = native_half ? kFp64 : fmt::format("{}{}", kFp64, kRoundHalfFromDouble),
      .kernel_prefix = "__kernel void ",
      .global_space = "__global ",
      .local_decl = "__local ",
      .restrict_kw = "restrict",
      .barrier = "barrier(CLK_LOCAL_MEM_FENCE);",
      .int64_suffix = "l",
      .uint64_suffix = "ul",
      .vector_arith = true,
      // a vector condition selects lane by lane
      .vector_max = "({takes_b}?{b}:{a})",
      // the built-in math functions take vectors
      .vector_math = "{fn}({x})",
      .type = [native_half](DType t) { return t == DType::Float16 && !native_half ? "float" : opencl_type(t); },
      .special = [](const UOp& u, const UOpProgram& p) {
        const char* fn = is_local_id(u)                                         ? "get_local_id"
                         : has_local_ids(p.uops) && u.launch == LaunchKind::Global ? "get_group_id"
                                                                                : "get_global_id";
        return fmt::format("{}({})", fn, u.axis);
      },
      // the built-in functions are overloaded for half, float and double
      .math = [](const std::string& fn, DType, const std::string& x) { return fmt::format("{}({})", fn, x); },
      .vector_type = [native_half](DType t, int n) -> std::string {
        if (t == DType::Bool || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)) return "";
        return fmt::format("{}{}", t == DType::Float16 && !native_half ? "float" : opencl_type(t), n);
      },
      .vector_make = [](const std::string& type, const std::vector<std::string>& lanes) {
        return fmt::format("(({})({}))", type, fmt::join(lanes, ","));
      },
      .gep = [](const std::string& x, int lane) { return fmt::format("{}.s{:x}", x, lane); },
      .vector_load = "vload{n}(0, {buf}+{idx})",
      .vector_store = "vstore{n}({val}, 0, {buf}+{idx});",
      .aligned_vector_load = "*((__global const {type}*)({buf}+{idx}))",
      .aligned_vector_store = "*((__global {type}*)({buf}+{idx})) = {val};",
      .local_vector_load = "*((__local {type}*)({buf}+{idx}))",
      .local_vector_store = "*((__local {type}*)({buf}+{idx})) = {val};",
      .local_align = "__attribute__((aligned(16))) ",
      .bitcast = [](DType, DType to, const std::string& x) { return fmt::format("as_{}({})", opencl_type(to), x); },
  };
  if (!native_half) {
    lang.half_storage = "half";
    lang.half_load = "vload_half({1}, {0})";
    lang.half_store = "vstore_half_rte({2}, {1}, {0});";
    lang.half_round = "tr_round_half({})";
    lang.half_from_double = "tr_round_half_d({})";
  }
  return lang;
}

namespace {

const CStyleLanguage& opencl_language_for(bool native_half) {
  static const std::array<CStyleLanguage, 2> langs{opencl_language(false), opencl_language(true)};
  return langs[native_half ? 1 : 0];
}

}  // namespace

RenderedSource render_opencl(const UOpProgram& p) { return render_cstyle(opencl_language_for(true), p); }

std::string render_opencl_for(const UOpProgram& p, bool native_half) { return render_cstyle(opencl_language_for(native_half), p).text; }

}  // namespace tr
