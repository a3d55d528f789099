// The bfloat16 pass alone (core/codegen/bfloat16.cpp) on a graph built by hand: bfloat16 values move as
// their 16 bits, an op on them computes in float from those bits, and its result is rounded back to
// 16 bits (ties to even, NaN kept a NaN) before it is stored.
#include "tests/codegen/passes/pass_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(Bfloat16Pass, ValuesMoveAsBitsAndOpsComputeInFloat) {
  UGraph g;
  const int out = g.add({.kind = UOpKind::DefineGlobal, .dtype = DType::BFloat16, .ptr = true, .buffer = 0, .writes = true});
  const int in = g.add({.kind = UOpKind::DefineGlobal, .dtype = DType::BFloat16, .ptr = true, .buffer = 1});
  const int at = g.cnst(int64_t{0}, DType::Int32);
  const int x = g.add({.kind = UOpKind::Load, .dtype = DType::BFloat16, .srcs = {in, at}});
  const int twice = g.alu(Op::Add, DType::BFloat16, {x, x});
  const int store = g.add({.kind = UOpKind::Store, .srcs = {out, at, twice}});
  g.sink = g.add({.kind = UOpKind::Sink, .srcs = {store}});
  ASSERT_TRUE(touches_bfloat16(g));

  const UGraph h = bfloat16(g);
  EXPECT_FALSE(touches_bfloat16(h));
  EXPECT_EQ(count_nodes(h, [](const UOp& u) { return u.kind == UOpKind::DefineGlobal && u.dtype == DType::UInt16; }), 2);
  EXPECT_EQ(count_nodes(h, [](const UOp& u) { return u.kind == UOpKind::Load && u.dtype == DType::UInt16; }), 1);
  // the add in float, from the bits read as float32's top half
  EXPECT_EQ(count_nodes(h, [](const UOp& u) { return u.kind == UOpKind::Alu && u.alu == Op::Add && u.dtype == DType::Float32; }), 1);
  EXPECT_EQ(count_nodes(h, [](const UOp& u) { return u.kind == UOpKind::Alu && u.alu == Op::Bitcast && u.dtype == DType::Float32; }), 1);
  // the stored value: the rounded bits, or the quiet NaN where the float is a NaN
  int stored = -1;
  for (const int i : toposort(h))
    if (h[i].kind == UOpKind::Store) stored = h[i].srcs[2];
  ASSERT_GE(stored, 0);
  EXPECT_EQ(h[stored].alu, Op::Where);
  EXPECT_EQ(h[stored].dtype, DType::UInt16);
  const ConstValue* quiet_nan = h.const_of(h[stored].srcs[1]);
  ASSERT_NE(quiet_nan, nullptr);
  EXPECT_EQ(as_double(*quiet_nan), 0x7fc0);
}

TEST(Bfloat16Pass, OnlyAGraphWithBfloat16TakesThePass) {
  UGraph g;
  const int out = g.add({.kind = UOpKind::DefineGlobal, .dtype = DType::Float32, .ptr = true, .buffer = 0, .writes = true});
  const int at = g.cnst(int64_t{0}, DType::Int32);
  g.sink = g.add({.kind = UOpKind::Sink, .srcs = {g.add({.kind = UOpKind::Store, .srcs = {out, at, g.cnst(1.5, DType::Float32)}})}});
  EXPECT_FALSE(touches_bfloat16(g));
}

}  // namespace
}  // namespace tr
