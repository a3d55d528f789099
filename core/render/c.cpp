// C99 for the host compiler: global dims are loops, a THREAD dim is the core_id parameter. A GPU
// kernel's launch ids become parameters too, and its workgroup is one thread: barriers vanish.
#include <fmt/format.h>

#include "core/render/cstyle.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::string c_type(DType t) {
  switch (t) {
    case DType::Bool: return "_Bool";
    case DType::Int8: return "signed char";
    case DType::UInt8: return "unsigned char";
    case DType::Int16: return "short";
    case DType::UInt16: case DType::BFloat16: return "unsigned short";
    case DType::Int32: return "int";
    case DType::UInt32: return "unsigned int";
    case DType::Int64: return "long long";
    case DType::UInt64: return "unsigned long long";
    case DType::Float16: return "_Float16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

// GCC's vector extension: power-of-two widths of the arithmetic types, named like OpenCL's, aligned
// like their element.
std::string c_vector_type(DType t, int n) {
  if (t == DType::Bool || (n & (n - 1)) != 0) return "";
  return fmt::format("{}{}", short_name(t), n);
}

}  // namespace

RenderedSource render_c(const UOpProgram& p) {
  static const CStyleLanguage lang{
      .name = "C",
      .prelude = "#include <math.h>\n",
      .kernel_prefix = "void ",
      .restrict_kw = "restrict",
      // the device's barrier over the cores (devices/shared_object.cpp), a function it passes in
      .core_barrier = "core_sync(core_ctx);",
      .vector_arith = true,
      // GCC's C has no ?: on vectors; this loop compiles to a compare and a masked move
      .vector_max = "{fn}_{type}({a},{b})",
      .vector_max_decl = [](DType t, int n, const std::string& fn, const std::string& takes_b) {
        const std::string v = c_vector_type(t, n);
        return fmt::format("static inline {0} {2}_{0}({0} a, {0} b) {{ {0} r; for (int i = 0; i < {1}; i++) r[i] = {3} ? "
                           "b[i] : a[i]; return r; }}\n", v, n, fn, takes_b);
      },
      // a loop over the lanes, which GCC compiles to one call of glibc's vector function (libmvec:
      // _ZGVeN16v_exp2f for 16 floats with AVX-512), declared so by the simd attribute; sqrt is an
      // instruction and has no such function
      .vector_math = "{fn}_{type}({x})",
      .vector_math_decl = [](const std::string& fn, DType t, int n) {
        const std::string v = c_vector_type(t, n), scalar = t == DType::Float32 ? fn + "f" : fn;
        const std::string simd = fn == "sqrt" ? "" : fmt::format("__attribute__((simd(\"notinbranch\"))) {0} {1}({0});\n", c_type(t), scalar);
        return fmt::format("{}static inline {} {}_{}({} x) {{ {} r; for (int i = 0; i < {}; i++) r[i] = {}(x[i]); return r; }}\n",
                           simd, v, fn, v, v, v, n, scalar);
      },
      .type = c_type,
      .launch_params = [](const UOpProgram& prog) {
        std::vector<std::string> params{"int core_id"};
        for (const UOp& u : prog.uops)
          if (u.kind == UOpKind::Special && u.launch != LaunchKind::Core) params.push_back("int " + uop_name(u));
        const std::vector<UOp> shared = core_locals(prog);
        for (const UOp& u : shared) params.push_back(fmt::format("{}* restrict {}", c_type(u.dtype), uop_name(u)));
        if (!shared.empty()) params.insert(params.end(), {"void (*core_sync)(void*)", "void* core_ctx"});
        return params;
      },
      .special = nullptr,
      .math = [](const std::string& fn, DType t, const std::string& x) {
        if (t == DType::Float64) return fmt::format("{}({})", fn, x);
        if (t == DType::Float32) return fmt::format("{}f({})", fn, x);
        return fmt::format("((_Float16){}f((float){}))", fn, x);
      },
      .vector_type = c_vector_type,
      .vector_decl = [](DType t, int n) {
        const int bytes = n * itemsize(t);
        // aligned() after vector_size(): before it, it applies to the element and the vector keeps its
        // own alignment, so GCC moves it with aligned instructions that fault at other addresses
        return fmt::format("typedef {} {} __attribute__((vector_size({}),aligned({})));\n", c_type(t), c_vector_type(t, n),
                           bytes, itemsize(t));
      },
      .vector_make = [](const std::string& type, const std::vector<std::string>& lanes) {
        return fmt::format("(({}){{{}}})", type, fmt::join(lanes, ","));
      },
      .gep = [](const std::string& x, int lane) { return fmt::format("{}[{}]", x, lane); },
      // GCC (from 12) and clang both have it
      .shuffle = "__builtin_shufflevector({a},{b},{lanes})",
      // the vector types keep their element's alignment, so any element can start one
      .vector_load = "*((const {type}*)({buf}+{idx}))",
      .vector_store = "*(({type}*)({buf}+{idx})) = {val};",
      // x86's non-temporal store (the expand pass streams only there, whole 64-byte lines), which C has
      // no word for: inline assembly that GCC and clang agree on, "v" naming the vector's zmm register.
      // Such stores are weakly ordered: the fence orders them before the core says it is done. A
      // compiler without AVX-512 (TINYREPL_ISA names one this CPU lacks) writes plain stores.
      .streaming_store = "stream_store({type}, {buf}+{idx}, {val});",
      .streaming_prelude = "#ifdef __AVX512F__\n"
                           "#define stream_store(T, p, v) __asm__ volatile(\"vmovntps %1, %0\" : \"=m\"(*(T*)(p)) : \"v\"(v))\n"
                           "#define stream_fence() __asm__ volatile(\"sfence\" ::: \"memory\")\n"
                           "#else\n"
                           "#define stream_store(T, p, v) (*(T*)(p) = (v))\n"
                           "#define stream_fence() ((void)0)\n"
                           "#endif\n",
      .streaming_fence = "stream_fence();",
      // a union compound literal (C99): written as one member, read as the other
      .bitcast = [](DType from, DType to, const std::string& x) {
        return fmt::format("(((union {{{} f; {} t;}}){{{}}}).t)", c_type(from), c_type(to), x);
      },
  };
  return render_cstyle(lang, p);
}

}  // namespace tr
