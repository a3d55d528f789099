#pragma once
// Views over a flat buffer and stacks of them. Movement ops (reshape, permute, expand, pad, shrink,
// flip) never move data: they return a new ShapeTracker over the same buffer.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/shape/symbolic.h"

namespace tr {

using Shape = std::vector<int64_t>;
using Range = std::pair<int64_t, int64_t>;  // [begin, end)

// The element count; a shape whose count a 64-bit integer cannot hold is refused, so that no size
// check downstream sees a wrapped count.
int64_t prod(const Shape& s);
std::string shape_str(const Shape& s);  // "(2, 3)", "(4,)", "()"
Shape contiguous_strides(const Shape& s);

struct View {
  Shape shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::optional<std::vector<Range>> mask;  // per dim, the valid [begin, end); absent when all valid
  bool contiguous = false;                 // row-major, offset 0, no mask
  // Per dim, the Variable that is its size (its shape entry is the bound value), null for a number;
  // empty when no dim is symbolic. Strides, offset and mask are always numbers.
  std::vector<ExprRef> sym{};

  // Canonical form: stride 0 on size-1 dims (a symbolic one keeps its stride: it may be bound to
  // more), a full mask dropped, contiguity computed.
  static View make(Shape shape, std::vector<int64_t> strides, int64_t offset = 0,
                   std::optional<std::vector<Range>> mask = std::nullopt, std::vector<ExprRef> sym = {});
  static View contiguous_of(const Shape& shape, std::vector<ExprRef> sym = {});
  bool operator==(const View&) const;
  bool symbolic(size_t dim) const { return dim < sym.size() && sym[dim] != nullptr; }
  std::string str() const;  // "(2,4):(4,1)", with "+3" for an offset and " mask((0,2),(0,4))"
  size_t hash() const;
};

class ShapeTracker {
 public:
  explicit ShapeTracker(std::vector<View> views);
  static ShapeTracker contiguous(const Shape& shape, std::vector<ExprRef> sym = {});

  const std::vector<View>& views() const { return views_; }
  const Shape& shape() const { return views_.back().shape; }
  const std::vector<ExprRef>& sym() const { return views_.back().sym; }
  int64_t size() const { return prod(shape()); }
  bool contiguous() const { return views_.size() == 1 && views_[0].contiguous; }
  bool operator==(const ShapeTracker&) const = default;

  // Each op checks its arguments and throws tr::Error (kind "shape") on a bad one.
  ShapeTracker reshape(const Shape& new_shape) const;  // merges into the last view when it can
  ShapeTracker permute(const std::vector<int>& order) const;
  ShapeTracker expand(const Shape& new_shape) const;  // only size-1 dims grow
  ShapeTracker pad(const std::vector<Range>& before_after) const;  // (before, after) per dim
  // [begin, end) per dim; a dim that sym names becomes that Variable (bound to its new size)
  ShapeTracker shrink(const std::vector<Range>& bounds, const std::vector<ExprRef>& sym = {}) const;
  ShapeTracker flip(const std::vector<bool>& dims) const;

  // This tracker's views followed by `top`'s: `top` reads this tracker's shape as a contiguous buffer.
  ShapeTracker compose(const ShapeTracker& top) const;
  // Drops views that change nothing (a contiguous first view of the same size, and merges that fit).
  ShapeTracker simplify() const;

  // Index into the underlying buffer, and the condition for the element to exist (1 when always),
  // given one expression per dim of shape().
  std::pair<ExprRef, ExprRef> index_valid(const std::vector<ExprRef>& idxs) const;
  // Dims i and i+1 can become one dim on this tracker without adding a view.
  bool can_merge(size_t i) const;
  // The stride of dim i in the underlying buffer when the whole tracker is one affine map on it.
  std::optional<int64_t> real_stride(size_t i) const;

  std::string str() const;  // one view as View::str(), several joined as "[v0, v1]"
  size_t hash() const;

 private:
  std::vector<View> views_;
};

}  // namespace tr
