// tinygrad's tensor functions beyond the core ops (core/tensor/: layout, logic, index,
// scan, sort, einsum, select and the rest of SPEC section 2) on the CPU device, under NOOPT and the default opts: values
// worked out here by hand or by plain loops, every result also against the reference evaluator,
// shapes, dtypes, empty tensors, negative dims, and the errors of bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <set>
#include <vector>

#include "core/tensor/copysign.h"
#include "core/tensor/div_rounding.h"
#include "core/tensor/einsum.h"
#include "core/tensor/hyperbolic.h"
#include "core/tensor/index.h"
#include "core/tensor/layout.h"
#include "core/tensor/logic.h"
#include "core/tensor/moments.h"
#include "core/tensor/own_buffer.h"
#include "core/tensor/random_derived.h"
#include "core/tensor/scan.h"
#include "core/tensor/select.h"
#include "core/tensor/sort.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

constexpr DType F16 = DType::Float16, F32 = DType::Float32, I8 = DType::Int8, U8 = DType::UInt8,
                I32 = DType::Int32, I64 = DType::Int64, Bool = DType::Bool;
const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

// The values, the shape and the dtype, and the same values from the reference evaluator.
::testing::AssertionResult is(const Tensor& t, const std::vector<double>& expected, const Shape& shape, DType dtype) {
  if (t.shape() != shape) return ::testing::AssertionFailure() << "shape " << shape_str(t.shape()) << ", expected " << shape_str(shape);
  if (t.dtype() != dtype) return ::testing::AssertionFailure() << "dtype " << name(t.dtype()) << ", expected " << name(dtype);
  const ::testing::AssertionResult r = matches_reference(t);
  if (!r) return r;
  return has_values(t, expected);
}

Tensor iota(const Shape& shape, DType t = F32) {
  return Tensor::arange(int64_t{0}, prod(shape), int64_t{1}, t).reshape(shape);
}

