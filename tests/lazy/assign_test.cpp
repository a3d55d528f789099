// Lazy assign, as tinygrad's: an ASSIGN node that writes its value into the target's buffer in place
// when it is realized, ordered after every kernel of its schedule that reads the old values.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using testing::values;

Tensor realized(const std::vector<double>& v) {
  Tensor t = testing::tensor(v, {static_cast<int64_t>(v.size())});
  t.realize();
  return t;
}

Tensor times(const Tensor& t, double c) { return t.mul(Tensor::scalar_like(t, c)); }

const Buffer* buffer(const Tensor& t) { return base_of(t.node())->buffer.get(); }

TEST(Assign, IsLazyAndWritesTheSameBufferInPlace) {
  const Tensor w = realized({1, 2});
  const Buffer* before = buffer(w);
  const Tensor alias = w;
  w.assign(times(w, 3));
  EXPECT_FALSE(w.realized());
  EXPECT_EQ(w.node()->op, Op::Assign);
  EXPECT_EQ(values(alias), (std::vector<double>{3, 6}));
  EXPECT_EQ(buffer(w), before);
  EXPECT_TRUE(w.node()->srcs.empty());  // realized, it is a leaf: what made the value is let go
}

TEST(Assign, KernelsThatReadTheOldValuesRunBeforeIt) {
  const Tensor w = realized({1, 2});
  const Tensor old_plus_one = w.add(Tensor::scalar_like(w, 1.0));  // made before the assign
  w.assign(times(w, 10));
  const Tensor after = w.add(Tensor::scalar_like(w, 1.0));  // made after: reads the new values
  Tensor::realize_together({after, old_plus_one, w});
  const std::vector<ScheduleItem> items = last_realization().schedule;
  EXPECT_EQ(values(old_plus_one), (std::vector<double>{2, 3}));
  EXPECT_EQ(values(after), (std::vector<double>{11, 21}));
  const auto writes = std::find_if(items.begin(), items.end(), [](const ScheduleItem& i) {
    return i.outputs[0]->op == Op::Assign;
  });
  ASSERT_NE(writes, items.end());
  EXPECT_NE(writes->reason.find("in place"), std::string::npos) << writes->reason;
  const auto reads_old = std::find_if(items.begin(), items.end(), [&](const ScheduleItem& i) {
    return i.outputs[0] == old_plus_one.node();
  });
  EXPECT_LT(reads_old - items.begin(), writes - items.begin());
}

TEST(Assign, AValueReadAtOtherPositionsIsComputedIntoItsOwnBufferFirst) {
  const Tensor w = realized({1, 2, 3});
  w.assign(w.flip({0}));
  EXPECT_EQ(count_kernels({w}), 2);
  Tensor::realize_together({w});
  const std::vector<ScheduleItem> items = last_realization().schedule;
  EXPECT_EQ(values(w), (std::vector<double>{3, 2, 1}));
  EXPECT_TRUE(std::any_of(items.begin(), items.end(), [](const ScheduleItem& i) {
    return i.reason.find("computed into its own buffer first") != std::string::npos;
  }));
}

// A reduce's kernel may keep partial results in its output (BLOCK) before its epilogue reads its
// inputs, so an assign whose value reduces and reads the target, even only where it writes (after
// the reduce), gets its own buffer first.
TEST(Assign, AReduceThatReadsItsTargetIsComputedIntoItsOwnBufferFirst) {
  Tensor w = testing::tensor({1, 2, 3, 4}, {2, 2}), a = testing::tensor({1, 2, 3, 4}, {2, 2});
  w.realize();
  a.realize();
  w.assign(w.add(a.matmul(a)));
  Tensor::realize_together({w});
  const std::vector<ScheduleItem> items = last_realization().schedule;
  EXPECT_EQ(values(w), (std::vector<double>{8, 12, 18, 26}));
  EXPECT_TRUE(std::any_of(items.begin(), items.end(), [](const ScheduleItem& i) {
    return i.reason.find("reduces and reads the buffer it overwrites") != std::string::npos;
  }));
}

TEST(Assign, AssignsToOneTensorRunInTheOrderMade) {
  const Tensor w = realized({1, 2});
  w.assign(w.add(Tensor::scalar_like(w, 1.0)));
  w.assign(times(w, 2));
  EXPECT_EQ(values(w), (std::vector<double>{4, 6}));
}

TEST(Assign, ManyAssignsAreOneSchedule) {
  const Tensor a = realized({1, 2}), b = realized({3, 4}), c = realized({5, 6});
  a.assign(times(a, 2));
  b.assign(b.add(a));  // reads a's new values
  c.assign(c.sub(b));  // and b's
  Tensor::realize_together({a, b, c});
  EXPECT_EQ(last_realization().schedule.size(), 3u);
  EXPECT_EQ(values(a), (std::vector<double>{2, 4}));
  EXPECT_EQ(values(b), (std::vector<double>{5, 8}));
  EXPECT_EQ(values(c), (std::vector<double>{0, -2}));
}

TEST(Assign, AViewIsWrittenAtOnceAndATensorNotRealizedBecomesTheValue) {
  const Tensor w = realized({0, 0, 0, 0});
  w.shrink({Range{1, 3}}).assign(Tensor::ones({2}));
  EXPECT_TRUE(w.realized());
  EXPECT_EQ(values(w), (std::vector<double>{0, 1, 1, 0}));
  const Tensor lazy = Tensor::zeros({2});
  lazy.assign(Tensor::ones({2}));
  EXPECT_NE(lazy.node()->op, Op::Assign);
  EXPECT_EQ(values(lazy), (std::vector<double>{1, 1}));
  EXPECT_TRUE(testing::throws([&] { w.assign(Tensor::ones({3})); }, "shape", "assign needs shape (4,), not (3,)"));
}

}  // namespace
}  // namespace tr
