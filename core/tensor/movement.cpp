// Movement ops: each one a new ShapeTracker over the same data, never a copy.
#include <algorithm>

#include "core/base/error.h"
#include "core/tensor/tensor.h"
#include "core/tensor/dims.h"
#include "core/tensor/multi.h"

namespace tr {

Tensor Tensor::reshape(const std::vector<int64_t>& new_shape) const {
  Shape out = new_shape;
  const auto infer = std::count(out.begin(), out.end(), -1);
  if (infer > 1) fail("shape", "only one dimension can be -1 in reshape {}", shape_str(new_shape));
  for (int64_t s : out)
    if (s < -1) fail("shape", "negative dimension in reshape {}", shape_str(new_shape));
  if (infer == 1) {
    int64_t known = 1;
    for (int64_t s : out)
      if (s != -1) known *= s;
    if (known == 0 || numel() % known != 0)
      fail("shape", "cannot reshape {} to {}", shape_str(shape()), shape_str(new_shape));
    *std::find(out.begin(), out.end(), -1) = numel() / known;
  }
  if (tr::prod(out) != numel()) fail("shape", "cannot reshape {} to {}", shape_str(shape()), shape_str(new_shape));
  if (out == shape()) return *this;
  if (is_multi()) return multi_reshape(*this, out);
  return move(tracker().reshape(out));
}

Tensor Tensor::permute(const std::vector<int>& order) const {
  std::vector<int> resolved;
  for (int d : order) resolved.push_back(resolve_dim(d, ndim()));
  std::vector<int> sorted = resolved;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < static_cast<int>(sorted.size()); i++)
    if (sorted[i] != i || static_cast<int>(sorted.size()) != ndim())
      fail("shape", "permute order must name each of the {} dims once", ndim());
  if (is_multi()) return multi_permute(*this, resolved);
  return move(tracker().permute(resolved));
}

Tensor Tensor::expand(const std::vector<int64_t>& new_shape) const {
  if (new_shape.size() < shape().size())
    fail("shape", "cannot expand {} to {}", shape_str(shape()), shape_str(new_shape));
  Shape full(new_shape.size() - shape().size(), 1);
  full.insert(full.end(), shape().begin(), shape().end());
  Shape out = new_shape;
  for (size_t i = 0; i < out.size(); i++) {
    if (out[i] == -1) out[i] = full[i];
    if (full[i] != out[i] && full[i] != 1) fail("shape", "cannot expand {} to {}", shape_str(shape()), shape_str(new_shape));
  }
  const Tensor x = full == shape() ? *this : reshape(full);
  if (out == full) return x;
  if (x.is_multi()) return multi_expand(x, out);
  return x.move(x.tracker().expand(out));
}

Tensor Tensor::pad(const std::vector<Range>& padding, ConstValue value) const {
  if (static_cast<int>(padding.size()) != ndim())
    fail("shape", "pad needs (before, after) for each of the {} dims, got {}", ndim(), padding.size());
  // negative padding removes elements, as in tinygrad: shrink first, then pad what is left
  std::vector<std::optional<Range>> cut;
  std::vector<Range> grow;
  for (int i = 0; i < ndim(); i++) {
    const auto [b, a] = padding[i];
    cut.push_back(Range{std::max<int64_t>(0, -b), shape()[i] - std::max<int64_t>(0, -a)});
    grow.push_back({std::max<int64_t>(0, b), std::max<int64_t>(0, a)});
  }
  const Tensor x = shrink(cut);
  const Tensor padded = x.is_multi() ? multi_pad(x, grow) : x.move(x.tracker().pad(grow));
  if (as_double(value) == 0) return padded;
  const Tensor inside = full(x.shape(), true, DType::Bool, device()).pad(grow);
  return inside.where(padded, scalar_like(padded, value));
}

Tensor Tensor::shrink(const std::vector<std::optional<Range>>& bounds) const {
  if (static_cast<int>(bounds.size()) != ndim())
    fail("shape", "shrink needs a range for each of the {} dims, got {}", ndim(), bounds.size());
  std::vector<Range> r;
  for (int i = 0; i < ndim(); i++) r.push_back(bounds[i].value_or(Range{0, shape()[i]}));
  bool whole = true;
  for (int i = 0; i < ndim(); i++) whole = whole && r[i] == Range{0, shape()[i]};
  if (whole) return *this;
  if (is_multi()) return multi_shrink(*this, r);
  return move(tracker().shrink(r));
}

