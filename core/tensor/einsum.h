#pragma once
// Einstein summation over a formula such as "ij,jk->ik", "bij,bjk", "ii->i" or "...ij,...jk".
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace tr {

Tensor einsum(const std::string& formula, const std::vector<Tensor>& operands);

}  // namespace tr
