#include "core/shape_tracker.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace tr {
namespace {

TEST(View, MakeCanonicalises) {
  const View v = View::make({2, 1, 3}, {3, 3, 1});
  EXPECT_EQ(v.strides, (std::vector<int64_t>{3, 0, 1}));
  EXPECT_TRUE(v.contiguous);
  EXPECT_EQ(View::contiguous_of({2, 1, 3}), v);
  EXPECT_FALSE(View::make({2, 3}, {1, 2}).contiguous);
  EXPECT_FALSE(View::make({2, 3}, {3, 1}, 1).contiguous);

  const View full = View::make({2, 3}, {3, 1}, 0, std::vector<Range>{{0, 2}, {0, 3}});
  EXPECT_FALSE(full.mask.has_value());
  EXPECT_TRUE(full.contiguous);

  const View empty = View::make({2, 3}, {3, 1}, 5, std::vector<Range>{{1, 1}, {0, 3}});
  EXPECT_EQ(empty.mask, (std::vector<Range>{{0, 0}, {0, 0}}));
  EXPECT_FALSE(empty.contiguous);

  EXPECT_THROW(View::make({2, -1}, {1, 1}), Error);
}

TEST(View, Str) {
  EXPECT_EQ(View::contiguous_of({2, 4}).str(), "(2,4):(4,1)");
  EXPECT_EQ(View::contiguous_of({4}).str(), "(4,):(1,)");
  EXPECT_EQ(View::contiguous_of({}).str(), "():()");
  EXPECT_EQ(View::make({2, 4}, {4, 1}, 3).str(), "(2,4):(4,1)+3");
  EXPECT_EQ(View::make({2, 4}, {4, 1}, 0, std::vector<Range>{{0, 1}, {0, 4}}).str(), "(2,4):(4,1) mask((0,1),(0,4))");
  EXPECT_EQ(View::make({4}, {1}, -1, std::vector<Range>{{1, 4}}).str(), "(4,):(1,)-1 mask((1,4),)");
}

TEST(ShapeTracker, Helpers) {
  EXPECT_EQ(shape_str({2, 3}), "(2, 3)");
  EXPECT_EQ(shape_str({4}), "(4,)");
  EXPECT_EQ(shape_str({}), "()");
  EXPECT_EQ(prod({}), 1);
  EXPECT_EQ(prod({2, 3, 4}), 24);
  EXPECT_EQ(contiguous_strides({2, 1, 3}), (std::vector<int64_t>{3, 0, 1}));
}

TEST(ShapeTracker, ReshapeMergesContiguousDims) {
  const ShapeTracker st = ShapeTracker::contiguous({2, 4}).reshape({8});
  EXPECT_EQ(st.views().size(), 1u);
  EXPECT_EQ(st.str(), "(8,):(1,)");
  EXPECT_TRUE(st.contiguous());
  EXPECT_EQ(ShapeTracker::contiguous({6}).reshape({1, 2, 1, 3, 1}).str(), "(1,2,1,3,1):(0,3,0,1,0)");
}

TEST(ShapeTracker, PermuteThenReshapePushesAView) {
  const ShapeTracker p = ShapeTracker::contiguous({2, 4}).permute({1, 0});
  EXPECT_EQ(p.str(), "(4,2):(1,4)");
  const ShapeTracker st = p.reshape({8});
  EXPECT_EQ(st.views().size(), 2u);
  EXPECT_EQ(st.str(), "[(4,2):(1,4), (8,):(1,)]");
  // Reshaping back only undoes the pushed view.
  EXPECT_EQ(st.reshape({4, 2}), p);
  // Splitting the permuted dims needs no new view.
  EXPECT_EQ(p.reshape({2, 2, 2}).str(), "(2,2,2):(2,1,4)");
}

TEST(ShapeTracker, ExpandThenReshapeStaysOneView) {
  const ShapeTracker st = ShapeTracker::contiguous({2, 1, 1}).expand({2, 3, 4}).reshape({2, 12});
  EXPECT_EQ(st.str(), "(2,12):(1,0)");
  EXPECT_EQ(ShapeTracker::contiguous({1, 3}).expand({4, 3}).reshape({12}).views().size(), 2u);
}

TEST(ShapeTracker, MovementOpsOnOneView) {
  const ShapeTracker st = ShapeTracker::contiguous({2, 3});
  EXPECT_EQ(st.pad({{1, 0}, {0, 1}}).str(), "(3,4):(3,1)-3 mask((1,3),(0,3))");
  EXPECT_EQ(ShapeTracker::contiguous({4, 4}).shrink({{1, 3}, {0, 4}}).str(), "(2,4):(4,1)+4");
  EXPECT_EQ(st.flip({false, true}).str(), "(2,3):(3,-1)+2");
  EXPECT_EQ(st.pad({{1, 1}, {0, 0}}).shrink({{1, 3}, {0, 3}}), st);
  EXPECT_EQ(st.pad({{2, 0}, {0, 0}}).shrink({{0, 2}, {0, 3}}).str(), "(2,3):(0,0) mask((0,0),(0,0))");
  EXPECT_EQ(ShapeTracker::contiguous({1, 3}).pad({{0, 1}, {0, 0}}).expand({2, 3}).str(),
            "(2,3):(0,1) mask((0,1),(0,3))");
}

TEST(ShapeTracker, ReshapeKeepsMasksThatStayBoxes) {
  const ShapeTracker padded = ShapeTracker::contiguous({2, 3}).pad({{1, 1}, {0, 0}});
  EXPECT_EQ(padded.reshape({12}).str(), "(12,):(1,)-3 mask((3,9),)");
  EXPECT_EQ(padded.reshape({1, 4, 1, 3}).str(), "(1,4,1,3):(0,3,0,1)-3 mask((0,1),(1,3),(0,1),(0,3))");
  EXPECT_EQ(ShapeTracker::contiguous({2, 3}).pad({{2, 0}, {0, 0}}).reshape({2, 2, 3}).str(),
            "(2,2,3):(6,3,1)-6 mask((1,2),(0,2),(0,3))");
  // Rows 1 and 2 of 4 are no box over (2, 2), and a padded inner dim leaves gaps in the flattened
  // dim: both need a second view.
  EXPECT_EQ(padded.reshape({2, 2, 3}).views().size(), 2u);
  // Only one row of the permuted view is valid, so its stride does not matter.
  const ShapeTracker row =
      ShapeTracker::contiguous({3, 2}).permute({1, 0}).pad({{1, 0}, {0, 0}}).shrink({{0, 2}, {0, 3}});
  EXPECT_EQ(row.str(), "(2,3):(1,2)-1 mask((1,2),(0,3))");
  EXPECT_EQ(row.reshape({6}).str(), "(6,):(2,)-6 mask((3,6),)");
  EXPECT_EQ(ShapeTracker::contiguous({2, 3}).pad({{0, 0}, {1, 0}}).reshape({8}).views().size(), 2u);
}

TEST(ShapeTracker, SimplifyAndCompose) {
  const ShapeTracker p = ShapeTracker::contiguous({2, 4}).permute({1, 0});
  EXPECT_EQ(p.compose(ShapeTracker::contiguous({4, 2})), p);
  EXPECT_EQ(ShapeTracker::contiguous({8}).compose(p), p);
  EXPECT_EQ(ShapeTracker({View::contiguous_of({8}), View::contiguous_of({2, 4})}).simplify().str(), "(2,4):(4,1)");
  EXPECT_EQ(p.compose(ShapeTracker::contiguous({8})).str(), "[(4,2):(1,4), (8,):(1,)]");
}

TEST(ShapeTracker, IndexValid) {
  const ExprRef i = var("i", 0, 2), j = var("j", 0, 3);
  const auto [idx, valid] = ShapeTracker::contiguous({2, 3}).pad({{1, 0}, {0, 1}}).index_valid({i, j});
  EXPECT_EQ(render(idx), "((i*3)+j+-3)");
  EXPECT_EQ(render(valid), "(((i*-1)<0)&&(j<3))");
  const auto [flat, always] =
      ShapeTracker::contiguous({2, 4}).permute({1, 0}).reshape({8}).index_valid({var("k", 0, 7)});
  EXPECT_EQ(render(flat), "((k/2)+((k%2)*4))");
  EXPECT_TRUE(is_const(always, 1));
}

TEST(ShapeTracker, CanMergeAndRealStride) {
  const ShapeTracker p = ShapeTracker::contiguous({2, 3, 4}).permute({0, 2, 1});
  EXPECT_FALSE(p.can_merge(0));
  EXPECT_FALSE(p.can_merge(1));
  EXPECT_FALSE(p.can_merge(2));
  EXPECT_TRUE(ShapeTracker::contiguous({2, 3, 4}).can_merge(1));
  EXPECT_FALSE(ShapeTracker::contiguous({2, 1}).expand({2, 5}).can_merge(0));
  EXPECT_FALSE(ShapeTracker::contiguous({1, 2}).expand({5, 2}).can_merge(0));
  EXPECT_TRUE(ShapeTracker::contiguous({1, 1}).expand({5, 2}).can_merge(0));
  // A mask merges when the flattened dims keep it one interval.
  EXPECT_TRUE(ShapeTracker::contiguous({2, 3}).pad({{1, 1}, {0, 0}}).can_merge(0));
  EXPECT_FALSE(ShapeTracker::contiguous({2, 3}).pad({{0, 0}, {1, 1}}).can_merge(0));
  EXPECT_EQ(p.real_stride(1), 1);
  EXPECT_EQ(p.real_stride(2), 4);
  const ShapeTracker padded = ShapeTracker::contiguous({2, 3}).pad({{0, 0}, {1, 0}});
  EXPECT_EQ(padded.real_stride(0), 3);
  EXPECT_EQ(padded.real_stride(1), std::nullopt);
  const ShapeTracker two = p.reshape({24});
  EXPECT_EQ(two.views().size(), 2u);
  EXPECT_EQ(two.reshape({2, 12}).real_stride(0), 12);
  EXPECT_EQ(two.reshape({2, 12}).real_stride(1), std::nullopt);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "shape");
    return e.what();
  }
  return "no error";
}

