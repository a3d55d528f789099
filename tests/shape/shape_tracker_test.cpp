#include "core/shape/shape_tracker.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/base/error.h"
#include "tests/shape_model.h"

namespace tr {
namespace {

using namespace tr::testing;

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

// A top view that expands, permutes or shrinks the one below reads it through one view: a matmul's
// transposed operand broadcast over the rows of the other. One whose dims step over parts of a dim
// below, or over two dims at once, keeps both.
TEST(ShapeTracker, ComposeMergesATopThatMovesWholeDims) {
  const ShapeTracker w = ShapeTracker::contiguous({4, 16}).permute({1, 0}).reshape({1, 16, 4});
  EXPECT_EQ(w.str(), "(1,16,4):(0,1,16)");
  EXPECT_EQ(w.compose(ShapeTracker::contiguous({1, 16, 4}).expand({2, 16, 4})).str(), "(2,16,4):(0,1,16)");
  EXPECT_EQ(w.compose(ShapeTracker::contiguous({1, 16, 4}).permute({0, 2, 1})).str(), "(1,4,16):(0,16,1)");
  EXPECT_EQ(w.compose(ShapeTracker::contiguous({1, 16, 4}).shrink({{0, 1}, {2, 6}, {1, 3}})).str(), "(1,4,2):(0,1,16)+18");
  const ShapeTracker padded = ShapeTracker::contiguous({4, 2}).permute({1, 0}).pad({{1, 1}, {0, 0}});
  EXPECT_EQ(padded.compose(ShapeTracker::contiguous({4, 4}).shrink({{1, 3}, {0, 4}})).str(), "(2,4):(1,2)");
  EXPECT_EQ(w.compose(ShapeTracker::contiguous({1, 16, 4}).reshape({64}).expand({64}).reshape({8, 8})).views().size(), 2u);
}

// A shrink at the start of the leading dim is a contiguous view smaller than the one below: it merges
// into one view instead of indexing a prefix of the flat index space below (which, for a device's half
// of a 4096^3 matmul's expanded operand, reached 2^35 and passed 32-bit indices).
TEST(ShapeTracker, ComposeMergesAContiguousPrefix) {
  const ShapeTracker expanded = ShapeTracker::contiguous({1, 4, 4}).permute({0, 2, 1}).expand({4, 4, 4});
  const ShapeTracker first_half = ShapeTracker::contiguous({4, 4, 4}).shrink({{0, 2}, {0, 4}, {0, 4}});
  EXPECT_TRUE(first_half.contiguous());
  EXPECT_EQ(expanded.compose(first_half).str(), "(2,4,4):(0,1,4)");
  EXPECT_EQ(expanded.compose(ShapeTracker::contiguous({4, 4, 4}).shrink({{2, 4}, {0, 4}, {0, 4}})).str(), "(2,4,4):(0,1,4)");
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

// Checks st against the model, reporting the first mismatch with the ops that made them.
bool matches(const ShapeTracker& st, const Model& m, const std::string& trace) {
  const std::string why = mismatch(st, m);
  if (!why.empty()) ADD_FAILURE() << trace << ": " << why;
  return why.empty();
}

// Chains picking from a seeded generator.
Chains::Pick seeded(uint32_t seed) {
  return [rng = std::make_shared<std::mt19937>(seed)](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(*rng);
  };
}

TEST(ShapeTracker, RandomChainsMatchBruteForce) {
  Chains chains(seeded(20240601));
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
  Chains chains(seeded(7));
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
