// Tensors sharded over CPU and CPU:1, with tinygrad's semantics: each op runs on each device, a reduce
// over the sharded axis all-reduces, movement ops keep each device's elements; every result against
// the same work on one device and against the reference evaluator, and the copies in the schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "core/runtime/device.h"
#include "core/lazy/lazy.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/multi.h"
#include "devices/host_memory.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

const std::vector<std::string> kTwo{"CPU", "CPU:1"};

Tensor random_tensor(const Shape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return testing::tensor(testing::random_values(rng, tr::prod(shape), DType::Float32, -2, 2), shape);
}

// x computed on several devices equals the same computation on one, and the reference.
::testing::AssertionResult same_as_one_device(const Tensor& sharded, const Tensor& single) {
  if (const auto r = testing::matches_reference(sharded); !r) return r;
  return testing::all_close(testing::values(sharded), testing::values(single), testing::tolerance_for(single.dtype()));
}

TEST(Shard, SplitsTheAxisIntoOnePiecePerDevice) {
  const Tensor x = random_tensor({4, 6}, 1);
  const Tensor s = x.shard(kTwo, 0);
  EXPECT_TRUE(s.is_multi());
  EXPECT_EQ(s.device(), "(CPU, CPU:1)");
  EXPECT_EQ(s.shape(), (Shape{4, 6}));
  EXPECT_EQ(s.shard_axis(), 0);
  ASSERT_EQ(s.shards().size(), 2U);
  EXPECT_EQ(s.shards()[0].device(), "CPU");
  EXPECT_EQ(s.shards()[1].device(), "CPU:1");
  EXPECT_EQ(s.shards()[1].shape(), (Shape{2, 6}));
  EXPECT_TRUE(same_as_one_device(s.shards()[1], x.shrink({Range{2, 4}, std::nullopt})));
  EXPECT_TRUE(same_as_one_device(s, x));
  // axis None: a whole copy on each device
  const Tensor r = x.shard(kTwo);
  EXPECT_EQ(r.shard_axis(), std::nullopt);
  EXPECT_EQ(r.shards()[1].shape(), (Shape{4, 6}));
  EXPECT_TRUE(same_as_one_device(r.shards()[1], x));
  // one device is a move to it
  EXPECT_FALSE(x.shard({"CPU:1"}).is_multi());
  EXPECT_EQ(x.shard({"cpu:1"}).device(), "CPU:1");
}

TEST(Shard, ElementwiseRunsOnEachDevice) {
  const Tensor x = random_tensor({4, 6}, 2), y = random_tensor({4, 6}, 3), b = random_tensor({6}, 4);
  const Tensor sx = x.shard(kTwo, 1), sy = y.shard(kTwo, 1);
  EXPECT_TRUE(same_as_one_device(sx.mul(sy).add(Tensor::scalar_like(sx, 1.5)).exp(), x.mul(y).add(Tensor::scalar_like(x, 1.5)).exp()));
  // a replicated operand gives each device its piece
  EXPECT_TRUE(same_as_one_device(sx.sub(b.shard(kTwo)), x.sub(b)));
  EXPECT_TRUE(same_as_one_device(sx.gt(sy).where(sx, sy.neg()), x.gt(y).where(x, y.neg())));
  EXPECT_TRUE(same_as_one_device(sx.cast(DType::Int32), x.cast(DType::Int32)));
  EXPECT_EQ(sx.mul(sy).shard_axis(), 1);
}

TEST(Shard, ReducesKeepOrAllReduceTheShardedAxis) {
  const Tensor x = random_tensor({4, 6}, 5);
  const Tensor s = x.shard(kTwo, 0);
  const Tensor rows = s.sum(std::vector<int>{1});
  EXPECT_EQ(rows.shard_axis(), 0);
  EXPECT_TRUE(same_as_one_device(rows, x.sum(std::vector<int>{1})));
  // over the sharded axis: a partial per device, then every device adds them all
  const Tensor cols = s.max(std::vector<int>{0});
  EXPECT_TRUE(cols.is_multi());
  EXPECT_EQ(cols.shard_axis(), std::nullopt);
  EXPECT_TRUE(same_as_one_device(cols, x.max(std::vector<int>{0})));
  EXPECT_TRUE(same_as_one_device(cols.shards()[1], x.max(std::vector<int>{0})));
  EXPECT_TRUE(same_as_one_device(s.sum(), x.sum()));
  EXPECT_TRUE(same_as_one_device(s.mean(), x.mean()));
  EXPECT_TRUE(same_as_one_device(s.softmax(1), x.softmax(1)));
  EXPECT_TRUE(same_as_one_device(s.softmax(0), x.softmax(0)));
}

