// scaled_dot_product_attention as tinygrad 0.14 builds it: softmax(q @ k^T / sqrt(d) + mask) @ v,
// from matmul, softmax and where, so that it fuses and has gradients like any other graph.
#include <cmath>
#include <limits>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {

Tensor Tensor::scaled_dot_product_attention(const Tensor& key, const Tensor& value, const std::optional<Tensor>& attn_mask,
                                            bool is_causal, bool enable_gqa, double dropout_p) const {
  if (ndim() < 2 || key.ndim() < 2 || value.ndim() < 2) {
    fail("shape", "scaled_dot_product_attention needs query, key and value of at least 2 dims, got {}, {} and {}",
         shape_str(shape()), shape_str(key.shape()), shape_str(value.shape()));
  }
  if (is_causal && attn_mask) fail("value", "cannot set attn_mask when is_causal=True");
  Tensor k = key, v = value;
  if (enable_gqa) {
    // each key and value head serves query_heads / key_heads query heads in a row (repeat_interleave on dim -3)
    const auto widen = [&](const Tensor& t) {
      if (ndim() < 3 || t.ndim() < 3 || shape()[shape().size() - 3] % t.shape()[t.shape().size() - 3] != 0) {
        fail("shape", "enable_gqa needs the query's heads {} to be a multiple of the key's and value's, {}",
             shape_str(shape()), shape_str(t.shape()));
      }
      const int64_t r = shape()[shape().size() - 3] / t.shape()[t.shape().size() - 3];
      Shape grown = t.unsqueeze(-3).shape();
      grown[grown.size() - 3] = r;
      Shape out = t.shape();
      out[out.size() - 3] *= r;
      return t.unsqueeze(-3).expand(grown).reshape(out);
    };
    k = widen(k);
    v = widen(v);
  }
  // the scores in at least float32, as tinygrad's matmul(dtype=least_upper_dtype(q, k, float32))
  const DType t = promote(promote(dtype(), k.dtype()), DType::Float32);
  Tensor qk = cast(t).matmul(k.cast(t).transpose(-2, -1));
  qk = qk.div(scalar_like(qk, std::sqrt(static_cast<double>(shape().back()))));
  std::optional<Tensor> mask = attn_mask;
  if (is_causal) {
    // tril of ones: key position j is seen from query position i when j <= i
    const int64_t l = qk.shape()[qk.shape().size() - 2], s = qk.shape().back();
    const Tensor rows = arange(int64_t{0}, l, int64_t{1}, DType::Int32, device()).reshape({l, 1});
    const Tensor cols = arange(int64_t{0}, s, int64_t{1}, DType::Int32, device()).reshape({1, s});
    mask = cols.le(rows);
  }
  if (mask) {
    const Tensor m = mask->dtype() == DType::Bool
                         ? mask->where(scalar_like(qk, 0.0), scalar_like(qk, -std::numeric_limits<double>::infinity()))
                         : *mask;
    qk = qk.add(m);
  }
  return qk.cast(dtype()).softmax(-1).dropout(dropout_p).matmul(v);
}

}  // namespace tr
