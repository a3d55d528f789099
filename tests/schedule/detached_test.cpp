// A schedule kept after it ran (core/schedule/detached.h): it prints and lowers as the one that ran,
// and keeps none of the buffers or graphs of the tensors it ran for.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "core/realize/realize.h"
#include "core/schedule/detached.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"
#include "viz/schedule_view.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(Detached, KeptItemsPrintAndLowerAsTheOriginalsDo) {
  const Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3}).realize();
  const Tensor b = a.mul(a).sum(Axes{1});
  const std::vector<ScheduleItem> items = create_schedule({base_of(b.node())});
  const std::vector<ScheduleItem> kept = detached(items);
  EXPECT_EQ(print_schedule(kept), print_schedule(items));
  for (size_t i = 0; i < items.size(); i++) {
    if (items[i].kind != ScheduleItem::Kind::Kernel) continue;
    const KernelRecord original = lower(items[i], "CPU"), again = lower(kept[i], "CPU");
    EXPECT_EQ(*again.source, *original.source);
    EXPECT_EQ(*again.buffers, *original.buffers);
  }
}

TEST(Detached, KeptItemsHoldNoBufferMemoryAndNoGraph) {
  std::weak_ptr<Buffer> input, output;
  std::vector<ScheduleItem> kept;
  {
    const Tensor a = tensor({1, 2, 3, 4}).realize();
    const Tensor b = a.add(a).exp().realize();
    input = a.node()->buffer;
    output = base_of(b.node())->buffer;
    kept = detached(last_realization().schedule);
    ASSERT_EQ(kept.size(), 1u);
    for (const LazyRef& n : kept[0].inputs) {
      EXPECT_TRUE(n->srcs.empty());
      EXPECT_EQ(n->buffer->mem, nullptr);
    }
  }
  clear_history();  // the last realization holds the items it ran
  EXPECT_TRUE(input.expired());
  EXPECT_TRUE(output.expired());
  EXPECT_EQ(kept[0].outputs[0]->buffer->size, 4);
}

TEST(Detached, ANodeThatTwoItemsShareHasOneStandIn) {
  const Tensor a = tensor({1, 2, 3, 4}).realize();
  const Tensor m = a.mul(a).sum().contiguous();
  const Tensor c = a.sub(m).sum();
  const std::vector<ScheduleItem> kept = detached(create_schedule({base_of(c.node())}));
  ASSERT_EQ(kept.size(), 2u);
  const std::vector<LazyRef>& read = kept[1].inputs;
  EXPECT_TRUE(std::any_of(read.begin(), read.end(), [&](const LazyRef& n) { return n == kept[0].outputs[0]; }));
}

}  // namespace
}  // namespace tr
