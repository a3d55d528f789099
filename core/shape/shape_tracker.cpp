#include "core/shape/shape_tracker.h"

#include <algorithm>
#include <iterator>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/hash.h"

namespace tr {
namespace {

// Python's tuple spelling: "(2,4)", "(4,)", "()".
std::string tuple_str(const std::vector<std::string>& items, std::string_view sep) {
  if (items.size() == 1) return fmt::format("({},)", items[0]);
  return fmt::format("({})", fmt::join(items, sep));
}

template <typename Int>
std::string ints_str(const std::vector<Int>& xs, std::string_view sep) {
  std::vector<std::string> items;
  for (const Int x : xs) items.push_back(std::to_string(x));
  return tuple_str(items, sep);
}

std::string ranges_str(const std::vector<Range>& rs, std::string_view sep) {
  std::vector<std::string> items;
  for (const auto& [b, e] : rs) items.push_back(fmt::format("({}{}{})", b, sep, e));
  return tuple_str(items, sep);
}

std::vector<Range> full_ranges(const Shape& shape) {
  std::vector<Range> rs;
  for (const int64_t s : shape) rs.push_back({0, s});
  return rs;
}

std::vector<Range> ranges_of(const View& v) { return v.mask ? *v.mask : full_ranges(v.shape); }

bool any_negative(const std::vector<int64_t>& xs) {
  return std::any_of(xs.begin(), xs.end(), [](int64_t x) { return x < 0; });
}

ShapeTracker with_last(std::vector<View> views, View last) {
  views.back() = std::move(last);
  return ShapeTracker(std::move(views));
}

struct Dim {
  int64_t size, stride;
  Range valid;
  ExprRef sym;
};

// Row-major strides; size-1 dims get stride 0 (View::make's canonical form) unless symbolic.
Shape strides_of(const Shape& s, const std::vector<ExprRef>& sym) {
  Shape strides(s.size(), 0);
  int64_t inner = 1;
  for (size_t k = s.size(); k-- > 0;) {
    if (s[k] != 1 || (k < sym.size() && sym[k])) strides[k] = inner;
    inner *= s[k];
  }
  return strides;
}

// A movement op that would make a stride, offset or mask depend on a Variable's value is refused on
// its dim: the kernel could not serve every value.
void refuse_symbolic(const View& v, size_t k, std::string_view op) {
  if (v.symbolic(k)) fail("shape", "cannot {} the symbolic dim {} of {}", op, k, v.str());
}

// A box of valid positions flattens to one interval when, going outward, each dim either holds a
// single index or repeats an inner interval that has no gaps.
std::optional<Range> merge_ranges(std::span<const Dim> dims) {
  Range merged{0, 1};
  int64_t inner = 1;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    const auto [b, e] = d->valid;
    if (e - b != 1 && merged != Range{0, inner}) return std::nullopt;
    merged = {b * inner + merged.first, (e - 1) * inner + merged.second};
    inner *= d->size;
  }
  return merged;
}

// The inverse: an interval of a flat dim as a box over its split dims, when it is one.
std::optional<std::vector<Range>> split_range(Range r, const Shape& sizes) {
  std::vector<Range> out;
  int64_t inner = prod(sizes);
  for (const int64_t size : sizes) {
    inner /= size;
    const auto [b, e] = r;
    if (b % inner == 0 && e % inner == 0) {
      out.push_back({b / inner, e / inner});
      r = {0, inner};
      continue;
    }
    const int64_t row = b / inner;
    if (row != (e - 1) / inner) return std::nullopt;
    out.push_back({row, row + 1});
    r = {b - row * inner, e - row * inner};
  }
  return out;
}

// `v` reshaped without a new view, when its strides and mask allow it.
// A dim that new_sym names is one of the new view's dims even at size 1 (a Variable bound to 1).
std::optional<View> reshape_view(const View& v, const Shape& new_shape, const std::vector<ExprRef>& new_sym = {}) {
  const size_t rank = new_shape.size();
  if (prod(new_shape) == 0) return View::contiguous_of(new_shape);
  const std::vector<Range> valid = ranges_of(v);
  if (std::any_of(valid.begin(), valid.end(), [](const Range& r) { return r.first >= r.second; })) {
    // Without dims there is no mask to say that nothing is valid.
    if (rank == 0) return std::nullopt;
    return View::make(new_shape, Shape(rank, 0), 0, std::vector<Range>(rank, {0, 0}));
  }
  // Size-1 dims index nothing (stride 0, mask (0,1)), so only the others are paired up.
  std::vector<Dim> old;
  for (size_t k = 0; k < v.shape.size(); ++k) {
    if (v.shape[k] != 1 || v.symbolic(k)) old.push_back({v.shape[k], v.strides[k], valid[k], v.symbolic(k) ? v.sym[k] : nullptr});
  }
  std::vector<size_t> wide;
  for (size_t k = 0; k < rank; ++k) {
    if (new_shape[k] != 1 || (k < new_sym.size() && new_sym[k])) wide.push_back(k);
  }
  std::vector<int64_t> strides(rank, 0);
  std::vector<Range> mask(rank, {0, 1});
  std::vector<ExprRef> sym(rank);
  int64_t offset = v.offset;
  size_t unused = 0;  // the first new dim that no old dim has taken
  // Walk the smallest runs of old dims and new dims that hold the same elements.
  for (size_t i = 0, j = 0; i < old.size(); ++i) {
    // A Variable bound to 1 takes the first size-1 dim before the next wide one ((n, 4) to (n, 1, 4)
    // in a matmul, at n = 1): it is the same dim at every other value.
    if (old[i].sym && old[i].size == 1 && !(j < wide.size() && new_shape[wide[j]] == 1)) {
      if (unused >= (j < wide.size() ? wide[j] : rank)) return std::nullopt;
      sym[unused] = old[i].sym;
      strides[unused] = old[i].stride;
      mask[unused] = old[i].valid;
      unused++;
      continue;
    }
    if (j >= wide.size()) return std::nullopt;
    const size_t i0 = i, j0 = j;
    for (int64_t po = old[i].size, pn = new_shape[wide[j]]; po != pn;) {
      if (po < pn) {
        if (i + 1 >= old.size()) return std::nullopt;
        po *= old[++i].size;
      } else {
        if (j + 1 >= wide.size()) return std::nullopt;
        pn *= new_shape[wide[++j]];
      }
    }
    // A symbolic dim stays one dim: merged or split, its neighbours' strides would depend on its value.
    const bool symbolic = std::any_of(old.begin() + static_cast<std::ptrdiff_t>(i0), old.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                      [](const Dim& d) { return d.sym != nullptr; });
    if (symbolic && (i != i0 || j != j0)) return std::nullopt;
    if (symbolic) sym[wide[j]] = old[i].sym;
    // The old run reads as one flat dim only when each stride steps over the whole dim inside it.
    for (size_t k = i; k-- > i0;) {
      const int64_t flat = old[k + 1].stride * old[k + 1].size;
      if (old[k].stride == flat) continue;
      // A dim with one valid index may take any stride: its share of the index moves to the offset.
      if (old[k].valid.second - old[k].valid.first != 1) return std::nullopt;
      offset += old[k].valid.first * (old[k].stride - flat);
      old[k].stride = flat;
    }
    Shape sizes;
    for (size_t k = j0; k <= j; ++k) sizes.push_back(new_shape[wide[k]]);
    const std::optional<Range> run = merge_ranges(std::span(old).subspan(i0, i + 1 - i0));
    const std::optional<std::vector<Range>> split = run ? split_range(*run, sizes) : std::nullopt;
    if (!split) return std::nullopt;
    int64_t stride = old[i].stride;
    for (size_t k = j + 1; k-- > j0;) {
      strides[wide[k]] = stride;
      stride *= new_shape[wide[k]];
      mask[wide[k]] = (*split)[k - j0];
    }
    unused = wide[j] + 1;
    ++j;
  }
  return View::make(new_shape, std::move(strides), offset, v.mask ? std::optional(std::move(mask)) : std::nullopt,
                    std::move(sym));
}

// Index and validity of view `v` at one index expression per dim.
std::pair<ExprRef, ExprRef> view_index(const View& v, const std::vector<ExprRef>& idxs) {
  ExprRef idx = cnst(v.offset), valid = cnst(1);
  for (size_t k = 0; k < idxs.size(); ++k) {
    idx = add(idx, mul(idxs[k], v.strides[k]));
    if (!v.mask || (*v.mask)[k] == Range{0, v.shape[k]}) continue;
    const auto [b, e] = (*v.mask)[k];
    valid = land(valid, land(ge(idxs[k], b), lt(idxs[k], e)));
  }
  return {idx, valid};
}

// A flat index as row-major indices of `shape`. The outermost needs no modulo: where the element is
// valid, the flat index lies inside the view.
std::vector<ExprRef> unravel(const ExprRef& flat, const Shape& shape) {
  std::vector<ExprRef> idxs(shape.size());
  int64_t inner = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    const ExprRef q = floordiv(flat, inner);
    idxs[k] = k == 0 ? q : mod(q, shape[k]);
    inner *= shape[k];
  }
  return idxs;
}

