#include "repl/host_array.h"

#include "core/tensor/tensor.h"

namespace tr::repl {

HostArray fetch(const Tensor& t) {
  const HostData data = t.data();
  HostArray out{t.dtype(), t.shape(), {}};
  out.values.reserve(static_cast<size_t>(data.size()));
  for (int64_t i = 0; i < data.size(); i++) out.values.push_back(data.get(i));
  return out;
}

}  // namespace tr::repl
