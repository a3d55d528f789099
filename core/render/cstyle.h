#pragma once
// The rendering every C-like language shares; each language is a small table of its spellings.
#include <functional>
#include <string>
#include <vector>

#include "core/ir/uops.h"
#include "core/render/source_lines.h"

namespace tr {

struct CStyleLanguage {
  std::string name{};            // "OpenCL": named in errors
  std::string prelude{};         // text before the kernel: includes, helpers
  std::string half_prelude{};    // added when a float16 value appears
  std::string double_prelude{};  // added when a float64 value appears
  std::string kernel_prefix{};   // "void ", "__kernel void ", ...
  // Attributes before kernel_prefix that depend on the kernel (WGSL's workgroup size); null: none.
  std::function<std::string(const UOpProgram&)> kernel_attributes{};
  // Declarations at module scope, after the preludes: where buffers and Variables are bindings
  // rather than parameters (WGSL), and then no DefineGlobal or DefineVar is a parameter. Null: none.
  std::function<std::string(const UOpProgram&)> module_decls{};
  // A Variable's value where module_decls binds it: a statement naming it; {0} its name, {1} its
  // position among the Variables.
  std::string var_value{};
  std::string global_space{};    // address space of a buffer: "", "__global ", "device "
  std::string local_decl{};      // declares workgroup memory: "", "__local ", "__shared__ ", "threadgroup "
  // Where workgroup memory is declared at module scope instead (WGSL): {name}, {type}, {size}.
  std::string module_local_decl{};
  // A named value: {type} {name} {value}; a statement ending in ';' that a for loop's head also reads.
  std::string declare = "{type} {name} = {value};";
  // Picks t where c holds, else f: {c} {t} {f}.
  std::string ternary = "({c}?{t}:{f})";
  // Where a gated load reads its buffer whatever the gate (the ternary evaluates both sides), the
  // index it reads at: {idx} {gate}; empty: idx. WGSL refuses a constant index out of range.
  std::string gated_index{};
  std::string bool_false = "0", bool_true = "1";
  std::string infinity = "INFINITY", nan = "NAN";
  std::string restrict_kw{};     // "restrict", "__restrict__", ""
  std::string buffer_attr{};     // after a buffer parameter; {} is the buffer's index: " [[buffer({})]]"
  // A Variable's parameter: {0} its name, {1} its position among all parameters (buffers first).
  std::string var_param = "const int {0}";
  std::string barrier{};         // the statement that waits for the workgroup; "" where a workgroup is one thread
  // The statement that waits for every core of a CPU kernel whose cores split a reduce (core_locals(p)
  // are then parameters that launch_params declares); "" where render() refuses such kernels.
  std::string core_barrier{};
  std::string int64_suffix = "ll";
  std::string uint64_suffix = "ull";
  bool vector_arith = false;   // + * and unary - work lane by lane on the vector types
  // MAX (or MAX_NAN) of two whole vectors, {takes_b} ? {b} : {a} in each lane ({type}: the vector
  // type; {fn}: max or max_nan); empty where it goes lane by lane. vector_max_decl: what a kernel declares
  // before using it for one type, given the function's name and its condition on lanes a[i] and b[i].
  std::string vector_max{};
  std::function<std::string(DType, int n, const std::string& fn, const std::string& takes_b)> vector_max_decl{};
  // exp2, log2, sin or sqrt ({fn}) of a whole vector {x} of {type}; empty where they go lane by lane.
  // vector_math_decl: what a kernel declares before using one for one type.
  std::string vector_math{};
  std::function<std::string(const std::string& fn, DType, int n)> vector_math_decl{};
  std::function<std::string(DType)> type{};  // a scalar type's name
  // Parameters after the buffers: the CPU's core_id, Metal's attributed launch ids.
  std::function<std::vector<std::string>(const UOpProgram&)> launch_params{};
  // The expression of a SPECIAL of the kernel p (has_local_ids(p.uops): it has workgroup dims). Null: every
  // SPECIAL is a parameter that launch_params declares.
  std::function<std::string(const UOp&, const UOpProgram& p)> special{};
  std::function<std::string(const std::string& fn, DType, const std::string& x)> math{};  // exp2 log2 sin sqrt trunc
  // The name of an n-wide vector of t; "" when the language has no such vector.
  std::function<std::string(DType, int n)> vector_type{};
  // What the kernel must declare before using that vector type; "" when it is built in.
  std::function<std::string(DType, int n)> vector_decl{};
  std::function<std::string(const std::string& type, const std::vector<std::string>& lanes)> vector_make{};
  std::function<std::string(const std::string& x, int lane)> gep{};
  // A Shuffle of vectors {a} and {b}: {lanes} the lanes it takes, comma separated. Empty: the
  // vector is made lane by lane from gep.
  std::string shuffle{};
  // A whole vector read from (written to) a buffer at any element, aligned to the vector or not:
  // {type} the vector type, {n} its width, {buf}, {idx}, and {val} the value stored. Where empty, and
  // the aligned form below does not apply, vectors move lane by lane.
  std::string vector_load{};
  std::string vector_store{};
  // A whole vector at an aligned address (a plain dereference: one wide access on a GPU). Used where
  // the index is a provable multiple of the width, since buffers start aligned; the only whole-vector
  // access of a language whose vectors must be aligned (CUDA).
  std::string aligned_vector_load{};
  std::string aligned_vector_store{};
  // A Store that streams (core/ir/uops.h), of a whole vector at an index that is a provable multiple of
  // its width ({type} {n} {buf} {idx} {val}); what a kernel with such stores declares first; and the
  // statement that ends it, so that they reach memory before whoever waits for the kernel reads it.
  // Empty streaming_store: a plain store.
  std::string streaming_store{};
  std::string streaming_prelude{};
  std::string streaming_fence{};
  // A whole vector in workgroup memory at an index that is a provable multiple of its width ({type},
  // {n}, {buf}, {idx}, {val}); local_align, after local_decl, aligns every workgroup array for them.
  // Empty: workgroup memory moves lane by lane.
  std::string local_vector_load{};
  std::string local_vector_store{};
  std::string local_align{};
  // Half kept in float registers, with half only in memory (OpenCL without cl_khr_fp16). When
  // half_storage is set, buffers of float16 hold it; half_load reads element {1} of buffer {0},
  // half_store writes {2} there, half_round rounds a float to half precision (a cast to half), and
  // half_from_double rounds a double to half precision in one step.
  std::string half_storage{};
  std::string half_load{};
  std::string half_store{};
  std::string half_round{};
  std::string half_from_double{};
  // The same bits as another dtype of the same item size: BITCAST from `from` to `to` of x.
  std::function<std::string(DType from, DType to, const std::string& x)> bitcast{};
  // A conversion of x from one dtype to another, also what wraps a small integer back into its range
  // (from == to); null: C's cast, float to integer through int64 so it truncates and wraps like the
  // reference.
  std::function<std::string(DType from, DType to, const std::string& x)> cast{};
  // Buffers whose elements the language cannot address one by one (WGSL has no storage type under
  // 32 bits): packed(t) says which; packed_load reads element {idx} of {buf}, packed_store writes
  // {val} there, given the buffer's DefineGlobal (its dtype, whether the kernel writes it).
  std::function<bool(DType)> packed{};
  std::function<std::string(const UOp& buf, const std::string& name, const std::string& idx)> packed_load{};
  std::function<std::string(const UOp& buf, const std::string& name, const std::string& idx, const std::string& val)>
      packed_store{};
  // Buffers taken as images where image_buffers() allows (OpenCL's image variant, tinygrad's IMAGE=2):
  // image_param declares one ({name}, {access}: read_only or write_only), image_load reads the 4-vector
  // at element {idx} of {buf}, image_store writes {val} there; image_prelude comes first when a kernel
  // has one. Empty image_load: no images.
  std::string image_param{};
  std::string image_load{};
  std::string image_store{};
  std::string image_prelude{};
  // One step of a matrix unit (WMMA): the function that wmma_decl declares under the name `fn`, called
  // with this thread's elements of A, then of B (scalars, in the order of core/codegen/tensor_cores.h),
  // then the accumulator, and returning the new accumulator. Null: the language has no matrix units.
  std::function<std::string(const MatrixUnit&, const std::string& fn)> wmma_decl{};
};

// Per buffer of p (by DefineGlobal .buffer): whether it can be an image of float32 texels of four
// lanes. It is float32, read or written but not both, and every access is a whole, ungated 4-vector
// at an element index that is a provable multiple of 4.
std::vector<bool> image_buffers(const UOpProgram& p);

// Throws tr::Error("type") when the kernel needs a type the language lacks.
RenderedSource render_cstyle(const CStyleLanguage& lang, const UOpProgram& program);
// The literal of a constant of dtype t, e.g. "1.5f", "-INFINITY", "3", "((half)1.0f)".
std::string cstyle_literal(const CStyleLanguage& lang, const ConstValue& v, DType t);
// A launch axis or a lane up to 4 as a member name: 0 -> 'x', 3 -> 'w'.
char xyzw(int i);

}  // namespace tr