TEST(Shard, MatmulShardedByRowsOrByTheReduceDim) {
  const Tensor a = random_tensor({8, 16}, 6), w = random_tensor({16, 4}, 7);
  const Tensor by_rows = a.shard(kTwo, 0).matmul(w.shard(kTwo));
  EXPECT_EQ(by_rows.shard_axis(), 0);
  EXPECT_TRUE(same_as_one_device(by_rows, a.matmul(w)));
  // both split along the reduce dim: each device multiplies its half, then the halves are added
  const Tensor by_k = a.shard(kTwo, 1).matmul(w.shard(kTwo, 0));
  EXPECT_EQ(by_k.shard_axis(), std::nullopt);
  EXPECT_TRUE(same_as_one_device(by_k, a.matmul(w)));
}

TEST(Shard, MovementKeepsEachDevicesElements) {
  const Tensor x = random_tensor({4, 6}, 8);
  const Tensor s = x.shard(kTwo, 0);
  EXPECT_TRUE(same_as_one_device(s.reshape({2, 12}), x.reshape({2, 12})));
  EXPECT_EQ(s.reshape({2, 2, 6}).shard_axis(), 0);
  EXPECT_EQ(s.reshape({1, 4, 6}).shard_axis(), 1);
  EXPECT_TRUE(same_as_one_device(s.permute({1, 0}), x.permute({1, 0})));
  EXPECT_EQ(s.permute({1, 0}).shard_axis(), 1);
  EXPECT_TRUE(same_as_one_device(s.reshape({4, 1, 6}).expand({4, 3, 6}), x.reshape({4, 1, 6}).expand({4, 3, 6})));
  EXPECT_TRUE(same_as_one_device(s.pad({{0, 0}, {1, 2}}), x.pad({{0, 0}, {1, 2}})));
  EXPECT_TRUE(same_as_one_device(s.flip({1}), x.flip({1})));
  EXPECT_TRUE(same_as_one_device(s.shrink({std::nullopt, Range{1, 4}}), x.shrink({std::nullopt, Range{1, 4}})));
  // part of the sharded axis: gathered, a whole copy on each device
  const Tensor row = s.getitem({int64_t{1}});
  EXPECT_EQ(row.shard_axis(), std::nullopt);
  EXPECT_TRUE(same_as_one_device(row, x.getitem({int64_t{1}})));
  EXPECT_TRUE(same_as_one_device(s.shrink({Range{1, 3}, std::nullopt}), x.shrink({Range{1, 3}, std::nullopt})));
  // what would move elements between devices is refused with the reason
  EXPECT_TRUE(testing::throws([&] { x.shard(kTwo, 1).reshape({24}); }, "shape", "would move elements between the devices"));
  EXPECT_TRUE(testing::throws([&] { s.pad({{1, 0}, {0, 0}}); }, "shape", "padding of the sharded axis 0"));
  EXPECT_TRUE(testing::throws([&] { s.flip({0}); }, "shape", "a flip of the sharded axis 0"));
}

TEST(Shard, ToGathersOnOneDevice) {
  const Tensor x = random_tensor({4, 6}, 9);
  const Tensor one = x.shard(kTwo, 1).to("CPU:1");
  EXPECT_FALSE(one.is_multi());
  EXPECT_EQ(one.device(), "CPU:1");
  EXPECT_TRUE(same_as_one_device(one, x));
  EXPECT_TRUE(same_as_one_device(x.to("(CPU, CPU:1)"), x));
  EXPECT_EQ(x.to("(CPU, CPU:1)").shard_axis(), std::nullopt);
  // the names of several devices are read as one device's are
  const Tensor r = x.to("(cpu:0, cpu:1)");
  EXPECT_EQ(r.device(), "(CPU, CPU:1)");
  EXPECT_TRUE(r.to("(cpu, CPU:1)").is(r));
  EXPECT_TRUE(same_as_one_device(Tensor::ones({2, 3}, DType::Float32, "(CPU, CPU:1)"), Tensor::ones({2, 3})));
}

TEST(Shard, ErrorsSayWhy) {
  const Tensor x = random_tensor({5, 4}, 10);
  EXPECT_TRUE(testing::throws([&] { x.shard(kTwo, 0); }, "shape", "axis 0 of size 5 does not split evenly over 2 devices"));
  const Tensor a = random_tensor({4, 4}, 11);
  EXPECT_TRUE(testing::throws([&] { a.shard(kTwo, 0).shard(kTwo, 1); }, "device", "already on (CPU, CPU:1)"));
  EXPECT_TRUE(testing::throws([&] { a.shard(kTwo, 0).add(a.shard(kTwo, 1)); }, "shape", "sharded on axes 0 and 1"));
  EXPECT_TRUE(testing::throws([&] { a.shard(kTwo, 0).add(a); }, "device", "operands are on (CPU, CPU:1) and CPU"));
}

// The copies between devices are items of the schedule, with their reasons.
TEST(Shard, CopiesBetweenDevicesAreScheduled) {
  Tensor x = random_tensor({4, 6}, 12);
  x.realize();
  const Tensor total = x.shard(kTwo, 0).sum(std::vector<int>{0});
  std::vector<LazyRef> outs;
  for (const Tensor& s : total.shards()) outs.push_back(base_of(s.contiguous().node()));
  int copies_between = 0;
  for (const ScheduleItem& item : create_schedule(outs)) {
    if (item.kind != ScheduleItem::Kind::Copy || item.inputs.empty()) continue;
    copies_between++;
    EXPECT_NE(item.inputs[0]->device, item.outputs[0]->device);
    EXPECT_NE(item.reason.find("a copy to"), std::string::npos) << item.reason;
  }
  // the piece for CPU:1, and each partial to the other device
  EXPECT_EQ(copies_between, 3);
}