TEST(ShapeTracker, Errors) {
  const ShapeTracker st = ShapeTracker::contiguous({2, 3});
  EXPECT_EQ(error_of([&] { st.reshape({4}); }), "cannot reshape (2, 3) to (4,)");
  EXPECT_EQ(error_of([&] { st.reshape({-2, -3}); }), "cannot reshape (2, 3) to (-2, -3): negative size");
  EXPECT_EQ(error_of([&] { st.permute({0, 0}); }), "cannot permute (2, 3) by (0, 0)");
  EXPECT_EQ(error_of([&] { st.permute({0}); }), "cannot permute (2, 3) by (0,)");
  EXPECT_EQ(error_of([&] { st.expand({4, 3}); }), "cannot expand (2, 3) to (4, 3)");
  EXPECT_EQ(error_of([&] { st.expand({2, 3, 1}); }), "cannot expand (2, 3) to (2, 3, 1)");
  EXPECT_EQ(error_of([&] { st.pad({{0, -1}, {0, 0}}); }), "cannot pad (2, 3) by ((0, -1), (0, 0))");
  EXPECT_EQ(error_of([&] { st.shrink({{0, 2}, {1, 4}}); }), "cannot shrink (2, 3) to ((0, 2), (1, 4))");
  EXPECT_EQ(error_of([&] { st.shrink({{1, 0}, {0, 3}}); }), "cannot shrink (2, 3) to ((1, 0), (0, 3))");
  EXPECT_EQ(error_of([&] { st.flip({true}); }), "cannot flip (2, 3) on 1 dims");
  EXPECT_EQ(error_of([&] { st.index_valid({cnst(0)}); }), "1 indices given for shape (2, 3)");
}