// The top view read through the one below it as one view, where each dim of the top that moves
// steps over a whole dim of the one below, no two over the same one (the top expands, permutes or
// shrinks the one below): a matmul's operand broadcast after its transpose. A symbolic dim of the top
// may only be one that reads nothing below (stride 0).
std::optional<View> merge_views(const View& below, const View& top) {
  if (top.mask || !below.sym.empty() || prod(below.shape) == 0 || top.offset < 0) return std::nullopt;
  const size_t n = below.shape.size();
  Shape flat(n);
  int64_t inner = 1;
  for (size_t d = n; d-- > 0;) {
    flat[d] = inner;
    inner *= below.shape[d];
  }
  // the index of the one below where the top's index 0 lies
  std::vector<int64_t> at(n);
  int64_t rest = top.offset;
  for (size_t d = 0; d < n; ++d) {
    at[d] = rest / flat[d];
    rest %= flat[d];
    if (at[d] >= below.shape[d]) return std::nullopt;
  }
  std::vector<int> dim_of(top.shape.size(), -1);
  std::vector<bool> taken(n);
  for (size_t k = 0; k < top.shape.size(); ++k) {
    if (top.shape[k] == 1 || top.strides[k] == 0) continue;
    if (top.symbolic(k)) return std::nullopt;
    int found = -1;
    for (size_t d = 0; d < n; ++d)
      if (flat[d] == top.strides[k] && below.shape[d] > 1 && !taken[d]) found = static_cast<int>(d);
    if (found < 0 || at[found] + top.shape[k] > below.shape[found]) return std::nullopt;
    taken[found] = true;
    dim_of[k] = found;
  }
  const std::vector<Range> valid = ranges_of(below);
  int64_t offset = below.offset;
  for (size_t d = 0; d < n; ++d) {
    // a dim of the one below that the top does not move stays at one index, valid everywhere or nowhere
    if (!taken[d] && (at[d] < valid[d].first || at[d] >= valid[d].second)) return std::nullopt;
    offset += at[d] * below.strides[d];
  }
  std::vector<int64_t> strides(top.shape.size(), 0);
  std::vector<Range> mask = full_ranges(top.shape);
  for (size_t k = 0; k < top.shape.size(); ++k) {
    if (dim_of[k] < 0) continue;
    const size_t d = static_cast<size_t>(dim_of[k]);
    strides[k] = below.strides[d];
    const auto clip = [&](int64_t i) { return std::clamp<int64_t>(i - at[d], 0, top.shape[k]); };
    mask[k] = {clip(valid[d].first), clip(valid[d].second)};
  }
  const bool masked = mask != full_ranges(top.shape);
  return View::make(top.shape, std::move(strides), offset, masked ? std::optional(std::move(mask)) : std::nullopt, top.sym);
}

