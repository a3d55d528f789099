#include "core/tensor/div_rounding.h"

#include "core/lazy/lazy.h"
#include "core/tensor/multi.h"

namespace tr {

Tensor div(const Tensor& x, const Tensor& y, Rounding rounding) {
  const auto [a, b] = Tensor::broadcasted(x, y);
  if (is_int(a.dtype()) && is_int(b.dtype())) {
    switch (rounding) {
      case Rounding::Trunc: {
        require_same_device(a, b);
        if (const auto m = on_each_device({a, b}, [](const std::vector<Tensor>& s) { return div(s[0], s[1], Rounding::Trunc); }))
          return *m;
        return Tensor(make_node(Op::IDiv, a.dtype(), a.shape(), a.device(), {a.node(), b.node()}));
      }
      case Rounding::Floor: return a.floordiv(b);
      case Rounding::None: break;
    }
  }
  const Tensor q = a.div(b);
  switch (rounding) {
    case Rounding::Trunc: return q.trunc();
    case Rounding::Floor: return q.floor();
    case Rounding::None: break;
  }
  return q;
}

}  // namespace tr