// The brute-force model: a tracker means, for every row-major position of its shape, a buffer index
// or -1 for "invalid". Each movement op is applied to that table directly.
struct Model {
  Shape shape;
  std::vector<int64_t> table;
};

using Index = std::vector<int64_t>;

Index unravel(int64_t flat, const Shape& shape) {
  Index idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
  return idx;
}

int64_t ravel(const Index& idx, const Shape& shape) {
  int64_t flat = 0;
  for (size_t k = 0; k < shape.size(); ++k) flat = flat * shape[k] + idx[k];
  return flat;
}

// Each new position reads the old position `source` names, or is invalid when it names none.
Model remap(const Model& m, const Shape& shape, const std::function<std::optional<Index>(const Index&)>& source) {
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

class Chains {
 public:
  explicit Chains(uint32_t seed) : rng_(seed) {}

  int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

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
    std::shuffle(order.begin(), order.end(), rng_);
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

  std::mt19937 rng_;
};

bool has_negative_numerator(const ExprRef& e, const std::vector<std::pair<std::string, int64_t>>& env) {
  const bool divides = e->op == ExprOp::Div || e->op == ExprOp::Mod;
  return (divides && evaluate(e->srcs[0], env) < 0) ||
         std::any_of(e->srcs.begin(), e->srcs.end(), [&](const ExprRef& s) { return has_negative_numerator(s, env); });
}

// Checks the tracker's index and validity at every position against the model, and that where an
// element is valid no division sees a negative numerator (C's truncating division would differ).
// Returns false on the first mismatch so that one broken chain reports once.
bool matches(const ShapeTracker& st, const Model& m, const std::string& trace) {
  if (st.shape() != m.shape) {
    ADD_FAILURE() << trace << ": shape " << shape_str(st.shape()) << " != " << shape_str(m.shape);
    return false;
  }
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
    if ((ok != 0 && ok != 1) || at != m.table[f] || negative) {
      ADD_FAILURE() << trace << "\n  tracker " << st.str() << "\n  index " << render(idx) << "\n  valid "
                    << render(valid) << fmt::format("\n  at {}: got {} (valid {}), want {}", i, at, ok, m.table[f])
                    << (negative ? ", negative numerator" : "");
      return false;
    }
  }
  return true;
}