bool mentions(const ExprRef& e, const std::string& name) {
  return (e->op == ExprOp::Var && e->name == name) ||
         std::any_of(e->srcs.begin(), e->srcs.end(), [&](const ExprRef& s) { return mentions(s, name); });
}

}  // namespace

int64_t prod(const Shape& s) {
  if (std::find(s.begin(), s.end(), 0) != s.end()) return 0;
  int64_t p = 1;
  for (const int64_t x : s)
    if (__builtin_mul_overflow(p, x, &p)) fail("shape", "shape {} has more elements than a 64-bit count holds", shape_str(s));
  return p;
}

std::string shape_str(const Shape& s) { return ints_str(s, ", "); }

// Size-1 dims get stride 0, the canonical form View::make gives them.
Shape contiguous_strides(const Shape& s) { return strides_of(s, {}); }

View View::make(Shape shape, std::vector<int64_t> strides, int64_t offset, std::optional<std::vector<Range>> mask,
                std::vector<ExprRef> sym) {
  if (std::none_of(sym.begin(), sym.end(), [](const ExprRef& e) { return e != nullptr; })) sym.clear();
  if (!sym.empty() && sym.size() != shape.size()) fail("shape", "a view of shape {} needs one symbolic size per dim", shape_str(shape));
  if (any_negative(shape)) fail("shape", "negative size in shape {}", shape_str(shape));
  if (strides.size() != shape.size() || (mask && mask->size() != shape.size())) {
    fail("shape", "a view of shape {} needs one stride and one mask range per dim", shape_str(shape));
  }
  // A view of nothing indexes nothing: every such view is the same.
  if (prod(shape) == 0) return View{shape, contiguous_strides(shape), 0, std::nullopt, true};
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1 && (sym.empty() || !sym[k])) strides[k] = 0;
  }
  if (mask && std::any_of(mask->begin(), mask->end(), [](const Range& r) { return r.first >= r.second; })) {
    // Nothing is valid, so where it would point does not matter.
    const size_t rank = shape.size();
    return View{std::move(shape), Shape(rank, 0), 0, std::vector<Range>(rank, {0, 0}), false};
  }
  if (mask && *mask == full_ranges(shape)) mask.reset();
  const bool contiguous = offset == 0 && !mask && strides == strides_of(shape, sym);
  return View{std::move(shape), std::move(strides), offset, std::move(mask), contiguous, std::move(sym)};
}