Tensor Tensor::flip(const std::vector<int>& axes) const {
  std::vector<bool> dims(ndim(), false);
  for (int a : axes) {
    const int d = resolve_dim(a, ndim());
    if (dims[d]) fail("index", "dim {} appears more than once in flip", a);
    dims[d] = true;
  }
  if (is_multi()) return multi_flip(*this, dims);
  return move(tracker().flip(dims));
}

Tensor Tensor::transpose(int a, int b) const {
  std::vector<int> order;
  for (int i = 0; i < ndim(); i++) order.push_back(i);
  std::swap(order[resolve_dim(a, ndim())], order[resolve_dim(b, ndim())]);
  return permute(order);
}

Tensor Tensor::T() const { return ndim() < 2 ? *this : transpose(1, 0); }

Tensor Tensor::flatten(int start_dim, int end_dim) const {
  if (ndim() == 0) return reshape({1});
  const int s = resolve_dim(start_dim, ndim()), e = resolve_dim(end_dim, ndim());
  if (s > e) fail("index", "flatten start_dim {} is after end_dim {}", start_dim, end_dim);
  Shape out(shape().begin(), shape().begin() + s);
  out.push_back(tr::prod(Shape(shape().begin() + s, shape().begin() + e + 1)));
  out.insert(out.end(), shape().begin() + e + 1, shape().end());
  return reshape(out);
}

Tensor Tensor::unsqueeze(int dim) const {
  const int d = resolve_dim(dim, ndim(), 1);
  Shape out = shape();
  out.insert(out.begin() + d, 1);
  return reshape(out);
}

Tensor Tensor::squeeze(std::optional<int> dim) const {
  Shape out;
  if (!dim) {
    for (int64_t s : shape())
      if (s != 1) out.push_back(s);
    return reshape(out);
  }
  if (ndim() == 0) return *this;
  const int d = resolve_dim(*dim, ndim());
  if (shape()[d] != 1) return *this;
  out = shape();
  out.erase(out.begin() + d);
  return reshape(out);
}

Tensor Tensor::repeat(const std::vector<int64_t>& repeats) const {
  if (static_cast<int>(repeats.size()) < ndim())
    fail("shape", "repeat needs at least {} counts, got {}", ndim(), repeats.size());
  Shape base(repeats.size() - ndim(), 1);
  base.insert(base.end(), shape().begin(), shape().end());
  Shape unit, grown, out;
  for (size_t i = 0; i < base.size(); i++) {
    if (repeats[i] < 0) fail("value", "repeat counts must be non-negative");
    unit.insert(unit.end(), {1, base[i]});
    grown.insert(grown.end(), {repeats[i], base[i]});
    out.push_back(repeats[i] * base[i]);
  }
  return reshape(unit).expand(grown).reshape(out);
}

Tensor Tensor::cat(const std::vector<Tensor>& others, int dim) const {
  const int d = resolve_dim(dim, ndim());
  std::vector<Tensor> all{*this};
  all.insert(all.end(), others.begin(), others.end());
  DType t = dtype();
  int64_t total = 0;
  for (const Tensor& x : all) {
    bool same = x.ndim() == ndim();
    for (int i = 0; same && i < ndim(); i++) same = i == d || x.shape()[i] == shape()[i];
    if (!same) fail("shape", "cannot cat {} with {} along dim {}", shape_str(shape()), shape_str(x.shape()), d);
    t = promote(t, x.dtype());
    total += x.shape()[d];
  }
  // each piece padded to the full length with zeros elsewhere; their sum is the concatenation
  Tensor ret = zeros({}, t, device());
  int64_t at = 0;
  for (const Tensor& x : all) {
    std::vector<Range> p(ndim(), Range{0, 0});
    p[d] = {at, total - at - x.shape()[d]};
    at += x.shape()[d];
    const Tensor piece = x.cast(t).pad(p);
    ret = at == x.shape()[d] ? piece : (t == DType::Bool ? ret.logical_or(piece) : ret.add(piece));
  }
  return ret;
}