TEST(Shard, GradientsReachEachShard) {
  const Tensor x = random_tensor({4, 6}, 13), w = random_tensor({6, 3}, 14);
  const Tensor sx = x.shard(kTwo, 0), sw = w.shard(kTwo);
  const Tensor loss = sx.matmul(sw).relu().sum();
  const std::vector<Tensor> g = loss.gradient({sx, sw});
  const std::vector<Tensor> expected = x.matmul(w).relu().sum().gradient({x, w});
  EXPECT_EQ(g[0].shard_axis(), 0);
  EXPECT_TRUE(same_as_one_device(g[0], expected[0]));
  EXPECT_TRUE(testing::all_close(testing::values(g[1]), testing::values(expected[1]), {1e-5, 1e-5}));
  // backward() fills .grad of the sharded tensors, each split as its tensor is
  loss.backward();
  ASSERT_TRUE(sx.grad() && sw.grad());
  EXPECT_EQ(sx.grad()->device(), "(CPU, CPU:1)");
  EXPECT_TRUE(testing::all_close(testing::values(*sx.grad()), testing::values(expected[0]), {1e-5, 1e-5}));
  EXPECT_TRUE(testing::all_close(testing::values(sw.grad()->shards()[1]), testing::values(expected[1]), {1e-5, 1e-5}));
}

// An optimizer's step on sharded weights writes each device's piece in place.
TEST(Shard, AssignWritesEachPiece) {
  const Tensor w = random_tensor({4, 2}, 15);
  Tensor s = w.shard(kTwo, 0);
  s.realize();
  const Tensor before = s.shards()[1];
  s.assign(s.mul(Tensor::scalar_like(s, 2.0)));
  s.realize();
  EXPECT_TRUE(testing::has_values(s, testing::values(w.mul(Tensor::scalar_like(w, 2.0)))));
  EXPECT_EQ(base_of(s.shards()[1].node())->buffer.get(), base_of(before.node())->buffer.get());
  EXPECT_TRUE(testing::throws([&] { s.assign(w.shard(kTwo, 1)); }, "shape", "split the same way"));
}

// MEET and MEET:1 run the CPU device's programs, but each run first waits (up to 10 s) for a run on
// the other instance to be under way too: they meet only when the two devices' queues run at once.
class Meeting : public HostMemoryDevice {
 public:
  explicit Meeting(int index) : HostMemoryDevice(device_name({"MEET", index}), "c") {}
  Target target() const override { return device("CPU").target(); }
  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    return std::make_unique<Meets>(device("CPU").compile(program, source, cached));
  }
  static int met() { return place().met; }

 private:
  struct Place {
    std::mutex mu;
    std::condition_variable cv;
    int arrived = 0, met = 0;
  };
  static Place& place() {
    static Place p;
    return p;
  }
  // runs arrive in pairs: the 1st and 2nd meet, then the 3rd and 4th, ...
  struct Meets : Program {
    explicit Meets(std::unique_ptr<Program> p) : program(std::move(p)) {}
    double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
      Place& p = place();
      {
        std::unique_lock lock(p.mu);
        const int pair_end = (++p.arrived + 1) / 2 * 2;
        p.cv.notify_all();
        if (p.cv.wait_for(lock, std::chrono::seconds(10), [&] { return p.arrived >= pair_end; })) p.met++;
      }
      return program->run(bufs, dims, vars);
    }
    std::unique_ptr<Program> program;
  };
};

// The two pieces of a sharded kernel run at once, each device's on its own queue, and :trace shows
// each device as its own track.
TEST(DeviceQueues, PiecesOnTwoDevicesRunAtOnce) {
  register_device({"MEET", [](int index) { return std::make_unique<Meeting>(index); }});
  const Tensor x = random_tensor({4, 6}, 16);
  const Tensor s = x.shard({"MEET", "MEET:1"}, 0);
  Tensor y = s.mul(Tensor::scalar_like(s, 3.0));
  const int met = Meeting::met();
  y.realize();
  EXPECT_EQ(Meeting::met(), met + 2);
  std::vector<std::string> tracks;
  for (const RunRecord& r : last_realization().runs)
    if (!r.is_copy && r.kernel.device != "CPU") tracks.push_back(r.kernel.device);
  std::sort(tracks.begin(), tracks.end());  // in the order they ended
  EXPECT_EQ(tracks, (std::vector<std::string>{"MEET", "MEET:1"}));
  // gathered by copies and a kernel on the CPU (a kernel on MEET alone would wait for a partner)
  EXPECT_TRUE(testing::has_values(y.to("CPU"), testing::values(x.mul(Tensor::scalar_like(x, 3.0)))));
}

}  // namespace
}  // namespace tr