View View::contiguous_of(const Shape& shape, std::vector<ExprRef> sym) {
  Shape strides = strides_of(shape, sym);
  return make(shape, std::move(strides), 0, std::nullopt, std::move(sym));
}

bool View::operator==(const View& o) const {
  if (shape != o.shape || strides != o.strides || offset != o.offset || mask != o.mask || sym.size() != o.sym.size()) return false;
  for (size_t k = 0; k < sym.size(); ++k) {
    if ((sym[k] == nullptr) != (o.sym[k] == nullptr) || (sym[k] && !same_expr(sym[k], o.sym[k]))) return false;
  }
  return true;
}

std::string View::str() const {
  std::vector<std::string> sizes;
  for (size_t k = 0; k < shape.size(); ++k) sizes.push_back(symbolic(k) ? render(sym[k]) : std::to_string(shape[k]));
  std::string s = tuple_str(sizes, ",") + ":" + ints_str(strides, ",");
  if (offset != 0) s += fmt::format("{:+}", offset);
  if (mask) s += " mask" + ranges_str(*mask, ",");
  return s;
}

ShapeTracker::ShapeTracker(std::vector<View> views) : views_(std::move(views)) {
  if (views_.empty()) fail("shape", "a ShapeTracker needs at least one view");
}

ShapeTracker ShapeTracker::contiguous(const Shape& shape, std::vector<ExprRef> sym) {
  return ShapeTracker({View::contiguous_of(shape, std::move(sym))});
}

