#pragma once
// CUDA C++'s spellings, which HIP's renderer starts from (HIP is CUDA's language on AMD GPUs).
#include "core/render/cstyle.h"

namespace tr {

const CStyleLanguage& cuda_language();

}  // namespace tr
