#pragma once
// A tensor's values copied to the host, one ConstValue per element in row-major order: what printing,
// tolist() and --json read.
#include <vector>

#include "core/ir/dtype.h"
#include "core/shape/shape_tracker.h"

namespace tr {
class Tensor;
}

namespace tr::repl {

struct HostArray {
  DType dtype = DType::Float32;
  Shape shape;
  std::vector<ConstValue> values;
};

// Realizes t (if it is not yet) and copies its values out.
HostArray fetch(const Tensor& t);

}  // namespace tr::repl