ShapeTracker ShapeTracker::reshape(const Shape& new_shape) const {
  const bool negative = any_negative(new_shape);
  if (negative || prod(new_shape) != size()) {
    fail("shape", "cannot reshape {} to {}{}", shape_str(shape()), shape_str(new_shape),
         negative ? ": negative size" : "");
  }
  if (new_shape == shape()) return *this;
  std::vector<View> views = views_;
  if (std::optional<View> merged = reshape_view(views.back(), new_shape)) {
    views.back() = std::move(*merged);
    // The merged view may now only reshape the view below it.
    return ShapeTracker(std::move(views)).simplify();
  }
  if (!views.back().sym.empty())
    fail("shape", "cannot reshape {} to {}: a symbolic dim must stay one dim of a view that allows the reshape "
         "(realize it first)", views.back().str(), shape_str(new_shape));
  views.push_back(View::contiguous_of(new_shape));
  return ShapeTracker(std::move(views));
}

ShapeTracker ShapeTracker::permute(const std::vector<int>& order) const {
  const View& v = views_.back();
  const size_t rank = v.shape.size();
  bool ok = order.size() == rank;
  std::vector<bool> seen(rank, false);
  for (const int d : order) {
    ok = ok && d >= 0 && static_cast<size_t>(d) < rank && !seen[d];
    if (ok) seen[d] = true;
  }
  if (!ok) fail("shape", "cannot permute {} by {}", shape_str(v.shape), ints_str(order, ", "));
  const std::vector<Range> valid = ranges_of(v);
  Shape shape, strides;
  std::vector<Range> mask;
  std::vector<ExprRef> sym;
  for (const int d : order) {
    shape.push_back(v.shape[d]);
    strides.push_back(v.strides[d]);
    mask.push_back(valid[d]);
    sym.push_back(v.symbolic(d) ? v.sym[d] : nullptr);
  }
  return with_last(views_, View::make(std::move(shape), std::move(strides), v.offset, std::move(mask), std::move(sym)));
}

ShapeTracker ShapeTracker::expand(const Shape& new_shape) const {
  const View& v = views_.back();
  const auto grows = [&](size_t k) { return new_shape[k] != v.shape[k]; };
  bool ok = new_shape.size() == v.shape.size() && !any_negative(new_shape);
  for (size_t k = 0; ok && k < new_shape.size(); ++k) ok = !grows(k) || v.shape[k] == 1;
  if (!ok) fail("shape", "cannot expand {} to {}", shape_str(v.shape), shape_str(new_shape));
  std::vector<int64_t> strides = v.strides;
  std::vector<Range> mask = ranges_of(v);
  for (size_t k = 0; k < new_shape.size(); ++k) {
    if (!grows(k)) continue;
    refuse_symbolic(v, k, "expand");
    strides[k] = 0;
    // The one element of the dim is either valid everywhere along it or nowhere.
    mask[k] = mask[k] == Range{0, 1} ? Range{0, new_shape[k]} : Range{0, 0};
  }
  return with_last(views_, View::make(new_shape, std::move(strides), v.offset, std::move(mask), v.sym));
}