// real_stride, when given, must step the buffer index by it between every pair of neighbours along
// the dim, and never between a valid and an invalid one.
bool stride_holds(const Model& m, size_t dim, int64_t stride) {
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

TEST(ShapeTracker, RandomChainsMatchBruteForce) {
  Chains chains(20240601);
  int checked = 0;
  for (int n = 0; n < 4000 && !::testing::Test::HasFailure(); ++n) {
    Traced t(chains.random_shape());
    for (int64_t length = chains.pick(1, 8); length > 0; --length) {
      const size_t views_before = t.st.views().size();
      t.apply(chains.random_step(t.m.shape));
      if (!matches(t.st, t.m, t.trace)) return;
      ++checked;
      EXPECT_LE(t.st.views().size(), views_before + 1) << t.trace;
      const View& v = t.st.views()[0];
      for (size_t k = 0; k < t.m.shape.size(); ++k) {
        const std::optional<int64_t> stride = t.st.real_stride(k);
        if (stride) {
          EXPECT_TRUE(stride_holds(t.m, k, *stride)) << t.trace << ": real_stride " << k;
        }
        if (t.st.views().size() == 1 && (!v.mask || (*v.mask)[k] == Range{0, v.shape[k]})) {
          EXPECT_EQ(stride, v.strides[k]) << t.trace << ": real_stride " << k;
        }
        if (!t.st.can_merge(k)) continue;
        const Shape merged = [&] {
          Shape s = t.m.shape;
          s[k] *= s[k + 1];
          s.erase(s.begin() + static_cast<std::ptrdiff_t>(k) + 1);
          return s;
        }();
        const ShapeTracker joined = t.st.reshape(merged);
        EXPECT_LE(joined.views().size(), t.st.views().size()) << t.trace << ": can_merge " << k;
        if (!matches(joined, Model{merged, t.m.table}, t.trace + " then merge " + std::to_string(k))) return;
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(ShapeTracker, RandomComposeMatchesBruteForce) {
  Chains chains(7);
  for (int n = 0; n < 1000 && !::testing::Test::HasFailure(); ++n) {
    Traced below(chains.random_shape());
    for (int64_t length = chains.pick(1, 5); length > 0; --length) below.apply(chains.random_step(below.m.shape));
    Traced top(below.m.shape);
    for (int64_t length = chains.pick(1, 5); length > 0; --length) top.apply(chains.random_step(top.m.shape));
    // The top chain's buffer is the lower chain's result, read row-major.
    Model both = top.m;
    for (int64_t& at : both.table) at = at < 0 ? -1 : below.m.table[at];
    const std::string trace = below.trace + " | " + top.trace;
    if (!matches(below.st.compose(top.st), both, trace)) return;
    std::vector<View> stacked = below.st.views();
    stacked.insert(stacked.end(), top.st.views().begin(), top.st.views().end());
    if (!matches(ShapeTracker(stacked), both, trace + " (unsimplified)")) return;
  }
}

}  // namespace
}  // namespace tr
