// Output element k of a selection is the element after the first k selected ones: its position is
// the number of positions whose running count of selected elements is at most k (one compare and
// sum over (length, n)), and a gather reads it.
#include "core/tensor/select.h"

#include "core/base/error.h"
#include "core/jit/jit.h"
#include "core/tensor/index.h"
#include "core/tensor/layout.h"
#include "core/tensor/scan.h"

namespace tr {
namespace {

Tensor positions(const Tensor& selected, int64_t length) {
  const Tensor running = cumsum(selected.cast(DType::Int32)).unsqueeze(0);
  const Tensor k = Tensor::arange(int64_t{0}, length, int64_t{1}, DType::Int32, selected.device()).unsqueeze(1);
  return running.le(k).cast(DType::Int32).sum(std::vector<int>{1});
}

// The number of selected elements, read back from the device: the one step that is not lazy. A @jit
// capture records kernels, not this read, so a replay would keep the captured length: refused there.
int64_t read_count(const Tensor& count, std::string_view what) {
  if (jit_capturing())
    fail("jit", "{} without size= reads its length back from the device, which a @jit replay cannot redo; pass size=", what);
  return as_int(count.item());
}

// The elements of the 1-dim flat where the 1-dim bool selected holds; `what` names the caller in errors.
Tensor select(const Tensor& flat, const Tensor& selected, std::optional<int64_t> size, ConstValue fill_value,
              std::string_view what) {
  if (!size) {
    const int64_t count = flat.numel() == 0 ? 0 : read_count(selected.sum(), what);
    if (count == 0) return Tensor::zeros({0}, flat.dtype(), flat.device());
    return gather(flat, 0, positions(selected, count));
  }
  const Tensor fill = Tensor::full({}, fill_value, flat.dtype(), flat.device());
  if (flat.numel() == 0 || *size == 0) return fill.reshape({1}).expand({*size});
  const Tensor k = Tensor::arange(int64_t{0}, *size, int64_t{1}, DType::Int32, flat.device());
  // positions past the last selected element are n, out of range: the gather gives 0 there and the fill replaces it
  return k.lt(selected.cast(DType::Int32).sum()).where(gather(flat, 0, positions(selected, *size)), fill);
}

}  // namespace

Tensor masked_select(const Tensor& x, const Tensor& mask, std::optional<int64_t> size, ConstValue fill_value) {
  if (mask.dtype() != DType::Bool) fail("type", "masked_select expects a bool mask, got {}", name(mask.dtype()));
  if (size && *size < 0) fail("value", "masked_select's size must be >= 0, got {}", *size);
  require_same_device(x, mask);
  return select(x.flatten(), mask.broadcast_to(x.shape()).flatten(), size, fill_value, "masked_select");
}

Tensor nonzero(const Tensor& x, std::optional<int64_t> size, ConstValue fill_value) {
  if (size && *size < 0) fail("value", "nonzero's size must be >= 0, got {}", *size);
  const Tensor nz = x.ne(Tensor::scalar_like(x, int64_t{0}));
  if (x.ndim() == 0) {
    const int64_t rows = size ? *size : read_count(nz.cast(DType::Int32), "nonzero");
    return Tensor::zeros({rows, 0}, DType::Int32, x.device());
  }
  // every element's coordinates, (n, ndim), selected row by row
  std::vector<Tensor> coords;
  const int nd = x.ndim();
  for (int d = 0; d < nd; d++) {
    Shape along(static_cast<size_t>(nd), 1);
    along[static_cast<size_t>(d)] = x.shape()[static_cast<size_t>(d)];
    const Tensor i = Tensor::arange(int64_t{0}, x.shape()[static_cast<size_t>(d)], int64_t{1}, DType::Int32, x.device());
    coords.push_back(i.reshape(along).expand(x.shape()).flatten());
  }
  const Tensor all = stack(coords, -1);
  const Tensor rows = nz.flatten().unsqueeze(-1).expand({x.numel(), nd});
  const Tensor picked = select(all.flatten(), rows.flatten(), size ? std::optional<int64_t>(*size * nd) : std::nullopt,
                               fill_value, "nonzero");
  return picked.reshape({picked.numel() / nd, nd});
}

}  // namespace tr