ShapeTracker ShapeTracker::pad(const std::vector<Range>& before_after) const {
  const View& v = views_.back();
  const bool ok = before_after.size() == v.shape.size() &&
                  std::all_of(before_after.begin(), before_after.end(),
                              [](const Range& p) { return p.first >= 0 && p.second >= 0; });
  if (!ok) fail("shape", "cannot pad {} by {}", shape_str(v.shape), ranges_str(before_after, ", "));
  Shape shape = v.shape;
  std::vector<Range> mask = ranges_of(v);
  int64_t offset = v.offset;
  for (size_t k = 0; k < shape.size(); ++k) {
    const auto [before, after] = before_after[k];
    if (before != 0 || after != 0) refuse_symbolic(v, k, "pad");
    shape[k] += before + after;
    mask[k] = {mask[k].first + before, mask[k].second + before};
    offset -= before * v.strides[k];
  }
  return with_last(views_, View::make(std::move(shape), v.strides, offset, std::move(mask), v.sym));
}

ShapeTracker ShapeTracker::shrink(const std::vector<Range>& bounds, const std::vector<ExprRef>& new_sym) const {
  const View& v = views_.back();
  bool ok = bounds.size() == v.shape.size();
  for (size_t k = 0; ok && k < bounds.size(); ++k) {
    ok = 0 <= bounds[k].first && bounds[k].first <= bounds[k].second && bounds[k].second <= v.shape[k];
  }
  if (!ok) fail("shape", "cannot shrink {} to {}", shape_str(v.shape), ranges_str(bounds, ", "));
  Shape shape;
  std::vector<Range> mask = ranges_of(v);
  int64_t offset = v.offset;
  std::vector<ExprRef> sym = v.sym;
  for (size_t k = 0; k < bounds.size(); ++k) {
    const auto [b, e] = bounds[k];
    // a part of a symbolic dim is a number of elements
    if (v.symbolic(k) && bounds[k] != Range{0, v.shape[k]}) sym[k] = nullptr;
    if (k < new_sym.size() && new_sym[k]) {
      sym.resize(bounds.size());
      sym[k] = new_sym[k];
    }
    shape.push_back(e - b);
    mask[k] = {std::max(mask[k].first, b) - b, std::min(mask[k].second, e) - b};
    offset += b * v.strides[k];
  }
  return with_last(views_, View::make(std::move(shape), v.strides, offset, std::move(mask), std::move(sym)));
}

ShapeTracker ShapeTracker::flip(const std::vector<bool>& dims) const {
  const View& v = views_.back();
  if (dims.size() != v.shape.size()) fail("shape", "cannot flip {} on {} dims", shape_str(v.shape), dims.size());
  std::vector<int64_t> strides = v.strides;
  std::vector<Range> mask = ranges_of(v);
  int64_t offset = v.offset;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (!dims[k]) continue;
    refuse_symbolic(v, k, "flip");
    const int64_t s = v.shape[k];
    offset += (s - 1) * strides[k];
    strides[k] = -strides[k];
    mask[k] = {s - mask[k].second, s - mask[k].first};
  }
  return with_last(views_, View::make(v.shape, std::move(strides), offset, std::move(mask), v.sym));
}

ShapeTracker ShapeTracker::compose(const ShapeTracker& top) const {
  // an identity on this tracker's shape changes nothing (and keeps its symbolic dims)
  if (top.views_.size() == 1 && top.views_[0].contiguous && top.shape() == shape() && top.sym().empty()) return simplify();
  std::vector<View> views = views_;
  views.insert(views.end(), top.views_.begin(), top.views_.end());
  return ShapeTracker(std::move(views)).simplify();
}

