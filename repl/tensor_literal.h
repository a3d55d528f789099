#pragma once
// tensor(data): a number or nested lists of numbers made into a tensor, with tinygrad's inference of
// the dtype (bool when all are bool, int32 when all are ints, else float32).
#include <optional>
#include <string>

#include "core/tensor/tensor.h"
#include "repl/arguments.h"

namespace tr::repl {

// Throws SourceError at data's span when the lists are ragged or hold something other than numbers.
Tensor tensor_from_data(const Arg& data, std::optional<DType> dtype, const std::string& device);

}  // namespace tr::repl
