// CUDA C++ for NVRTC, which has no headers: half is a two-byte struct converted by PTX's cvt (from
// double in one rounding; integers that fit half are exact in float), its + * / round after each
// operation as the hardware's do, its math goes through float, and the vector types CUDA lacks
// (half, bool) are declared with their make_ functions.
#include <fmt/format.h>

#include "core/render/cuda.h"

#include "core/render/render.h"

namespace tr {
namespace {

constexpr const char* kHalf = R"(struct __align__(2) half {
  unsigned short bits;
  half() = default;
  __device__ half(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f)); }
  __device__ half(double d) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d)); }
  template <typename T> __device__ half(T v) : half(static_cast<float>(v)) {}
  __device__ operator float() const { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits)); return f; }
};
__device__ inline half operator+(half a, half b) { return half(float(a) + float(b)); }
__device__ inline half operator*(half a, half b) { return half(float(a) * float(b)); }
__device__ inline half operator/(half a, half b) { return half(float(a) / float(b)); }
__device__ inline half operator-(half a) { return half(-float(a)); }
)";

std::string cuda_type(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: return "signed char";
    case DType::UInt8: return "unsigned char";
    case DType::Int16: return "short";
    case DType::UInt16: case DType::BFloat16: return "unsigned short";
    case DType::Int32: return "int";
    case DType::UInt32: return "unsigned int";
    case DType::Int64: return "long long";
    case DType::UInt64: return "unsigned long long";
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

// CUDA's own vector types (char4 holds signed chars); half and bool vectors are declared here.
bool builtin_vector(DType t) { return t != DType::Float16 && t != DType::Bool; }

std::string cuda_vector_type(DType t, int n) {
  if (n < 2 || n > 4) return "";
  switch (t) {
    case DType::Int8: return fmt::format("char{}", n);
    case DType::Int64: return fmt::format("longlong{}", n);
    case DType::UInt64: return fmt::format("ulonglong{}", n);
    case DType::BFloat16: return fmt::format("ushort{}", n);  // its bits (core/codegen/bfloat16.cpp)
    // the rest are named after the short name: uchar4, int2, float3, and this file's half4 and bool4
    case DType::Bool: case DType::UInt8: case DType::Int16: case DType::UInt16: case DType::Int32: case DType::UInt32:
    case DType::Float16: case DType::Float32: case DType::Float64: break;
  }
  return fmt::format("{}{}", short_name(t), n);
}

std::string cuda_vector_decl(DType t, int n) {
  if (builtin_vector(t)) return "";
  const std::string name = cuda_vector_type(t, n), scalar = cuda_type(t);
  std::vector<std::string> fields, params, sets;
  for (int l = 0; l < n; l++) {
    fields.push_back(std::string(1, xyzw(l)));
    params.push_back(fmt::format("{} {}", scalar, xyzw(l)));
    sets.push_back(fmt::format("r.{0} = {0};", xyzw(l)));
  }
  const int bytes = n * itemsize(t);
  return fmt::format("struct __align__({}) {} {{ {} {}; }};\n__device__ inline {} make_{}({}) {{ {} r; {} return r; }}\n",
                     (bytes & (bytes - 1)) == 0 ? bytes : itemsize(t), name, scalar, fmt::join(fields, ", "), name, name,
                     fmt::join(params, ", "), name, fmt::join(sets, " "));
}

// One mma.sync of the m16n8 family in inline PTX: each pair of a thread's 16-bit elements is one 32-bit
// register, the lower element in the lower bits. bfloat16 elements arrive as their bits
// (core/codegen/bfloat16.cpp), half ones as this file's struct.
std::string mma_sync_decl(const MatrixUnit& m, const std::string& fn) {
  const int a = m.m * m.k / 32, b = m.k * m.n / 32, c = m.m * m.n / 32;
  const bool half = m.in == DType::Float16;
  const std::string in = cuda_type(m.in), bits = half ? ".bits" : "";
  std::vector<std::string> params, regs, outs, pairs;
  for (int i = 0; i < a; i++) params.push_back(fmt::format("{} a{}", in, i));
  for (int i = 0; i < b; i++) params.push_back(fmt::format("{} b{}", in, i));
  int at = c;
  const auto group = [&](int count) {
    std::vector<std::string> r;
    for (int i = 0; i < count; i++) r.push_back(fmt::format("%{}", at++));
    return fmt::format("{{{}}}", fmt::join(r, ", "));
  };
  for (int i = 0; i < c; i++) {
    regs.push_back(fmt::format("%{}", i));
    outs.push_back(fmt::format("\"+f\"(c.{})", xyzw(i)));
  }
  const std::string a_regs = group(a / 2), b_regs = group(b / 2);
  for (const auto& [x, count] : {std::pair{'a', a}, std::pair{'b', b}})
    for (int i = 0; i < count; i += 2)
      pairs.push_back(fmt::format("\"r\"({0}{1}{3} | (unsigned){0}{2}{3} << 16)", x, i, i + 1, bits));
  const std::string acc = cuda_vector_type(m.acc, c);
  return fmt::format("__device__ inline {0} {1}({2}, {0} c) {{\n"
                     "  asm(\"mma.sync.aligned.m{3}n{4}k{5}.row.col.f32.{11}.{11}.f32 {{{6}}}, {7}, {8}, {{{6}}};\"\n"
                     "      : {9}\n      : {10});\n  return c;\n}}\n",
                     acc, fn, fmt::join(params, ", "), m.m, m.n, m.k, fmt::join(regs, ", "), a_regs, b_regs,
                     fmt::join(outs, ", "), fmt::join(pairs, ", "), half ? "f16" : "bf16");
}

}  // namespace