Tensor Tensor::getitem(const std::vector<Index>& indices) const {
  const auto consumed = std::count_if(indices.begin(), indices.end(), [](const Index& i) {
    return std::holds_alternative<int64_t>(i) || std::holds_alternative<Slice>(i);
  });
  if (std::count_if(indices.begin(), indices.end(), [](const Index& i) { return std::holds_alternative<Ellipsis>(i); }) > 1)
    fail("index", "an index can only have a single ellipsis ('...')");
  if (consumed > ndim()) fail("index", "too many indices for a tensor of {} dims: {} given", ndim(), consumed);
  std::vector<Index> full;
  for (const Index& i : indices) {
    if (std::holds_alternative<Ellipsis>(i)) {
      for (int64_t k = 0; k < ndim() - consumed; k++) full.push_back(Slice{});
    } else {
      full.push_back(i);
    }
  }
  while (std::count_if(full.begin(), full.end(), [](const Index& i) { return !std::holds_alternative<NewAxis>(i); }) < ndim())
    full.push_back(Slice{});

  // First pass: flips and shrinks per dim; collect the output shape (with new axes) and strides.
  std::vector<std::optional<Range>> bounds;
  std::vector<int> flips;
  std::vector<int64_t> steps;
  Shape kept_shape;      // after shrinking: the dims that stay, with strided lengths
  std::vector<int> kept;  // which input dims stay
  int dim = 0;
  for (const Index& i : full) {
    if (std::holds_alternative<NewAxis>(i)) continue;
    const int64_t n = shape()[dim];
    if (const int64_t* k = std::get_if<int64_t>(&i)) {
      const int64_t at = *k < 0 ? *k + n : *k;
      if (at < 0 || at >= n) fail("index", "index {} is out of bounds for dim {} of size {}", *k, dim, n);
      bounds.push_back(Range{at, at + 1});
      steps.push_back(1);
    } else {
      const Slice& s = std::get<Slice>(i);
      const int64_t step = s.step.value_or(1);
      if (step == 0) fail("index", "slice step cannot be zero");
      auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + n : *v;
        return step > 0 ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
      };
      const int64_t start = clamp(s.start, step > 0 ? 0 : n - 1), stop = clamp(s.stop, step > 0 ? n : -1);
      const int64_t count = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                                     : std::max<int64_t>(0, (start - stop - step - 1) / -step);
      if (step < 0) {
        flips.push_back(dim);
        const int64_t first = n - 1 - start;  // position of start after the flip
        bounds.push_back(Range{first, count ? first + (count - 1) * -step + 1 : first});
      } else {
        bounds.push_back(Range{start, count ? start + (count - 1) * step + 1 : start});
      }
      steps.push_back(std::abs(step));
      kept.push_back(dim);
    }
    dim++;
  }
  Tensor x = flip(flips).shrink(bounds);
  // Strided slices: pad each strided dim to a multiple of its step, split it and keep index 0.
  bool strided = false;
  for (int64_t st : steps) strided = strided || st > 1;
  if (strided && x.numel() > 0) {
    std::vector<Range> pads;
    Shape split, pick_shape;
    std::vector<std::optional<Range>> pick;
    for (int d = 0; d < ndim(); d++) {
      const int64_t n = x.shape()[d], st = steps[d];
      const int64_t count = (n + st - 1) / st;
      pads.push_back({0, count * st - n});
      split.insert(split.end(), {count, st});
      pick.push_back(std::nullopt);
      pick.push_back(Range{0, 1});
      pick_shape.push_back(count);
    }
    x = x.pad(pads).reshape(split).shrink(pick).reshape(pick_shape);
  }
  // Final shape: drop int-indexed dims, insert new axes.
  Shape out;
  dim = 0;
  for (const Index& i : full) {
    if (std::holds_alternative<NewAxis>(i)) {
      out.push_back(1);
      continue;
    }
    if (!std::holds_alternative<int64_t>(i)) out.push_back(x.shape()[dim]);
    dim++;
  }
  return x.reshape(out);
}

Tensor Tensor::dot(const Tensor& w) const {
  const int n1 = ndim(), n2 = w.ndim();
  if (n1 == 0 || n2 == 0) fail("shape", "both tensors need at least 1 dim, got {}D and {}D", n1, n2);
  const int64_t left = shape().back(), right = w.shape()[n2 - std::min(n2, 2)];
  if (left != right)
    fail("shape", "shapes {} and {} cannot be multiplied ({} != {})", shape_str(shape()), shape_str(w.shape()), left, right);
  const int ones = std::min({n1 - 1, n2 - 1, 1});
  Shape xs(shape().begin(), shape().end() - 1);
  xs.insert(xs.end(), ones, 1);
  xs.push_back(left);
  Shape ws(w.shape().begin(), w.shape().end() - std::min(n2, 2));
  ws.insert(ws.end(), ones, 1);
  ws.insert(ws.end(), w.shape().end() - std::min(n2, 2), w.shape().end());
  const Tensor wt = w.reshape(ws).transpose(-1, -std::min(n2, 2));
  // summed in the accumulation dtype, returned in the operands' (int8 @ int8 is int8, as in tinygrad)
  const Tensor prod = reshape(xs).mul(wt);
  return prod.sum(std::vector<int>{-1}).cast(prod.dtype());
}

Tensor Tensor::matmul(const Tensor& w) const { return dot(w); }

}  // namespace tr
