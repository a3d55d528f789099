#pragma once
// The brute-force model of a ShapeTracker, shared by tests/shape/shape_tracker_test.cpp and the fuzzer
// tests/fuzz/shape_tracker_fuzz.cpp.
#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/shape/shape_tracker.h"
#include "core/shape/symbolic.h"

namespace tr::testing {

// The brute-force model: a tracker means, for every row-major position of its shape, a buffer index
// or -1 for "invalid". Each movement op is applied to that table directly.
struct Model {
  Shape shape;
  std::vector<int64_t> table;
};

using Index = std::vector<int64_t>;

inline Index unravel(int64_t flat, const Shape& shape) {
  Index idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
  return idx;
}

inline int64_t ravel(const Index& idx, const Shape& shape) {
  int64_t flat = 0;
  for (size_t k = 0; k < shape.size(); ++k) flat = flat * shape[k] + idx[k];
  return flat;
}

// Each new position reads the old position `source` names, or is invalid when it names none.
inline Model remap(const Model& m, const Shape& shape, const std::function<std::optional<Index>(const Index&)>& source) {
  Model out{shape, std::vector<int64_t>(prod(shape))};
  for (int64_t f = 0; f < prod(shape); ++f) {
    const std::optional<Index> src = source(unravel(f, shape));
    out.table[f] = src ? m.table[ravel(*src, m.shape)] : -1;
  }
  return out;
}

struct Step {
  std::string what;
  std::function<ShapeTracker(const ShapeTracker&)> on_tracker;
  std::function<Model(const Model&)> on_model;
};

// Random chains of movement ops; `pick(lo, hi)` chooses every number in [lo, hi], from a seeded
// generator in the tests and from the fuzzer's bytes in tests/fuzz.
class Chains {
 public:
  using Pick = std::function<int64_t(int64_t lo, int64_t hi)>;
  explicit Chains(Pick pick) : pick_(std::move(pick)) {}

  int64_t pick(int64_t lo, int64_t hi) { return pick_(lo, hi); }

  Shape random_shape() {
    Shape s(pick(1, 4));
    for (int64_t& d : s) d = pick(1, 5);
    return s;
  }

  Step random_step(const Shape& s) {
    // Pad and expand only grow: keep tables small.
    const int kind = static_cast<int>(pick(0, prod(s) > 200 ? 3 : 5));
    switch (kind) {
      case 0: return reshape(reshaped(s));
      case 1: return permute(s);
      case 2: return shrink(s);
      case 3: return flip(s);
      case 4: return pad(s);
      default: return expand(s);
    }
  }

 private:
  static Step reshape(const Shape& to) {
    return {fmt::format("reshape{}", shape_str(to)), [=](const ShapeTracker& st) { return st.reshape(to); },
            [=](const Model& m) {
              return Model{to, m.table};
            }};
  }

  // Another shape of the same size: a merge, a split, size-1 dims added or removed, or a fresh
  // factorisation of the size.
  Shape reshaped(Shape s) {
    if (s.empty()) return Shape(pick(1, 2), 1);
    switch (pick(0, 3)) {
      case 0:
        if (s.size() >= 2) {
          const size_t k = pick(0, static_cast<int64_t>(s.size()) - 2);
          s[k] *= s[k + 1];
          s.erase(s.begin() + static_cast<std::ptrdiff_t>(k) + 1);
        }
        return s;
      case 1: {
        const size_t k = pick(0, static_cast<int64_t>(s.size()) - 1);
        std::vector<int64_t> divisors;
        for (int64_t d = 1; d <= s[k]; ++d) {
          if (s[k] % d == 0) divisors.push_back(d);
        }
        const int64_t d = divisors[pick(0, static_cast<int64_t>(divisors.size()) - 1)];
        s[k] /= d;
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(k), d);
        return s;
      }
      case 2: {
        const auto one = std::find(s.begin(), s.end(), 1);
        if (one != s.end() && pick(0, 1) == 0) {
          s.erase(one);
        } else {
          s.insert(s.begin() + pick(0, static_cast<int64_t>(s.size())), 1);
        }
        return s;
      }
      default: {
        std::vector<int64_t> primes;
        int64_t n = prod(s);
        for (int64_t p = 2; p <= n; ++p) {
          for (; n % p == 0; n /= p) primes.push_back(p);
        }
        Shape out(pick(1, 4), 1);
        for (const int64_t p : primes) out[pick(0, static_cast<int64_t>(out.size()) - 1)] *= p;
        return out;
      }
    }
  }

  Step permute(const Shape& s) {
    std::vector<int> order(s.size());
    std::iota(order.begin(), order.end(), 0);
    for (size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[pick(0, static_cast<int64_t>(k) - 1)]);
    return {fmt::format("permute({})", fmt::join(order, ",")),
            [=](const ShapeTracker& st) { return st.permute(order); },
            [=](const Model& m) {
              Shape shape;
              for (const int d : order) shape.push_back(m.shape[d]);
              return remap(m, shape, [&](const Index& i) {
                Index src(i.size());
                for (size_t k = 0; k < order.size(); ++k) src[order[k]] = i[k];
                return std::optional(src);
              });
            }};
  }

  Step expand(const Shape& s) {
    Shape to = s;
    for (int64_t& d : to) {
      if (d == 1 && pick(0, 2) > 0) d = pick(2, 4);
    }
    return {fmt::format("expand{}", shape_str(to)), [=](const ShapeTracker& st) { return st.expand(to); },
            [=](const Model& m) {
              return remap(m, to, [&](const Index& i) {
                Index src = i;
                for (size_t k = 0; k < src.size(); ++k) src[k] = m.shape[k] == 1 ? 0 : src[k];
                return std::optional(src);
              });
            }};
  }