class Functions : public ::testing::TestWithParam<Opts> {
 protected:
  ScopedOpts opts{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Cpu, Functions, both_opts(), opts_name);

// ---- layout ----------------------------------------------------------------------------------

TEST_P(Functions, StackAddsADimAnywhere) {
  const Tensor a = tensor({1, 2}), b = tensor({3, 4});
  EXPECT_TRUE(is(stack({a, b}), {1, 2, 3, 4}, {2, 2}, F32));
  EXPECT_TRUE(is(stack({a, b}, 1), {1, 3, 2, 4}, {2, 2}, F32));
  EXPECT_TRUE(is(stack({a, b, a}, -1), {1, 3, 1, 2, 4, 2}, {2, 3}, F32));
  EXPECT_TRUE(is(stack({a.cast(I32), b.cast(I32)}), {1, 2, 3, 4}, {2, 2}, I32));
  EXPECT_TRUE(is(stack({Tensor::zeros({0}), Tensor::zeros({0})}), {}, {2, 0}, F32));
  EXPECT_TRUE(throws([&] { stack({a, tensor({1, 2, 3})}); }, "shape", "stack needs tensors of one shape, got (2,) and (3,)"));
  EXPECT_TRUE(throws([&] { stack({a, b}, 3); }, "index", "dimension 3 is out of range"));
}

TEST_P(Functions, SplitAndChunkAsTinygrad) {
  const Tensor x = iota({5, 2});
  const std::vector<Tensor> two = split(x, 2);
  ASSERT_EQ(two.size(), 3u);
  EXPECT_TRUE(is(two[2], {8, 9}, {1, 2}, F32));
  const std::vector<Tensor> sized = split(x, std::vector<int64_t>{1, 4}, 0);
  EXPECT_TRUE(is(sized[1], {2, 3, 4, 5, 6, 7, 8, 9}, {4, 2}, F32));
  EXPECT_TRUE(is(split(x, 1, -1)[1], {1, 3, 5, 7, 9}, {5, 1}, F32));
  EXPECT_EQ(chunk(iota({11}), 6).size(), 6u);
  EXPECT_EQ(chunk(iota({13}), 6).size(), 5u);  // chunks of 3: fewer than asked, as tinygrad
  EXPECT_TRUE(is(chunk(iota({13}), 6).back(), {12}, {1}, F32));
  EXPECT_EQ(chunk(Tensor::zeros({0}), 3).size(), 3u);
  EXPECT_TRUE(throws([&] { split(x, std::vector<int64_t>{1, 2}); }, "value", "split sizes must add up to the size 5"));
  EXPECT_TRUE(throws([&] { split(x, 0); }, "value", "split size must be positive"));
  EXPECT_TRUE(throws([&] { chunk(x, 0); }, "value", "positive number of chunks"));
}

TEST_P(Functions, UnflattenMeshgridRepeatInterleave) {
  EXPECT_EQ(unflatten(Tensor::ones({3, 4, 1}), 1, {2, 2}).shape(), (Shape{3, 2, 2, 1}));
  EXPECT_EQ(unflatten(Tensor::ones({3, 4, 1}), -2, {-1, 2}).shape(), (Shape{3, 2, 2, 1}));
  const std::vector<Tensor> ij = meshgrid({tensor({1, 2, 3}), tensor({4, 5})});
  EXPECT_TRUE(is(ij[0], {1, 1, 2, 2, 3, 3}, {3, 2}, F32));
  EXPECT_TRUE(is(ij[1], {4, 5, 4, 5, 4, 5}, {3, 2}, F32));
  const std::vector<Tensor> xy = meshgrid({tensor({1, 2, 3}), tensor({4, 5})}, true);
  EXPECT_TRUE(is(xy[0], {1, 2, 3, 1, 2, 3}, {2, 3}, F32));
  EXPECT_TRUE(is(xy[1], {4, 4, 4, 5, 5, 5}, {2, 3}, F32));
  EXPECT_TRUE(is(repeat_interleave(tensor({1, 2}), 3), {1, 1, 1, 2, 2, 2}, {6}, F32));
  EXPECT_TRUE(is(repeat_interleave(iota({2, 2}), 2, 1), {0, 0, 1, 1, 2, 2, 3, 3}, {2, 4}, F32));
  EXPECT_TRUE(is(repeat_interleave(iota({2, 2}), 2), {0, 0, 1, 1, 2, 2, 3, 3}, {8}, F32));
  EXPECT_TRUE(is(repeat_interleave(iota({2}), 0), {}, {0}, F32));
}

TEST_P(Functions, RollWrapsAroundBothWays) {
  const Tensor x = iota({2, 3});
  EXPECT_TRUE(is(roll(x, {1}, std::vector<int>{1}), {2, 0, 1, 5, 3, 4}, {2, 3}, F32));
  EXPECT_TRUE(is(roll(x, {-1}, std::vector<int>{-1}), {1, 2, 0, 4, 5, 3}, {2, 3}, F32));
  EXPECT_TRUE(is(roll(x, {2}), {4, 5, 0, 1, 2, 3}, {2, 3}, F32));  // flattened
  EXPECT_TRUE(is(roll(x, {1, 4}, std::vector<int>{0, 1}), {5, 3, 4, 2, 0, 1}, {2, 3}, F32));
  EXPECT_TRUE(is(roll(Tensor::zeros({0, 2}), {1}, std::vector<int>{0}), {}, {0, 2}, F32));
  EXPECT_TRUE(throws([&] { roll(x, {1, 2}, std::vector<int>{0}); }, "value", "one shift per dim"));
}

TEST_P(Functions, DiagTrilTriu) {
  EXPECT_TRUE(is(diag(tensor({1, 2, 3})), {1, 0, 0, 0, 2, 0, 0, 0, 3}, {3, 3}, F32));
  EXPECT_TRUE(is(diag(Tensor::zeros({0})), {}, {0, 0}, F32));
  const Tensor x = iota({3, 4}, I32).add(Tensor::scalar_like(iota({1}, I32), int64_t{1}));
  EXPECT_TRUE(is(triu(x), {1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}, {3, 4}, I32));
  EXPECT_TRUE(is(triu(x, 1), {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}, {3, 4}, I32));
  EXPECT_TRUE(is(tril(x), {1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}, {3, 4}, I32));
  EXPECT_TRUE(is(tril(x, -1), {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}, {3, 4}, I32));
  EXPECT_TRUE(is(tril(Tensor::ones({2, 2, 2}, Bool)), {1, 0, 1, 1, 1, 0, 1, 1}, {2, 2, 2}, Bool));
  EXPECT_TRUE(throws([&] { diag(x); }, "shape", "diag needs a 1-dim tensor, got shape (3, 4)"));
  EXPECT_TRUE(throws([&] { tril(tensor({1, 2})); }, "shape", "tril and triu need at least 2 dims"));
  EXPECT_EQ(count_kernels({tril(iota({4, 4}))}), 1);
}

TEST_P(Functions, UnfoldIsAViewOfWindows) {
  EXPECT_TRUE(is(unfold(iota({8}), 0, 2, 2), {0, 1, 2, 3, 4, 5, 6, 7}, {4, 2}, F32));
  EXPECT_TRUE(is(unfold(iota({5}), 0, 3, 1), {0, 1, 2, 1, 2, 3, 2, 3, 4}, {3, 3}, F32));
  const Tensor w = unfold(iota({3, 3, 3}), -1, 2, 3);
  EXPECT_EQ(w.shape(), (Shape{3, 3, 1, 2}));
  EXPECT_TRUE(matches_reference(w));
  const Tensor rows = unfold(iota({5, 2}), 0, 2, 2);  // windows of rows: (2, 2, 2), dim 0 replaced
  EXPECT_TRUE(is(rows, {0, 2, 1, 3, 4, 6, 5, 7}, {2, 2, 2}, F32));
  EXPECT_TRUE(throws([&] { unfold(iota({3}), 0, 4, 1); }, "value", "unfold size 4 is larger than the size 3"));
  EXPECT_TRUE(throws([&] { unfold(iota({3}), 0, 2, 0); }, "value", "unfold step must be > 0"));
}

TEST_P(Functions, PadModes) {
  const Tensor x = iota({1, 3});
  EXPECT_TRUE(is(pad(x, {{0, 0}, {2, 1}}, PadMode::Reflect), {2, 1, 0, 1, 2, 1}, {1, 6}, F32));
  EXPECT_TRUE(is(pad(x, {{0, 0}, {2, 1}}, PadMode::Replicate), {0, 0, 0, 1, 2, 2}, {1, 6}, F32));
  EXPECT_TRUE(is(pad(x, {{0, 0}, {2, 1}}, PadMode::Circular), {1, 2, 0, 1, 2, 0}, {1, 6}, F32));
  EXPECT_TRUE(is(pad(x, {{1, 0}, {1, -1}}, PadMode::Constant, 9.0), {9, 9, 9, 9, 0, 1}, {2, 3}, F32));
  EXPECT_TRUE(is(pad(x, {{0, 0}, {1, -2}}, PadMode::Reflect), {1, 0}, {1, 2}, F32));
  const Tensor m = iota({2, 2});
  EXPECT_TRUE(is(pad(m, {{1, 1}, {1, 1}}, PadMode::Replicate), {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}, {4, 4}, F32));
  EXPECT_TRUE(throws([&] { pad(x, {{0, 0}, {3, 0}}, PadMode::Reflect); }, "value", "reflect padding (3, 0) must be less than the size 3"));
  EXPECT_TRUE(throws([&] { pad(x, {{0, 0}, {4, 0}}, PadMode::Circular); }, "value", "wraps around dim 1 of size 3 more than once"));
  EXPECT_TRUE(throws([&] { pad(x, {{0, 0}}, PadMode::Reflect); }, "shape", "for each of the 2 dims"));
}

// ---- tests, clamps, truth reductions, bitwise ------------------------------------------------

TEST_P(Functions, ClipAndMaskedFill) {
  const Tensor x = tensor({-2, -0.5, 0.5, 3});
  const Tensor lo = Tensor::scalar_like(x, -1.0), hi = Tensor::scalar_like(x, 1.0);
  EXPECT_TRUE(is(clip(x, lo, hi), {-1, -0.5, 0.5, 1}, {4}, F32));
  EXPECT_TRUE(is(clip(x, std::nullopt, hi), {-2, -0.5, 0.5, 1}, {4}, F32));
  const Tensor ints = tensor({-3, 0, 7}, I32);
  EXPECT_TRUE(is(clip(ints, Tensor::scalar_like(ints, int64_t{-1}), Tensor::scalar_like(ints, int64_t{5})), {-1, 0, 5}, {3}, I32));
  // a float bound on an int tensor promotes, as where() does
  EXPECT_TRUE(is(clip(ints, Tensor::scalar_like(ints, 0.5), std::nullopt), {0.5, 0.5, 7}, {3}, F32));
  EXPECT_TRUE(throws([&] { clip(x, std::nullopt, std::nullopt); }, "value", "at least one of min_ and max_"));
  const Tensor mask = tensor({1, 0, 1, 0}, Bool);
  EXPECT_TRUE(is(masked_fill(x, mask, Tensor::scalar_like(x, -kInf)), {-kInf, -0.5, -kInf, 3}, {4}, F32));
  EXPECT_TRUE(is(masked_fill(ints, tensor({0, 1, 0}, Bool), Tensor::scalar_like(ints, int64_t{9})), {-3, 9, 7}, {3}, I32));
}

TEST_P(Functions, NanInfFiniteClose) {
  const Tensor x = tensor({1, kNan, kInf, -kInf, 0});
  EXPECT_TRUE(is(isnan(x), {0, 1, 0, 0, 0}, {5}, Bool));
  EXPECT_TRUE(is(isinf(x), {0, 0, 1, 1, 0}, {5}, Bool));
  EXPECT_TRUE(is(isinf(x, false, true), {0, 0, 0, 1, 0}, {5}, Bool));
  EXPECT_TRUE(is(isfinite(x), {1, 0, 0, 0, 1}, {5}, Bool));
  EXPECT_TRUE(is(isnan(tensor({1, 2}, I32)), {0, 0}, {2}, Bool));
  const Tensor a = tensor({1e-7, 1e-8, 1e-9, kNan, kInf}), b = tensor({0, 0, 0, kNan, kInf});
  EXPECT_TRUE(is(isclose(a, b), {0, 1, 1, 0, 1}, {5}, Bool));
  EXPECT_TRUE(is(isclose(a, b, 1e-5, 1e-8, true), {0, 1, 1, 1, 1}, {5}, Bool));
  EXPECT_TRUE(is(isclose(tensor({100, 101}), tensor({100.5, 100.5}), 0.01, 0), {1, 1}, {2}, Bool));
}

TEST_P(Functions, AnyAllIncludingEmpty) {
  const Tensor x = tensor({0, 1, 0, 0, 0, 0}, {2, 3}, I32);
  EXPECT_TRUE(is(any(x), {1}, {}, Bool));
  EXPECT_TRUE(is(all(x), {0}, {}, Bool));
  EXPECT_TRUE(is(any(x, std::vector<int>{1}), {1, 0}, {2}, Bool));
  EXPECT_TRUE(is(all(x.logical_not(), std::vector<int>{-1}, true), {0, 1}, {2, 1}, Bool));
  EXPECT_TRUE(is(any(tensor({0.0, -0.0, 0.5})), {1}, {}, Bool));
  EXPECT_TRUE(is(any(Tensor::zeros({0})), {0}, {}, Bool));
  EXPECT_TRUE(is(all(Tensor::zeros({0})), {1}, {}, Bool));
  EXPECT_TRUE(is(all(Tensor::zeros({2, 0}), std::vector<int>{1}), {1, 1}, {2}, Bool));
  EXPECT_TRUE(throws([&] { any(x, std::vector<int>{2}); }, "index", "axis 2 is out of range"));
}

TEST_P(Functions, BitwiseOps) {
  const Tensor a = tensor({2, 5, 255}, I32), b = tensor({3, 14, 16}, I32);
  EXPECT_TRUE(is(bitwise_and(a, b), {2, 4, 16}, {3}, I32));
  EXPECT_TRUE(is(bitwise_or(a, b), {3, 15, 255}, {3}, I32));
  EXPECT_TRUE(is(bitwise_xor(a, b), {1, 11, 239}, {3}, I32));
  EXPECT_TRUE(is(bitwise_not(tensor({0, 2, 5, -1}, I8)), {-1, -3, -6, 0}, {4}, I8));
  EXPECT_TRUE(is(bitwise_not(tensor({0, 2, 255}, U8)), {255, 253, 0}, {3}, U8));
  EXPECT_TRUE(is(bitwise_not(tensor({1, 0}, Bool)), {0, 1}, {2}, Bool));
  EXPECT_TRUE(is(bitwise_and(tensor({1, 1, 0}, Bool), tensor({1, 0, 0}, Bool)), {1, 0, 0}, {3}, Bool));
  EXPECT_TRUE(is(lshift(tensor({1, 3, 31}, U8), 2), {4, 12, 124}, {3}, U8));
  EXPECT_TRUE(is(rshift(tensor({4, 13, 125}, U8), 2), {1, 3, 31}, {3}, U8));
  EXPECT_TRUE(is(rshift(tensor({-5, 5}, I32), 1), {-3, 2}, {2}, I32));  // arithmetic: floors
  EXPECT_TRUE(is(lshift(tensor({1}, I64), 40), {1099511627776.0}, {1}, I64));
  EXPECT_TRUE(is(rshift(tensor({-1, 1}, I64).mul(tensor({4611686018427387904.0}, I64)), 62), {-1, 1}, {2}, I64));
  EXPECT_TRUE(is(rshift(tensor({-5, 5}, I64), 63), {-1, 0}, {2}, I64));
  // by a tensor of counts, broadcast with x
  const Tensor counts = tensor({0, 1, 7, 31}, I32);
  EXPECT_TRUE(is(lshift(tensor({3}, I32), counts), {3, 6, 384, -2147483648.0}, {4}, I32));
  EXPECT_TRUE(is(rshift(tensor({-1024}, I32), counts), {-1024, -512, -8, -1}, {4}, I32));
  EXPECT_TRUE(is(rshift(tensor({255}, U8), tensor({0, 4, 7}, U8)), {255, 15, 1}, {3}, U8));
  EXPECT_TRUE(throws([&] { lshift(tensor({1}, I32), tensor({1.0})); }, "type", "<< needs integer shift counts, not float32"));
  EXPECT_TRUE(throws([&] { bitwise_and(tensor({1.5}), tensor({1.0})); }, "type", "bitwise_and needs bool or integer tensors, not float32"));
  EXPECT_TRUE(throws([&] { bitwise_not(tensor({1.5})); }, "type", "bitwise_not needs bool or integer tensors"));
  EXPECT_TRUE(throws([&] { lshift(tensor({1.5}), 1); }, "type", "<< needs an integer tensor, not float32"));
  EXPECT_TRUE(throws([&] { lshift(tensor({1}, U8), 8); }, "value", "<< by 8 bits is out of range for uint8"));
}

// ---- indexing by tensors ---------------------------------------------------------------------

TEST_P(Functions, OneHot) {
  EXPECT_TRUE(is(one_hot(tensor({0, 1, 3, 3, 4}, I32), 5),
                 {1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}, {5, 5}, I32));
  EXPECT_TRUE(is(one_hot(tensor({-1, 2}, I32), 2), {0, 0, 0, 0}, {2, 2}, I32));  // out of range: all zero
  EXPECT_TRUE(is(one_hot(Tensor::zeros({0}, I32), 3), {}, {0, 3}, I32));
  EXPECT_TRUE(throws([&] { one_hot(tensor({1.0}), 2); }, "type", "one_hot's tensor must be an integer tensor, not float32"));
  EXPECT_TRUE(throws([&] { one_hot(tensor({1}, I32), -1); }, "value", "num_classes must not be negative"));
}

TEST_P(Functions, GatherAlongEitherDim) {
  const Tensor x = tensor({1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(is(gather(x, 1, tensor({0, 0, 1, 0}, {2, 2}, I32)), {1, 1, 4, 3}, {2, 2}, F32));
  EXPECT_TRUE(is(gather(x, 0, tensor({1, 0}, {1, 2}, I32)), {3, 2}, {1, 2}, F32));
  EXPECT_TRUE(is(gather(x, -1, tensor({1, 1, 1, 0, 0, 0}, {2, 3}, I64)), {2, 2, 2, 3, 3, 3}, {2, 3}, F32));
  EXPECT_TRUE(is(gather(x.cast(F16), 1, tensor({1, 0}, {2, 1}, I32)), {2, 3}, {2, 1}, F16));
  EXPECT_TRUE(is(gather(x, 1, Tensor::zeros({2, 0}, I32)), {}, {2, 0}, F32));
  // an infinity elsewhere in the row does not leak into the picked value
  EXPECT_TRUE(is(gather(tensor({kInf, 1}, {1, 2}), 1, tensor({1}, {1, 1}, I32)), {1}, {1, 1}, F32));
  EXPECT_TRUE(throws([&] { gather(x, 1, tensor({0, 1}, I32)); }, "shape", "gather needs an index of 2 dims like the tensor, got shape (2,)"));
  EXPECT_TRUE(throws([&] { gather(x, 1, tensor({0.0, 1.0}, {1, 2})); }, "type", "gather's index must be an integer tensor"));
  EXPECT_TRUE(throws([&] { gather(x, 2, tensor({0}, {1, 1}, I32)); }, "index", "dimension 2 is out of range"));
  EXPECT_TRUE(throws([&] { gather(x, 1, Tensor::zeros({3, 1}, I32)); }, "shape", "larger than the tensor's (2, 2) on dim 0"));
}

TEST_P(Functions, ScatterLastWriteWinsAndReduces) {
  const Tensor src = iota({2, 5}, I32).add(Tensor::full({}, int64_t{1}, I32));
  EXPECT_TRUE(is(scatter(Tensor::zeros({3, 5}, I32), 0, tensor({0, 1, 2, 0}, {1, 4}, I32), src),
                 {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0}, {3, 5}, I32));
  EXPECT_TRUE(is(scatter(Tensor::zeros({3, 5}, I32), 1, tensor({0, 1, 2, 0, 1, 4}, {2, 3}, I32), src),
                 {1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0}, {3, 5}, I32));
  // repeated indices: the later position wins
  EXPECT_TRUE(is(scatter(Tensor::zeros({1, 3}), 1, tensor({1, 1}, {1, 2}, I32), tensor({5, 6}, {1, 2})), {0, 6, 0}, {1, 3}, F32));
  const Tensor twos = Tensor::full({2, 4}, 2.0);
  const Tensor idx = tensor({2, 3}, {2, 1}, I32);
  EXPECT_TRUE(is(scatter(twos, 1, idx, Tensor::full({2, 1}, 1.5), ScatterReduce::Add), {2, 2, 3.5, 2, 2, 2, 2, 3.5}, {2, 4}, F32));
  EXPECT_TRUE(is(scatter(twos, 1, idx, Tensor::full({2, 1}, 1.5), ScatterReduce::Multiply), {2, 2, 3, 2, 2, 2, 2, 3}, {2, 4}, F32));
  EXPECT_TRUE(throws([&] { scatter(twos, 1, idx, Tensor::full({2, 1}, int64_t{1}, I32)); }, "type", "scatter needs src of the tensor's dtype float32, not int32"));
  EXPECT_TRUE(throws([&] { scatter(twos, 1, idx, Tensor::full({1, 1}, 1.0)); }, "shape", "larger than src's (1, 1)"));
}

TEST_P(Functions, FancyIndexingAsTinygrad) {
  const Tensor t = iota({3, 4});
  const auto idx = [](std::vector<double> v) { return tensor(v, I32); };
  // t[[2, 0, 1], [1, 2, 3]]
  EXPECT_TRUE(is(getitem(t, {Slice{}, Slice{}}, {{0, idx({2, 0, 1})}, {1, idx({1, 2, 3})}}), {9, 2, 7}, {3}, F32));
  // t[[2, 0]] picks rows; a negative index counts from the end; out of range gives 0
  EXPECT_TRUE(is(getitem(t, {Slice{}}, {{0, idx({2, -3})}}), {8, 9, 10, 11, 0, 1, 2, 3}, {2, 4}, F32));
  EXPECT_TRUE(is(getitem(tensor({1, 2, 3}), {Slice{}}, {{0, idx({4, 3, 2})}}), {0, 0, 3}, {3}, F32));
  // t[:, idx] with a 2-d index tensor
  EXPECT_TRUE(is(getitem(t, {Slice{}, Slice{}}, {{1, tensor({0, 3, 1, 1}, {2, 2}, I32)}}),
                 {0, 3, 1, 1, 4, 7, 5, 5, 8, 11, 9, 9}, {3, 2, 2}, F32));
  // mixed with an int and a slice: t[1, idx] and t[idx, 1:3]
  EXPECT_TRUE(is(getitem(t, {int64_t{1}, Slice{}}, {{1, idx({3, 0})}}), {7, 4}, {2}, F32));
  EXPECT_TRUE(is(getitem(t, {Slice{}, Slice{1, 3, std::nullopt}}, {{0, idx({2})}}), {9, 10}, {1, 2}, F32));
  // index tensors apart from each other: their dims go first
  const Tensor u = iota({2, 3, 4});
  EXPECT_TRUE(is(getitem(u, {Slice{}, Slice{}, Slice{}}, {{0, idx({1, 0})}, {2, idx({3, 0})}}), {15, 19, 23, 0, 4, 8}, {2, 3}, F32));
  EXPECT_TRUE(is(getitem(t.cast(I8), {Slice{}}, {{0, idx({1})}}), {4, 5, 6, 7}, {1, 4}, I8));
  EXPECT_TRUE(is(getitem(t, {Slice{}}, {{0, Tensor::zeros({0}, I32)}}), {}, {0, 4}, F32));
  EXPECT_TRUE(throws([&] { getitem(t, {Slice{}}, {{0, tensor({1.0})}}); }, "index", "an index tensor must be of an integer dtype, not float32"));
  EXPECT_TRUE(throws([&] { getitem(t, {Slice{}, Slice{}}, {{0, idx({1, 2})}, {1, idx({1, 2, 3})}}); }, "shape", "cannot broadcast (2,) with (3,)"));
}

// ---- scans -----------------------------------------------------------------------------------

TEST_P(Functions, CumsumCumprodCummax) {
  const Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(is(cumsum(x, 1), {1, 3, 6, 4, 9, 15}, {2, 3}, F32));
  EXPECT_TRUE(is(cumsum(x), {1, 2, 3, 5, 7, 9}, {2, 3}, F32));
  EXPECT_TRUE(is(cumsum(x, -1), {1, 3, 6, 4, 9, 15}, {2, 3}, F32));
  EXPECT_TRUE(is(cumsum(tensor({1, 1, 0}, Bool)), {1, 2, 2}, {3}, I32));
  EXPECT_TRUE(is(cumsum(tensor({100, 100}, I8)), {100, 200}, {2}, I32));  // accumulates as sum does
  EXPECT_TRUE(is(cumsum(x.cast(F16), 1), {1, 3, 6, 4, 9, 15}, {2, 3}, F16));
  EXPECT_TRUE(is(cumsum(tensor({1, kInf, 2})), {1, kInf, kInf}, {3}, F32));
  EXPECT_TRUE(is(cumsum(Tensor::zeros({0}, I8)), {}, {0}, I32));
  EXPECT_TRUE(is(cumsum(Tensor::full({}, 3.0)), {3}, {}, F32));
  EXPECT_TRUE(is(cumprod(x, 1), {1, 2, 6, 4, 20, 120}, {2, 3}, F32));
  EXPECT_TRUE(is(cumprod(tensor({2, 3, 4}, I8), 0), {2, 6, 24}, {3}, I8));
  const auto [values, indices] = cummax(tensor({0, 1, -1, 2, -2, 3, -3}));
  EXPECT_TRUE(is(values, {0, 1, 1, 2, 2, 3, 3}, {7}, F32));
  EXPECT_TRUE(is(indices, {0, 1, 1, 3, 3, 5, 5}, {7}, I32));
  const auto [v2, i2] = cummax(tensor({1, 3, 3, 2}, {2, 2}, I32), 1);
  EXPECT_TRUE(is(v2, {1, 3, 3, 3}, {2, 2}, I32));
  EXPECT_TRUE(is(i2, {0, 1, 0, 0}, {2, 2}, I32));
  EXPECT_TRUE(throws([&] { cumsum(x, 2); }, "index", "dimension 2 is out of range for a tensor of 2 dims"));
}

TEST_P(Functions, LongScansRunInTwoLevels) {
  const int64_t n = 1500;
  const Tensor x = Tensor::ones({2, n}).mul(Tensor::arange(int64_t{0}, n, int64_t{1}, F32).mod(Tensor::full({}, 7.0)));
  std::vector<double> expected;
  for (int r = 0; r < 2; r++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) expected.push_back(s += static_cast<double>(i % 7));
  }
  EXPECT_TRUE(is(cumsum(x, 1), expected, {2, n}, F32));
  const auto [values, indices] = cummax(Tensor::arange(int64_t{0}, n, int64_t{1}, I32).mod(Tensor::full({}, int64_t{600}, I32)));
  std::vector<double> vs, is_;
  for (int64_t i = 0; i < n; i++) {
    vs.push_back(static_cast<double>(std::min<int64_t>(i, 599)));
    is_.push_back(static_cast<double>(std::min<int64_t>(i, 599)));
  }
  EXPECT_TRUE(is(values, vs, {n}, I32));
  EXPECT_TRUE(is(indices, is_, {n}, I32));
}

TEST_P(Functions, ScansAreOneOrTwoKernels) {
  EXPECT_EQ(count_kernels({cumsum(Tensor::ones({64}).contiguous().realize())}), 1);
  EXPECT_LE(count_kernels({cumsum(Tensor::ones({4000}).contiguous().realize())}), 3);
}

// ---- sorting ---------------------------------------------------------------------------------

TEST_P(Functions, SortIsStableBothWays) {
  const Tensor x = tensor({0.1, 0.5, 1.2, 3.4, 2.1, 2.2, 1.9, 0.3, 4.5, 0.8}, {2, 5});
  const auto [v, i] = sort(x, 1, true);
  EXPECT_TRUE(is(v, {3.4, 2.1, 1.2, 0.5, 0.1, 4.5, 2.2, 1.9, 0.8, 0.3}, {2, 5}, F32));
  EXPECT_TRUE(is(i, {3, 4, 2, 1, 0, 3, 0, 1, 4, 2}, {2, 5}, I32));
  const auto [v0, i0] = sort(tensor({3, 1, 3, 1, 2}, I32));
  EXPECT_TRUE(is(v0, {1, 1, 2, 3, 3}, {5}, I32));
  EXPECT_TRUE(is(i0, {1, 3, 4, 0, 2}, {5}, I32));  // equal elements keep their order
  const auto [vd, id] = sort(tensor({3, 1, 3, 1, 2}, I32), -1, true);
  EXPECT_TRUE(is(id, {0, 2, 4, 1, 3}, {5}, I32));
  EXPECT_TRUE(is(argsort(tensor({2, 3, 4, 1, 1, 4, 3, 2}, {2, 4}), 0), {1, 0, 1, 0, 0, 1, 0, 1}, {2, 4}, I32));
  EXPECT_TRUE(is(sort(tensor({-kInf, kInf, 0})).first, {-kInf, 0, kInf}, {3}, F32));
  EXPECT_TRUE(is(sort(tensor({5})).second, {0}, {1}, I32));
  EXPECT_TRUE(is(sort(Tensor::zeros({2, 0})).first, {}, {2, 0}, F32));
  EXPECT_TRUE(throws([&] { sort(x, 2); }, "index", "dimension 2 is out of range"));
}

TEST_P(Functions, Topk) {
  const Tensor x = tensor({0.1, 0.5, 1.2, 3.4, 2.1, 2.2, 1.9, 0.3, 4.5, 0.8}, {2, 5});
  const auto [v, i] = topk(x, 2, 1);
  EXPECT_TRUE(is(v, {3.4, 2.1, 4.5, 2.2}, {2, 2}, F32));
  EXPECT_TRUE(is(i, {3, 4, 3, 0}, {2, 2}, I32));
  const auto [vs, is_] = topk(x, 1, 0, false);
  EXPECT_TRUE(is(vs, {0.1, 0.5, 0.3, 3.4, 0.8}, {1, 5}, F32));
  EXPECT_TRUE(is(is_, {0, 0, 1, 0, 1}, {1, 5}, I32));
  EXPECT_TRUE(is(topk(x, 0).first, {}, {2, 0}, F32));
  EXPECT_TRUE(throws([&] { topk(x, 6); }, "value", "topk's k = 6 is out of range for a dim of size 5"));
}

// ---- einsum ----------------------------------------------------------------------------------

TEST_P(Functions, EinsumContractions) {
  const Tensor a = tensor({1, 2, 3, 4}, {2, 2}), b = tensor({5, 6, 7, 8}, {2, 2});
  EXPECT_TRUE(is(einsum("ij,ij->", {a, b}), {70}, {}, F32));
  EXPECT_TRUE(is(einsum("ij,jk->ik", {a, b}), {19, 22, 43, 50}, {2, 2}, F32));
  EXPECT_TRUE(is(einsum("ij,jk", {a, b}), {19, 22, 43, 50}, {2, 2}, F32));
  EXPECT_TRUE(is(einsum("ij->ji", {a}), {1, 3, 2, 4}, {2, 2}, F32));
  EXPECT_TRUE(is(einsum("ii->i", {a}), {1, 4}, {2}, F32));
  EXPECT_TRUE(is(einsum("ii", {a}), {5}, {}, F32));
  EXPECT_TRUE(is(einsum("i,j->ij", {tensor({1, 2}), tensor({3, 4, 5})}), {3, 4, 5, 6, 8, 10}, {2, 3}, F32));
  const Tensor x = iota({2, 2, 3}), y = iota({2, 3, 2});
  EXPECT_TRUE(is(einsum("bij,bjk->bik", {x, y}), {10, 13, 28, 40, 172, 193, 244, 274}, {2, 2, 2}, F32));
  EXPECT_TRUE(is(einsum("...ij,...jk", {x, y}), {10, 13, 28, 40, 172, 193, 244, 274}, {2, 2, 2}, F32));
  EXPECT_TRUE(is(einsum("b i j, b j k -> b k i", {x, y}), {10, 28, 13, 40, 172, 244, 193, 274}, {2, 2, 2}, F32));
  EXPECT_TRUE(is(einsum("ij,jk->ik", {a.cast(I32), b.cast(I32)}), {19, 22, 43, 50}, {2, 2}, I32));
  EXPECT_EQ(count_kernels({einsum("bij,bjk->bik", {x.contiguous().realize(), y.contiguous().realize()})}), 1);
  EXPECT_TRUE(throws([&] { einsum("ij,jk->ik", {a}); }, "value", "einsum formula has 2 operands, got 1 tensors"));
  EXPECT_TRUE(throws([&] { einsum("ijk->i", {a}); }, "shape", "einsum operand 0 has 2 dims but 'ijk' names 3"));
  EXPECT_TRUE(throws([&] { einsum("ij,jk->ik", {a, iota({3, 2})}); }, "shape", "einsum letter 'j' has size 2 in one operand and 3 in another"));
  EXPECT_TRUE(throws([&] { einsum("ij->z", {a}); }, "value", "einsum output letter 'z' is in no operand"));
}

// ---- scatter_reduce, pooling indices, linear, dropout -----------------------------------------

TEST_P(Functions, ScatterReduceEveryReduceAsTinygrad) {
  const Tensor src = iota({2, 5}).add(Tensor::scalar_like(iota({2, 5}), int64_t{1}));
  const Tensor index = Tensor::zeros({2, 5}, I32);
  const Tensor one = Tensor::ones({1, 5});
  EXPECT_TRUE(is(scatter_reduce(one, 0, index, src, ScatterReduceOp::Sum), {8, 10, 12, 14, 16}, {1, 5}, F32));
  EXPECT_TRUE(is(scatter_reduce(one, 0, index, src, ScatterReduceOp::Prod), {6, 14, 24, 36, 50}, {1, 5}, F32));
  EXPECT_TRUE(is(scatter_reduce(one, 0, index, src, ScatterReduceOp::Mean, false), {3.5, 4.5, 5.5, 6.5, 7.5}, {1, 5}, F32));
  const Tensor base = tensor({-10, 20, 0, 5, 10}).reshape({1, 5});
  EXPECT_TRUE(is(scatter_reduce(base, 0, index, src, ScatterReduceOp::Amax), {6, 20, 8, 9, 10}, {1, 5}, F32));
  EXPECT_TRUE(is(scatter_reduce(base, 0, index, src, ScatterReduceOp::Amin), {-10, 2, 0, 4, 5}, {1, 5}, F32));
  // positions no index names keep x's value, with include_self or without
  const Tensor z = Tensor::zeros({2, 4}, I32).add(Tensor::full({}, int64_t{7}, I32));
  const Tensor idx = tensor({0, 2, 0, 1, 1, 2}).cast(I32).reshape({2, 3});
  const Tensor vals = tensor({5, 6, 7, 8, 9, 10}).cast(I32).reshape({2, 3});
  EXPECT_TRUE(is(scatter_reduce(z, 1, idx, vals, ScatterReduceOp::Amin, false), {5, 7, 6, 7, 7, 8, 10, 7}, {2, 4}, I32));
  EXPECT_TRUE(is(scatter_reduce(z, 1, idx, vals, ScatterReduceOp::Mean), {19.0 / 3, 7, 6.5, 7, 7, 8, 8.5, 7}, {2, 4}, F32));
  EXPECT_TRUE(is(scatter_reduce(Tensor::zeros({0, 4}), 0, Tensor::zeros({0, 4}, I32), Tensor::zeros({0, 4}),
                                ScatterReduceOp::Sum), {}, {0, 4}, F32));
  EXPECT_TRUE(throws([&] { scatter_reduce(one, 0, index, src.cast(I32), ScatterReduceOp::Sum); }, "type",
                     "scatter_reduce needs src of the tensor's dtype float32, not int32"));
}

TEST_P(Functions, MaxPoolIndicesAndUnpool) {
  const Tensor x = tensor({1, 5, 2, 0, 3, 4, 9, 1, 0, 0, 7, 8, 2, 6, 1, 1}).reshape({1, 1, 4, 4});
  const auto [v, i] = x.max_pool2d_with_indices();
  EXPECT_TRUE(is(v, {5, 9, 6, 8}, {1, 1, 2, 2}, F32));
  EXPECT_TRUE(is(i, {1, 6, 13, 11}, {1, 1, 2, 2}, I32));
  EXPECT_TRUE(is(v.max_unpool2d(i), {0, 5, 0, 0, 0, 0, 9, 0, 0, 0, 0, 8, 0, 6, 0, 0}, {1, 1, 4, 4}, F32));
  // equal maxima: the first in the window
  const auto [tv, ti] = Tensor::ones({1, 1, 2, 4}).max_pool2d_with_indices();
  EXPECT_TRUE(is(ti, {0, 2}, {1, 1, 1, 2}, I32));
  EXPECT_TRUE(is(v.max_unpool2d(i, {2, 2}, {}, {1}, {0}, {1, 1, 2, 6}), {0, 5, 0, 0, 0, 0, 9, 0, 0, 0, 0, 8}, {1, 1, 2, 6}, F32));
  EXPECT_TRUE(throws([&v = v, &i = i] { v.max_unpool2d(i.cast(F32)); }, "type",
                     "max_unpool2d's indices must be an integer tensor"));
}

TEST_P(Functions, LinearSoftmaxDtypeGeluLerp) {
  const Tensor x = iota({2, 2}), w = tensor({1, 0, 1, 1}).reshape({2, 2});
  EXPECT_TRUE(is(x.linear(w, tensor({1, 2})), {2, 3, 6, 5}, {2, 2}, F32));
  EXPECT_TRUE(is(x.cast(I32).linear(tensor({2, 3}).cast(I32)), {0, 3, 4, 9}, {2, 2}, I32));
  EXPECT_TRUE(is(x.cast(I32).linear(w.cast(I32), {}, F16), {1, 1, 5, 3}, {2, 2}, F16));
  EXPECT_EQ(tensor({1, 2, 3}).softmax(-1, F16).dtype(), F16);
  EXPECT_TRUE(matches_reference(tensor({1, 2, 3}).softmin(-1, F16)));
  EXPECT_TRUE(is(tensor({0, 1}).gelu(Tensor::GeluApprox::None), {0, 0.8413447460685429}, {2}, F32));
  EXPECT_TRUE(is(Tensor::ones({2}, F16).sum({}, false, F32), {2}, {}, F32));
  EXPECT_TRUE(is(tensor({2, 3}).cast(I8).prod({}, false, I64), {6}, {}, I64));
  const Tensor a = tensor({10, 200, 50}).cast(U8), b = tensor({250, 0, 60}).cast(U8);
  EXPECT_TRUE(is(a.lerp_fixed_point(b, tensor({0.5, 0.25, 1.0})), {2, 214, 60}, {3}, U8));
}

TEST_P(Functions, DropoutKeepsAndScales) {
  const Tensor x = Tensor::ones({64});
  EXPECT_TRUE(x.dropout(0).is(x));
  EXPECT_TRUE(is(x.dropout(1), std::vector<double>(64, 0.0), {64}, F32));
  const HostData d = x.dropout(0.25).data();
  int kept = 0;
  for (int64_t k = 0; k < 64; k++) {
    const double v = as_double(d.get(k));
    EXPECT_TRUE(v == 0 || std::abs(v - 4.0 / 3) < 1e-6) << v;
    kept += v != 0;
  }
  EXPECT_GT(kept, 32);
  EXPECT_LT(kept, 64);
  EXPECT_TRUE(throws([&] { x.dropout(1.5); }, "value", "dropout's p=1.5 is out of range [0, 1]"));
}

TEST_P(Functions, BitcastReadsTheSameBits) {
  EXPECT_TRUE(is(tensor({1.0, -2.5, 0.0}).bitcast(I32), {1065353216, -1071644672, 0}, {3}, I32));
  EXPECT_TRUE(is(tensor({1065353216, -1082130432}).cast(I32).bitcast(F32), {1.0, -1.0}, {2}, F32));
  EXPECT_TRUE(is(tensor({-1, 2}).cast(I8).bitcast(U8), {255, 2}, {2}, U8));
  EXPECT_TRUE(is(tensor({kInf}).bitcast(I32), {2139095040}, {1}, I32));
  EXPECT_TRUE(is(iota({2, 2}).bitcast(I32).max(std::vector<int>{1}), {1065353216, 1077936128}, {2}, I32));
}

TEST_P(Functions, BitcastBetweenItemSizesRescalesTheLastDim) {
  EXPECT_TRUE(is(tensor({1.0, -2.0}).bitcast(U8), {0, 0, 128, 63, 0, 0, 0, 192}, {8}, U8));
  EXPECT_TRUE(is(tensor({1.0, -2.0}).bitcast(I64), {-4611686017362034688.0}, {1}, I64));
  EXPECT_TRUE(is(iota({2, 4}, U8).add(Tensor::full({}, int64_t{1}, U8)).bitcast(I32), {67305985, 134678021}, {2, 1}, I32));
  EXPECT_TRUE(is(tensor({-1.5}, DType::Float64).bitcast(DType::Int16), {0, 0, 0, -16392}, {4}, DType::Int16));
  EXPECT_TRUE(is(tensor({-1, 1}, I8).bitcast(DType::UInt16), {511}, {1}, DType::UInt16));
  EXPECT_TRUE(is(tensor({kInf, -kInf}).bitcast(U8).bitcast(F32), {kInf, -kInf}, {2}, F32));  // and back
  EXPECT_TRUE(is(Tensor::ones({0, 4}).bitcast(I64), {}, {0, 2}, I64));
  EXPECT_TRUE(throws([&] { Tensor::ones({2, 3}).bitcast(I64); }, "shape",
                     "bitcast from float32 to int64 needs a last dim of a whole number of 8-byte items, got shape (2, 3)"));
  EXPECT_TRUE(throws([&] { Tensor::full({}, 1.0).bitcast(U8); }, "shape", "got shape ()"));
}

TEST_P(Functions, BitcastOfFloat16ComposesItsBits) {
  const Tensor h = tensor({1.0, -0.0, kInf, 5.960464477539063e-08, 65504, -2.5, 6.097555160522461e-05, 2.9981136322021484e-05}).cast(F16);
  EXPECT_TRUE(is(h.bitcast(DType::Int16), {15360, -32768, 31744, 1, 31743, -16128, 1023, 503}, {8}, DType::Int16));
  EXPECT_TRUE(is(tensor({0.0, 1.0}).cast(F16).bitcast(F32), {0.0078125}, {1}, F32));
  const Tensor bits = tensor({1, 0x8001, 0x7c00, 0xfc00, 0x3555, 0x03ff}, DType::UInt16);
  EXPECT_TRUE(is(bits.bitcast(F16), {5.960464477539063e-08, -5.960464477539063e-08, kInf, -kInf, 0.333251953125,
                                     6.097555160522461e-05}, {6}, F16));
  EXPECT_TRUE(is(tensor({1.5, -2.0}).bitcast(F16), {0.0, 1.9375, 0.0, -2.0}, {4}, F16));
  EXPECT_TRUE(is(h.bitcast(DType::UInt16).bitcast(F16), {1.0, -0.0, kInf, 5.960464477539063e-08, 65504, -2.5,
                                                         6.097555160522461e-05, 2.9981136322021484e-05}, {8}, F16));
  EXPECT_TRUE(throws([&] { tensor({1.0}).cast(Bool).bitcast(U8); }, "type", "bitcast to or from bool is not supported"));
}

// ---- the rest of SPEC section 2: values as tinygrad 0.14 prints them ----------------------------

TEST_P(Functions, InverseHyperbolicAsTinygradComposesThem) {
  const Tensor x = tensor({-2, -0.5, 0, 0.5, 2});
  EXPECT_TRUE(is(asinh(x), {-1.4436354, -0.4812118, 0, 0.4812118, 1.4436355}, {5}, F32));
  EXPECT_TRUE(is(acosh(tensor({1, 1.5, 3, 0.5, kInf})), {0, 0.9624236, 1.7627472, kNan, kInf}, {5}, F32));
  EXPECT_TRUE(is(atanh(tensor({-1, -0.5, 0, 0.5, 1, 2})), {-kInf, -0.5493062, 0, 0.5493062, kInf, kNan}, {6}, F32));
  EXPECT_TRUE(is(acosh(tensor({1, 2}, I32)), {0, 1.3169579}, {2}, F32));  // ints give float
  EXPECT_TRUE(is(asinh(Tensor::zeros({0, 3})), {}, {0, 3}, F32));
}

TEST_P(Functions, CopysignTakesTheSignBitsOfZeroAndInf) {
  const Tensor mag = tensor({1.5, -2, kInf, 3});
  EXPECT_TRUE(is(copysign(mag, tensor({-0.0, kInf, -kInf, 0.0})), {-1.5, 2, -kInf, 3}, {4}, F32));
  EXPECT_TRUE(is(copysign(tensor({1, -2, 0}, I32), Tensor::scalar_like(tensor({1}, I32), int64_t{-1})), {-1, -2, 0}, {3}, I32));
  EXPECT_TRUE(is(copysign(tensor({1, 2}, {2, 1}), tensor({-1, 1})), {-1, 1, -2, 2}, {2, 2}, F32));
}

TEST_P(Functions, DivRoundingModes) {
  const Tensor a = tensor({5, 6, 7, 0, -5, -6, -7}, I32);
  const Tensor three = Tensor::scalar_like(a, int64_t{-3});
  EXPECT_TRUE(is(div(a, three, Rounding::Trunc), {-1, -2, -2, 0, 1, 2, 2}, {7}, I32));
  EXPECT_TRUE(is(div(a, three, Rounding::Floor), {-2, -2, -3, 0, 1, 2, 2}, {7}, I32));
  EXPECT_TRUE(is(div(a, three, Rounding::None), {-5.0 / 3, -2, -7.0 / 3, 0, 5.0 / 3, 2, 7.0 / 3}, {7}, F32));
  const Tensor two = Tensor::scalar_like(a, 2.0);
  EXPECT_TRUE(is(div(a, two, Rounding::Trunc), {2, 3, 3, 0, -2, -3, -3}, {7}, F32));
  EXPECT_TRUE(is(div(a, two, Rounding::Floor), {2, 3, 3, 0, -3, -3, -4}, {7}, F32));
  const Tensor b = tensor({5.0, -7.5, 0.0});
  EXPECT_TRUE(is(div(b, Tensor::scalar_like(b, 0.0), Rounding::Floor), {kInf, -kInf, kNan}, {3}, F32));
  EXPECT_TRUE(is(div(tensor({1, 0}, Bool), tensor({1, 1}, Bool), Rounding::Floor), {1, 0}, {2}, F32));
  EXPECT_TRUE(is(div(tensor({110, -111}, I64), tensor({-55, 55}, I64), Rounding::Trunc), {-2, -2}, {2}, I64));
}

TEST_P(Functions, CumminAndLogcumsumexp) {
  const auto [values, indices] = cummin(tensor({0, 1, -1, 2, -2, 3, -3}));
  EXPECT_TRUE(is(values, {0, 0, -1, -1, -2, -2, -3}, {7}, F32));
  EXPECT_TRUE(is(indices, {0, 0, 2, 2, 4, 4, 6}, {7}, I32));
  const auto [bv, bi] = cummin(tensor({1, 0, 1}, Bool));
  EXPECT_TRUE(is(bv, {1, 0, 0}, {3}, Bool));
  EXPECT_TRUE(is(bi, {0, 1, 1}, {3}, I32));
  const auto [uv, ui] = cummin(tensor({3, 1, 2}, U8));
  EXPECT_TRUE(is(uv, {3, 1, 1}, {3}, U8));
  EXPECT_TRUE(is(ui, {0, 1, 1}, {3}, I32));
  const auto [ev, ei] = cummin(Tensor::zeros({0, 3}));
  EXPECT_TRUE(is(ev, {}, {0, 3}, F32));
  EXPECT_TRUE(is(ei, {}, {0, 3}, I32));
  const Tensor x = tensor({0.5, 1, -2, 3, -1, 4}, {2, 3});
  EXPECT_TRUE(is(logcumsumexp(x, 1), {0.5, 1.4740770, 1.5045968, 3, 3.0181499, 4.3181753}, {2, 3}, F32));
  EXPECT_TRUE(is(logcumsumexp(x), {0.5, 1, -2, 3.0788898, 1.1269281, 4.0024757}, {2, 3}, F32));
  EXPECT_TRUE(is(logcumsumexp(x, -1), {0.5, 1.4740770, 1.5045968, 3, 3.0181499, 4.3181753}, {2, 3}, F32));
  EXPECT_TRUE(is(logcumsumexp(tensor({1, 2, 3}, I32)), {1, 2.3132617, 3.4076059}, {3}, F32));
  EXPECT_TRUE(is(logcumsumexp(tensor({1000, 1000})), {1000, 1000.6931472}, {2}, F32));  // no overflow
  EXPECT_TRUE(is(logcumsumexp(Tensor::full({}, 2.0)), {2}, {}, F32));
  EXPECT_TRUE(is(logcumsumexp(Tensor::zeros({0})), {}, {0}, F32));
  EXPECT_TRUE(throws([&] { logcumsumexp(x, 2); }, "index", "dimension 2 is out of range"));
}

TEST_P(Functions, DiagonalIsAView) {
  const Tensor t = iota({2, 3, 4}, I32);
  EXPECT_TRUE(is(diagonal(t), {0, 16, 1, 17, 2, 18, 3, 19}, {4, 2}, I32));
  EXPECT_TRUE(is(diagonal(t, 1, 1, 2), {1, 6, 11, 13, 18, 23}, {2, 3}, I32));
  EXPECT_TRUE(is(diagonal(t, -1, -1, 0), {1, 14, 5, 18, 9, 22}, {3, 2}, I32));
  EXPECT_TRUE(is(diagonal(t, 4, 1, 2), {}, {2, 0}, I32));
  EXPECT_TRUE(is(diagonal(Tensor::zeros({0, 3})), {}, {0}, F32));
  EXPECT_TRUE(throws([&] { diagonal(t, 0, 1, -2); }, "value", "dim1 and dim2 cannot be the same dimension"));
  EXPECT_TRUE(throws([&] { diagonal(t, 5, 1, 2); }, "value", "diagonal offset 5 is out of range for dims of size 3 and 4"));
}

TEST_P(Functions, VarMeanStdMeanNormalize) {
  const Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto [s, m] = std_mean(x, std::vector<int>{1});
  EXPECT_TRUE(is(s, {1, 1}, {2}, F32));
  EXPECT_TRUE(is(m, {2, 5}, {2}, F32));
  const auto [v, m2] = var_mean(x, {}, true, 0);
  EXPECT_TRUE(is(v, {35.0 / 12}, {1, 1}, F32));
  EXPECT_TRUE(is(m2, {3.5}, {1, 1}, F32));
  const auto [nan_std, empty_mean] = std_mean(Tensor::zeros({2, 0}), std::vector<int>{1});
  EXPECT_TRUE(is(nan_std, {kNan, kNan}, {2}, F32));
  EXPECT_TRUE(is(empty_mean, {kNan, kNan}, {2}, F32));
  const Tensor t = tensor({3, 4, 0, 1}, {2, 2});
  EXPECT_TRUE(is(normalize(t), {0.6, 0.8, 0, 1}, {2, 2}, F32));
  EXPECT_TRUE(is(normalize(t, 1, 0), {1, 0.8, 0, 0.2}, {2, 2}, F32));
  EXPECT_TRUE(is(normalize(t, 0), {1.5, 2, 0, 1}, {2, 2}, F32));
  EXPECT_TRUE(is(normalize(Tensor::zeros({2, 2})), {0, 0, 0, 0}, {2, 2}, F32));  // eps, not 0/0
  EXPECT_TRUE(is(normalize(tensor({3, 4}, {1, 2}, I32)), {0.6, 0.8}, {1, 2}, F32));
}

TEST_P(Functions, MaskedSelectAndNonzeroReadTheCountFirst) {
  const Tensor t = iota({3, 3}, I32);
  const Tensor mask = tensor({1, 0, 1, 0, 1, 0, 0, 0, 1}, {3, 3}, Bool);
  EXPECT_TRUE(is(masked_select(t, mask), {0, 2, 4, 8}, {4}, I32));
  EXPECT_TRUE(is(masked_select(t, mask, 6, int64_t{-1}), {0, 2, 4, 8, -1, -1}, {6}, I32));
  EXPECT_TRUE(is(masked_select(t, mask, 2), {0, 2}, {2}, I32));
  EXPECT_TRUE(is(masked_select(t, tensor({1, 0, 1}, Bool)), {0, 2, 3, 5, 6, 8}, {6}, I32));  // broadcast
  EXPECT_TRUE(is(masked_select(tensor({1.5, 2.5}), tensor({0, 0}, Bool)), {}, {0}, F32));
  EXPECT_TRUE(is(masked_select(tensor({1.5, 2.5}), tensor({1, 0}, Bool), 3, 7.0), {1.5, 7, 7}, {3}, F32));
  EXPECT_TRUE(is(masked_select(Tensor::zeros({0}), Tensor::zeros({0}, Bool)), {}, {0}, F32));
  EXPECT_TRUE(throws([&] { masked_select(t, t); }, "type", "masked_select expects a bool mask, got int32"));
  EXPECT_TRUE(is(nonzero(tensor({1, 0, 0, 2}, {2, 2}, I32)), {0, 0, 1, 1}, {2, 2}, I32));
  EXPECT_TRUE(is(nonzero(tensor({1, 0, 0, 2}, {2, 2}), 3, int64_t{-1}), {0, 0, 1, 1, -1, -1}, {3, 2}, I32));
  EXPECT_TRUE(is(nonzero(tensor({kNan, 0, -0.0})), {0}, {1, 1}, I32));  // nan is non-zero, -0.0 is zero
  EXPECT_TRUE(is(nonzero(tensor({0, 0})), {}, {0, 1}, I32));
  EXPECT_TRUE(is(nonzero(Tensor::zeros({0, 3})), {}, {0, 2}, I32));
  EXPECT_EQ(nonzero(Tensor::full({}, 3.0)).shape(), (Shape{1, 0}));
  EXPECT_EQ(nonzero(Tensor::full({}, 0.0)).shape(), (Shape{0, 0}));
}

TEST_P(Functions, EmptyAndCloneHaveBuffersOfTheirOwn) {
  const Tensor e = empty({2, 3}, I8);
  EXPECT_EQ(e.shape(), (Shape{2, 3}));
  EXPECT_EQ(e.dtype(), I8);
  EXPECT_TRUE(is(empty({0, 4}), {}, {0, 4}, F32));
  EXPECT_TRUE(throws([&] { empty({2, -3}); }, "shape", "negative dimension in shape (2, -3)"));
  Tensor x = tensor({1, 2, 3}).realize();
  Tensor c = clone(x);
  EXPECT_FALSE(c.is(x));
  c.realize();
  // as tinygrad's: a clone realized before the assign keeps the old values (a lazy one reads the new)
  x.assign(tensor({7, 8, 9}));
  x.realize();
  EXPECT_TRUE(is(c, {1, 2, 3}, {3}, F32));
  EXPECT_TRUE(has_values(x, {7, 8, 9}));
  EXPECT_TRUE(is(clone(iota({2, 2}).T()), {0, 2, 1, 3}, {2, 2}, F32));
}

TEST_P(Functions, RandLikeRandnLikeRandpermFromOneDraw) {
  const Tensor x = Tensor::ones({2, 3});
  EXPECT_TRUE(is(rand_like(x, {}, 4), values(Tensor::rand({2, 3}, 4)), {2, 3}, F32));
  // tinygrad's Box-Muller: the first half of one draw of 2n gives the angles, the second the radii
  const std::vector<double> u = values(Tensor::rand({2, 2, 3}, 5));
  std::vector<double> expected;
  for (size_t i = 0; i < 6; i++)
    expected.push_back(std::cos(2 * std::numbers::pi * u[i]) * std::sqrt(-2 * std::log(1 - u[i + 6])));
  EXPECT_TRUE(is(randn_like(x, {}, 5), expected, {2, 3}, F32));
  EXPECT_EQ(randn_like(x.cast(I32), {}, 5).dtype(), I32);
  EXPECT_EQ(rand_like(x, F16, 1).dtype(), F16);
  const std::vector<double> p = values(randperm(50, I64, 7));
  std::vector<double> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); i++) EXPECT_EQ(sorted[i], static_cast<double>(i));
  EXPECT_NE(p, sorted);
  EXPECT_TRUE(is(randperm(0), {}, {0}, I32));
  EXPECT_TRUE(is(pad_to(tensor({1, 2}, {1, 2}), {2, -1}, 7.0), {1, 2, 7, 7}, {2, 2}, F32));
}

