// interpolate as tinygrad 0.14 builds it: for each resized dim, the source positions as integer
// index arithmetic on an arange, the rows they pick as a one-hot compare summed away, and (linear) a
// lerp between the two neighbours. No new primitive, so it fuses and has gradients.
#include <algorithm>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {
namespace {

// x's values at `index` along dim d; index has x's shape except along d (tinygrad's gather, for an
// index that is already the full shape).
Tensor take_along(const Tensor& x, int d, const Tensor& index) {
  const int64_t n = x.shape()[static_cast<size_t>(d)];
  const Tensor hot = index.unsqueeze(-1).eq(Tensor::arange(int64_t{0}, n, int64_t{1}, index.dtype(), x.device()));
  const Tensor rows = x.unsqueeze(-1).transpose(-1, d);
  return hot.where(rows, Tensor::scalar_like(rows, int64_t{0})).sum(std::vector<int>{-1}).cast(x.dtype());
}

}  // namespace

Tensor Tensor::interpolate(const Ints& size, Interpolation mode, bool align_corners) const {
  if (size.empty() || static_cast<int>(size.size()) > ndim())
    fail("value", "interpolate needs 1 to {} sizes for shape {}, got {}", ndim(), shape_str(shape()), size.size());
  for (const int64_t s : size)
    if (s <= 0) fail("value", "interpolate sizes must be positive, got {}", s);
  if (align_corners && mode != Interpolation::Linear)
    fail("value", "align_corners can only be set with the interpolating mode linear");
  Tensor x = *this;
  Shape expand = shape();
  const int nd = ndim();
  for (int i = -1; i >= -static_cast<int>(size.size()); i--) {
    const int d = nd + i;
    const int64_t in = shape()[static_cast<size_t>(d)], out = size[size.size() + static_cast<size_t>(i)];
    Shape reshape(static_cast<size_t>(nd), 1);
    reshape[static_cast<size_t>(d)] = expand[static_cast<size_t>(d)] = out;
    const auto spread = [&](const Tensor& t) { return t.reshape(reshape).expand(expand); };
    if (mode == Interpolation::Linear) {
      const Tensor arr = arange(int64_t{0}, out, int64_t{1}, DType::Int32, device());
      // source position num/den, in integers so that the neighbours are exact
      const int64_t den = align_corners ? std::max<int64_t>(out - 1, 0) : 2 * out;
      Tensor num = align_corners ? arr.mul(scalar_like(arr, in - 1))
                                 : arr.mul(scalar_like(arr, int64_t{2})).add(scalar_like(arr, int64_t{1}))
                                       .mul(scalar_like(arr, in)).sub(scalar_like(arr, out));
      if (den == 0) {  // align_corners with one output: tinygrad divides 0 by 0; the first element is what torch gives
        x = take_along(x, d, spread(arr.zeros_like()));
        continue;
      }
      num = num.maximum(scalar_like(num, int64_t{0})).minimum(scalar_like(num, (in - 1) * den));
      const Tensor dn = scalar_like(num, den);
      const Tensor low = spread(num.floordiv(dn));
      const Tensor high = spread(num.add(scalar_like(num, den - 1)).floordiv(dn));
      const Tensor perc = spread(num.mod(dn).cast(DType::Float32).div(scalar_like(num, den).cast(DType::Float32)));
      x = take_along(x, d, low).lerp(take_along(x, d, high), perc);
    } else {
      const double scale = static_cast<double>(in) / static_cast<double>(out);
      const Tensor arr = arange(int64_t{0}, out, int64_t{1}, DType::Float32, device());
      const Tensor pos = mode == Interpolation::NearestExact ? arr.add(scalar_like(arr, 0.5)).mul(scalar_like(arr, scale))
                                                             : arr.mul(scalar_like(arr, scale));
      x = take_along(x, d, spread(pos.cast(DType::Int32)));
    }
  }
  return x.cast(dtype());
}

}  // namespace tr