  Step pad(const Shape& s) {
    std::vector<Range> by(s.size());
    for (Range& p : by) p = {pick(0, 2) == 0 ? pick(1, 2) : 0, pick(0, 2) == 0 ? pick(1, 2) : 0};
    return {fmt::format("pad({})", fmt::join(by, ",")), [=](const ShapeTracker& st) { return st.pad(by); },
            [=](const Model& m) {
              Shape shape = m.shape;
              for (size_t k = 0; k < shape.size(); ++k) shape[k] += by[k].first + by[k].second;
              return remap(m, shape, [&](const Index& i) -> std::optional<Index> {
                Index src(i.size());
                for (size_t k = 0; k < i.size(); ++k) {
                  src[k] = i[k] - by[k].first;
                  if (src[k] < 0 || src[k] >= m.shape[k]) return std::nullopt;
                }
                return src;
              });
            }};
  }

  Step shrink(const Shape& s) {
    std::vector<Range> to(s.size());
    for (size_t k = 0; k < s.size(); ++k) {
      const int64_t b = pick(0, s[k] - 1);
      to[k] = {b, pick(b + 1, s[k])};
    }
    return {fmt::format("shrink({})", fmt::join(to, ",")), [=](const ShapeTracker& st) { return st.shrink(to); },
            [=](const Model& m) {
              Shape shape;
              for (const auto& [b, e] : to) shape.push_back(e - b);
              return remap(m, shape, [&](const Index& i) {
                Index src(i.size());
                for (size_t k = 0; k < i.size(); ++k) src[k] = i[k] + to[k].first;
                return std::optional(src);
              });
            }};
  }

  Step flip(const Shape& s) {
    std::vector<bool> dims(s.size());
    for (size_t k = 0; k < s.size(); ++k) dims[k] = pick(0, 1) == 1;
    return {fmt::format("flip({})", fmt::join(dims, ",")), [=](const ShapeTracker& st) { return st.flip(dims); },
            [=](const Model& m) {
              return remap(m, m.shape, [&](const Index& i) {
                Index src = i;
                for (size_t k = 0; k < i.size(); ++k) src[k] = dims[k] ? m.shape[k] - 1 - i[k] : i[k];
                return std::optional(src);
              });
            }};
  }

  Pick pick_;
};

inline bool has_negative_numerator(const ExprRef& e, const std::vector<std::pair<std::string, int64_t>>& env) {
  const bool divides = e->op == ExprOp::Div || e->op == ExprOp::Mod;
  return (divides && evaluate(e->srcs[0], env) < 0) ||
         std::any_of(e->srcs.begin(), e->srcs.end(), [&](const ExprRef& s) { return has_negative_numerator(s, env); });
}

// What is wrong with the tracker's index and validity against the model, "" when nothing: at every
// position the same buffer index, and where an element is valid no division sees a negative numerator
// (C's truncating division would differ). Stops at the first mismatch.
inline std::string mismatch(const ShapeTracker& st, const Model& m) {
  if (st.shape() != m.shape) return fmt::format("shape {} != {}", shape_str(st.shape()), shape_str(m.shape));
  std::vector<ExprRef> idxs;
  std::vector<std::pair<std::string, int64_t>> env;
  for (size_t k = 0; k < m.shape.size(); ++k) {
    env.emplace_back(fmt::format("idx{}", k), 0);
    idxs.push_back(var(env.back().first, 0, m.shape[k] - 1));
  }
  const auto [idx, valid] = st.index_valid(idxs);
  for (int64_t f = 0; f < prod(m.shape); ++f) {
    const Index i = unravel(f, m.shape);
    for (size_t k = 0; k < i.size(); ++k) env[k].second = i[k];
    const int64_t ok = evaluate(valid, env);
    const int64_t at = ok ? evaluate(idx, env) : -1;
    const bool negative = ok && (has_negative_numerator(idx, env) || has_negative_numerator(valid, env));
    if ((ok != 0 && ok != 1) || at != m.table[f] || negative)
      return fmt::format("\n  tracker {}\n  index {}\n  valid {}\n  at {}: got {} (valid {}), want {}{}", st.str(),
                         render(idx), render(valid), i, at, ok, m.table[f], negative ? ", negative numerator" : "");
  }
  return "";
}

// real_stride, when given, must step the buffer index by it between every pair of neighbours along
// the dim, and never between a valid and an invalid one.
inline bool stride_holds(const Model& m, size_t dim, int64_t stride) {
  int64_t inner = 1;
  for (size_t k = dim + 1; k < m.shape.size(); ++k) inner *= m.shape[k];
  for (int64_t f = 0; f < prod(m.shape); ++f) {
    if (unravel(f, m.shape)[dim] + 1 == m.shape[dim]) continue;
    const int64_t a = m.table[f], b = m.table[f + inner];
    if ((a < 0) != (b < 0) || (a >= 0 && b - a != stride)) return false;
  }
  return true;
}

// A tracker next to its model, and the ops that made them.
struct Traced {
  ShapeTracker st;
  Model m;
  std::string trace;

  explicit Traced(const Shape& shape)
      : st(ShapeTracker::contiguous(shape)),
        m{shape, std::vector<int64_t>(prod(shape))},
        trace(fmt::format("contiguous{}", shape_str(shape))) {
    std::iota(m.table.begin(), m.table.end(), 0);
  }

  void apply(const Step& step) {
    st = step.on_tracker(st);
    m = step.on_model(m);
    trace += " " + step.what;
  }
};

}  // namespace tr::testing
