#include "core/ir/target.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace tr {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::None: return "none";
    case Isa::Sse: return "SSE";
    case Isa::Avx2: return "AVX2";
    case Isa::Avx512: return "AVX-512";
    case Isa::Neon: return "NEON";
  }
  return "?";
}

std::optional<Isa> parse_isa(std::string_view s) {
  std::string lower;
  for (const char c : s)
    if (c != '-') lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const Isa isa : {Isa::None, Isa::Sse, Isa::Avx2, Isa::Avx512, Isa::Neon}) {
    std::string name;
    for (const char c : isa_name(isa))
      if (c != '-') name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == lower) return isa;
  }
  return std::nullopt;
}

int isa_float_lanes(Isa isa) {
  switch (isa) {
    case Isa::None: return 1;
    case Isa::Sse: return 4;
    case Isa::Avx2: return 8;
    case Isa::Avx512: return 16;
    case Isa::Neon: return 4;
  }
  return 1;
}

int isa_vector_registers(Isa isa) {
  switch (isa) {
    case Isa::None: return 0;
    case Isa::Sse: return 16;
    case Isa::Avx2: return 16;
    case Isa::Avx512: return 32;
    case Isa::Neon: return 32;
  }
  return 0;
}

bool isa_has_fma(Isa isa) { return isa == Isa::Avx2 || isa == Isa::Avx512 || isa == Isa::Neon; }

bool isa_streams(Isa isa) { return isa == Isa::Sse || isa == Isa::Avx2 || isa == Isa::Avx512; }

std::string_view isa_compiler_flags(Isa isa) {
  switch (isa) {
    case Isa::None: return "";
    case Isa::Sse: return "-msse2";
    case Isa::Avx2: return "-mavx2 -mfma -mf16c";
    case Isa::Avx512: return "-mavx2 -mfma -mf16c -mavx512f -mavx512vl -mavx512bw -mavx512dq";
    case Isa::Neon: return "";  // aarch64's baseline
  }
  return "";
}

Isa x86_isa(const X86Features& f) {
  // AVX2 without FMA or F16C (half <-> float) exists on no shipping CPU, but the kernels lean on all three
  const bool avx2 = f.avx2 && f.fma && f.f16c;
  // the compiler uses VL's 32 registers for narrower vectors too; Xeon Phi, without VL, BW and DQ, is an AVX2 CPU here
  if (avx2 && f.avx512f && f.avx512vl && f.avx512bw && f.avx512dq) return Isa::Avx512;
  if (avx2) return Isa::Avx2;
  if (f.sse2) return Isa::Sse;
  return Isa::None;
}

std::vector<MatrixUnit> cuda_matrix_units(int major, int minor) {
  const int sm = major * 10 + minor;
  if (sm >= 80)
    return {{16, 8, 16, DType::Float16, DType::Float32}, {16, 8, 8, DType::Float16, DType::Float32},
            {16, 8, 16, DType::BFloat16, DType::Float32}};
  if (sm >= 75) return {{16, 8, 8, DType::Float16, DType::Float32}};
  return {};
}

std::vector<MatrixUnit> metal_matrix_units() { return {{8, 8, 8, DType::Float16, DType::Float32}}; }

std::string matrix_unit_name(const MatrixUnit& u) {
  return fmt::format("{}x{}x{} {}->{}", u.m, u.n, u.k, short_name(u.in), short_name(u.acc));
}

Target cpu_target(Isa isa, int cores, CacheSizes caches) {
  const int lanes = isa_float_lanes(isa);
  return Target{.gpu = false, .local_memory = 0, .cores = std::max(1, cores), .vector_width = lanes > 1 ? lanes : 0,
                .vector_alu = true, .mulacc = isa_has_fma(isa), .cores_combine = true, .isa = isa, .caches = caches};
}

namespace {

std::string bytes_str(int64_t b) {
  if (b <= 0) return "unknown";
  if (b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b % (1 << 10) == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

}  // namespace

std::string Target::str() const {
  const std::string vectors =
      vector_width > 1 ? fmt::format("up to {} lanes{}", vector_width, vector_alu ? " with vector arithmetic" : "")
                       : std::string("none");
  if (!gpu)
    return fmt::format("  instruction set: {} ({} float32 lanes)\n  cores: {}\n  caches: L1d {}, L2 {}, L3 {}\n"
                       "  vectors the renderer spells: {}\n",
                       isa_name(isa), isa_float_lanes(isa), cores, bytes_str(caches.l1d), bytes_str(caches.l2),
                       bytes_str(caches.l3), vectors);
  std::vector<std::string> units;
  for (const MatrixUnit& u : matrix_units)
    units.push_back(matrix_unit_name(u));
  const std::string warp = warp_size > 0 ? fmt::format("{} threads", warp_size) : std::string("unknown");
  return fmt::format("  warp: {}\n  workgroups: up to {} threads{}, {} of local memory\n  multiprocessors: {}\n"
                     "  matrix units: {}\n  vectors the renderer spells: {}\n  half: {}\n",
                     warp, max_local, workgroup_in_parallel ? "" : " run one after another", bytes_str(local_memory), cores,
                     units.empty() ? std::string("none") : fmt::format("{}", fmt::join(units, ", ")), vectors,
                     half_arithmetic ? "in registers" : "in memory only, computed in float");
}

}  // namespace tr
