// HIP, CUDA's language on AMD GPUs, written as CUDA's source is (threadIdx, __syncthreads, make_float4,
// __float_as_int), after `#include <hip/hip_runtime.h>`. What differs is the half type: AMD GPUs have
// half arithmetic, HIP's `half` is the compiler's _Float16, so CUDA's half struct (converted by PTX) is
// not declared. devices/shims/hip/hip/hip_runtime.h stands in for ROCm's header where ROCm is not installed.
#include "core/render/cuda.h"
#include "core/render/render.h"

namespace tr {

RenderedSource render_hip(const UOpProgram& p) {
  static const CStyleLanguage lang = [] {
    CStyleLanguage l = cuda_language();
    l.name = "HIP";
    l.prelude = "#include <hip/hip_runtime.h>\n" + l.prelude;
    l.half_prelude.clear();
    return l;
  }();
  return render_cstyle(lang, p);
}

}  // namespace tr