ShapeTracker ShapeTracker::simplify() const {
  // A contiguous view with another above it maps each flat index the upper view makes to itself.
  std::vector<View> views;
  std::copy_if(views_.begin(), views_.end() - 1, std::back_inserter(views),
               [](const View& v) { return !v.contiguous; });
  views.push_back(views_.back());
  // A contiguous top view of the same size as the view below only reshapes it; one of another size (a
  // shrink at the start of the leading dims: a prefix of the flat index) merges as any other view does,
  // or its flat index would run past the elements below (2^35 for half a 4096^3 matmul's expanded operand).
  while (views.size() >= 2) {
    const View& below = views[views.size() - 2];
    if (!views.back().contiguous || prod(below.shape) != prod(views.back().shape)) {
      std::optional<View> merged = merge_views(below, views.back());
      if (!merged) break;
      views.pop_back();
      views.back() = std::move(*merged);
      continue;
    }
    std::optional<View> merged = reshape_view(below, views.back().shape, views.back().sym);
    if (!merged) break;
    // the top's symbolic dims are the merged view's: it has the top's shape
    std::vector<ExprRef> sym = merged->sym;
    sym.resize(merged->shape.size());
    for (size_t k = 0; k < views.back().sym.size(); ++k)
      if (views.back().sym[k]) sym[k] = views.back().sym[k];
    views.pop_back();
    views.back() = View::make(merged->shape, merged->strides, merged->offset, merged->mask, std::move(sym));
  }
  return ShapeTracker(std::move(views));
}

std::pair<ExprRef, ExprRef> ShapeTracker::index_valid(const std::vector<ExprRef>& idxs) const {
  if (idxs.size() != shape().size()) fail("shape", "{} indices given for shape {}", idxs.size(), shape_str(shape()));
  auto [idx, valid] = view_index(views_.back(), idxs);
  for (auto v = views_.rbegin() + 1; v != views_.rend(); ++v) {
    // Nothing above can be valid over a view of nothing.
    if (prod(v->shape) == 0) return {cnst(0), cnst(0)};
    auto [below_idx, below_valid] = view_index(*v, unravel(idx, v->shape));
    idx = std::move(below_idx);
    valid = land(valid, below_valid);
  }
  return {idx, valid};
}

bool ShapeTracker::can_merge(size_t i) const {
  if (i + 1 >= shape().size()) return false;
  Shape merged = shape();
  merged[i] *= merged[i + 1];
  merged.erase(merged.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  return reshape_view(views_.back(), merged).has_value();
}

std::optional<int64_t> ShapeTracker::real_stride(size_t i) const {
  if (i >= shape().size() || size() == 0) return std::nullopt;
  std::vector<ExprRef> idxs;
  for (size_t k = 0; k < shape().size(); ++k) idxs.push_back(var(fmt::format("idx{}", k), 0, shape()[k] - 1));
  const auto [idx, valid] = index_valid(idxs);
  const std::string name = fmt::format("idx{}", i);
  if (mentions(valid, name)) return std::nullopt;
  // The map is affine in the dim when its variable appears only as one term of the sum.
  int64_t stride = 0;
  for (const ExprRef& term : idx->op == ExprOp::Add ? idx->srcs : std::vector<ExprRef>{idx}) {
    const bool scaled = term->op == ExprOp::Mul;
    const ExprRef& base = scaled ? term->srcs[0] : term;
    if (base->op == ExprOp::Var && base->name == name) {
      stride = scaled ? term->value : 1;
    } else if (mentions(term, name)) {
      return std::nullopt;
    }
  }
  return stride;
}

size_t View::hash() const {
  size_t h = hash_mix(hash_mix(hash_mix(0, shape), strides), std::hash<int64_t>{}(offset));
  if (mask)
    for (const auto& [b, e] : *mask) h = hash_mix(hash_mix(h, std::hash<int64_t>{}(b)), std::hash<int64_t>{}(e));
  for (const ExprRef& e : sym) h = hash_mix(h, e ? expr_hash(e) : 0);
  return h;
}

size_t ShapeTracker::hash() const {
  size_t h = views_.size();
  for (const View& v : views_) h = hash_mix(h, v.hash());
  return h;
}

std::string ShapeTracker::str() const {
  if (views_.size() == 1) return views_[0].str();
  std::vector<std::string> parts;
  for (const View& v : views_) parts.push_back(v.str());
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

}  // namespace tr