const CStyleLanguage& cuda_language() {
  static const CStyleLanguage lang{
      .name = "CUDA",
      .prelude = "#define INFINITY (__int_as_float(0x7f800000))\n#define NAN (__int_as_float(0x7fffffff))\n",
      .half_prelude = kHalf,
      .kernel_prefix = "extern \"C\" __global__ void ",
      .local_decl = "__shared__ ",
      .restrict_kw = "__restrict__",
      .barrier = "__syncthreads();",
      .type = cuda_type,
      .special = [](const UOp& u, const UOpProgram& p) {
        const char a = xyzw(u.axis);
        if (is_local_id(u)) return fmt::format("threadIdx.{}", a);
        if (has_local_ids(p.uops) && u.launch == LaunchKind::Global) return fmt::format("blockIdx.{}", a);
        return fmt::format("(blockIdx.{0}*blockDim.{0}+threadIdx.{0})", a);
      },
      .math = [](const std::string& fn, DType t, const std::string& x) {
        if (t == DType::Float64) return fmt::format("{}({})", fn, x);
        if (t == DType::Float32) return fmt::format("{}f({})", fn, x);
        return fmt::format("((half){}f((float){}))", fn, x);
      },
      .vector_type = cuda_vector_type,
      .vector_decl = cuda_vector_decl,
      .vector_make = [](const std::string& type, const std::vector<std::string>& lanes) {
        return fmt::format("make_{}({})", type, fmt::join(lanes, ","));
      },
      .gep = [](const std::string& x, int lane) { return fmt::format("{}.{}", x, xyzw(lane)); },
      // a vector type is aligned to its size (half's are declared so): only aligned indices move whole
      .aligned_vector_load = "*((const {type}*)({buf}+{idx}))",
      .aligned_vector_store = "*(({type}*)({buf}+{idx})) = {val};",
      .local_vector_load = "*((const {type}*)({buf}+{idx}))",
      .local_vector_store = "*(({type}*)({buf}+{idx})) = {val};",
      .local_align = "__align__(16) ",
      // CUDA's intrinsics between a float and the integer of its size; the integer then converts
      // to the one asked for, keeping its bits
      .bitcast = [](DType from, DType to, const std::string& x) {
        const bool wide = itemsize(from) == 8;
        if (is_float(from))
          return fmt::format("(({}){}({}))", cuda_type(to), wide ? "__double_as_longlong" : "__float_as_int", x);
        return fmt::format("{}(({}){})", wide ? "__longlong_as_double" : "__int_as_float", wide ? "long long" : "int", x);
      },
      .wmma_decl = mma_sync_decl,
  };
  return lang;
}

RenderedSource render_cuda(const UOpProgram& p) { return render_cstyle(cuda_language(), p); }

}  // namespace tr
