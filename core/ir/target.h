#pragma once
// What the code generator may use on a device and what its hardware is like: the vector instruction
// set, cores and caches of a CPU; the warp, workgroup memory, multiprocessors and matrix units of a
// GPU. devices/ read the facts from the hardware; the default opts and the linearizer read this.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/dtype.h"

namespace tr {

// The widest vector instruction set of a CPU that its compiler may use (isa_compiler_flags).
enum class Isa : uint8_t { None, Sse, Avx2, Avx512, Neon };
std::string_view isa_name(Isa isa);  // "none", "SSE", "AVX2", "AVX-512", "NEON"
std::optional<Isa> parse_isa(std::string_view s);  // the names above, any case; "avx512" too
int isa_float_lanes(Isa isa);        // float32 lanes in one vector register: 4, 8, 16 (1 for none)
int isa_vector_registers(Isa isa);   // architectural vector registers: 16, 32 with AVX-512 or NEON (0 for none)
bool isa_has_fma(Isa isa);           // a fused multiply-add instruction: AVX2 (as x86_isa requires), AVX-512, NEON
bool isa_streams(Isa isa);           // a non-temporal vector store (x86's movntps): SSE, AVX2, AVX-512
// The host compiler's target flags (gcc and clang spell them alike) for exactly this instruction set.
// Not -march=native: that also hands the compiler extensions the project does not know, and gcc 12
// with AVX-512 FP16 emits masked vmovsh moves for half code that binutils 2.40 refuses.
std::string_view isa_compiler_flags(Isa isa);

// The x86 feature bits that decide the instruction set (cpuid); a pure function so it is tested.
struct X86Features {
  bool sse2 = false;
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx512f = false;
  bool avx512vl = false;
  bool avx512bw = false;
  bool avx512dq = false;
};
Isa x86_isa(const X86Features& f);

// Data cache sizes in bytes; 0 where the hardware did not say.
struct CacheSizes {
  int64_t l1d = 0;
  int64_t l2 = 0;
  int64_t l3 = 0;
  int64_t last_level() const { return l3 > 0 ? l3 : l2; }
};

// One shape of a GPU's matrix unit: a warp multiplies an m x k by a k x n tile of `in` and adds into
// an m x n tile of `acc`.
struct MatrixUnit {
  int m = 0;
  int n = 0;
  int k = 0;
  DType in = DType::Float16;
  DType acc = DType::Float32;
  bool operator==(const MatrixUnit&) const = default;
};
std::string matrix_unit_name(const MatrixUnit& u);  // "16x8x16 half->float"
// The half-precision mma.sync shapes of the m16n8 family that an NVIDIA GPU of compute capability
// major.minor has (k 16 from sm_80, k 8 from sm_75; sm_70's 8x8x4 shape spreads its tiles over the
// warp otherwise, and the TC opt does not take it).
std::vector<MatrixUnit> cuda_matrix_units(int major, int minor);
// Apple's simdgroup_matrix (every Apple GPU from the A14 and M1 on): a SIMD group of 32 threads
// multiplies 8x8 tiles; the half one accumulating in float.
std::vector<MatrixUnit> metal_matrix_units();

// The most workgroups on a launch axis where the device sets no limit: the indices are 32-bit.
constexpr int64_t kNoGroupLimit = 2147483647;

struct Target {
  bool gpu = false;           // output dims become SPECIAL global/local ids instead of loops
  int64_t local_memory = 0;   // bytes of workgroup (shared) memory; 0: none, so no LOCAL or GROUP
  int cores = 1;              // CPU: the cores THREAD splits over; GPU: multiprocessors (compute units)
  int max_local = 256;        // GPU: the most threads the default opts put in a workgroup
  // GPU: the most threads a workgroup may have, in all and per launch axis: the device's hard limits,
  // which no opt may pass (BEAM's candidates and `:opt` too; max_local is only the default opts' choice)
  int64_t max_threads = 1024;
  std::array<int64_t, 3> max_threads_per_axis{1024, 1024, 64};
  // GPU: the most workgroups (without local ids: threads) a launch may have per axis; CUDA's grid
  // limits by default. A larger output dim joins the x id (core/codegen/launch_ids.h).
  std::array<int64_t, 3> max_groups{kNoGroupLimit, 65535, 65535};
  int vector_width = 0;       // the widest vector the renderer spells for an upcast dim (0: none)
  bool vector_alu = false;    // vectors support + * max, unary -, exp2 log2 sin sqrt directly (else only loads and stores)
  bool half_arithmetic = true;  // false: half lives only in memory, ops on it run in float (rules_half.cpp)
  // A reduce's sum of products accumulates with MULACC (a fused multiply-add, rounded once): the
  // hardware has the instruction and the renderer spells it (core/codegen/rules_mulacc.cpp).
  bool mulacc = false;
  // a CPU's
  // The device runs every core of a kernel at once with memory they share and a barrier between them
  // (core_locals in core/ir/uops.h), so THREAD may split a reduce; a plug-in that calls the cores one by
  // one does not.
  bool cores_combine = false;
  Isa isa = Isa::None;
  CacheSizes caches{};
  // a GPU's
  int warp_size = 0;                     // threads that run in lockstep (0 on a CPU)
  // A workgroup's threads run at once, on a multiprocessor's lanes; false where a CPU's OpenCL driver
  // (PoCL) runs them one after another as a loop on one core, so that a reduce split over them (GROUP)
  // only adds local memory and barriers (core/opt/NOTES.md, "workgroup").
  bool workgroup_in_parallel = true;
  std::vector<MatrixUnit> matrix_units{};  // empty where the GPU has none

  // float32 lanes of the CPU's vector registers (1 without an instruction set we know); a GPU's 1
  int float_lanes() const { return gpu ? 1 : isa_float_lanes(isa); }
  // Several lines, "  vectors: AVX-512 (16 float32 lanes), ...": what `:device` prints.
  std::string str() const;
};

// A CPU with this instruction set, cores and caches, whose renderer spells vectors as wide as its
// registers and has arithmetic on them (C's vector types).
Target cpu_target(Isa isa, int cores, CacheSizes caches);

}  // namespace tr