TEST_P(Functions, MultinomialDrawsByTheWeights) {
  const Tensor w = tensor({0, 1, 0, 0, 0, 0, 0, 1}, {2, 4});
  EXPECT_TRUE(is(multinomial(w, 5, true, 1), {1, 1, 1, 1, 1, 3, 3, 3, 3, 3}, {2, 5}, I32));  // a class of all the weight
  EXPECT_TRUE(is(multinomial(tensor({0, 0, 2}), 1, false, 2), {2}, {1}, I32));
  const std::vector<double> d = values(multinomial(tensor({1, 2, 3, 4}), 4, false, 3));
  EXPECT_EQ(std::set<double>(d.begin(), d.end()).size(), 4u);  // without replacement: each class once
  const std::vector<double> many = values(multinomial(tensor({0.25, 0.75}), 4000, true, 4));
  EXPECT_NEAR(std::accumulate(many.begin(), many.end(), 0.0) / 4000, 0.75, 0.03);
  EXPECT_TRUE(throws([&] { multinomial(tensor({1, 2}), 3); }, "value", "cannot draw 3 samples from 2 classes"));
  EXPECT_TRUE(throws([&] { multinomial(Tensor::ones({1, 1, 2})); }, "shape", "multinomial needs 1 or 2 dims"));
  EXPECT_TRUE(throws([&] { multinomial(tensor({1, 2}), 0); }, "value", "num_samples must be positive"));
}

TEST(Creation, DtypeOnEveryCreationFunction) {
  EXPECT_EQ(Tensor::eye(2, 3, I32).dtype(), I32);
  EXPECT_TRUE(has_values(Tensor::eye(2, 3, I32), {1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(Tensor::eye(0).shape(), (Shape{0, 0}));
  EXPECT_EQ(Tensor::zeros({2}, I8).dtype(), I8);
  EXPECT_EQ(Tensor::full({2}, 1.5, F16).dtype(), F16);
  EXPECT_EQ(Tensor::arange(int64_t{0}, int64_t{3}, int64_t{1}, I64).dtype(), I64);
  EXPECT_EQ(Tensor::linspace(int64_t{0}, int64_t{1}, 3, F16).dtype(), F16);
  EXPECT_EQ(Tensor::rand({2}, 0, F16).dtype(), F16);
}

}  // namespace
}  // namespace tr
