// numpy's print of arrays and Python's repr of floats; every expected string was printed by numpy 2.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "repl/float_text.h"
#include "repl/format.h"

namespace tr::repl {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

HostArray floats(DType t, const std::vector<double>& xs, Shape shape = {}) {
  HostArray a{t, shape.empty() ? Shape{static_cast<int64_t>(xs.size())} : shape, {}};
  for (double x : xs) a.values.emplace_back(round_to(t, x));
  return a;
}

HostArray ints(const std::vector<int64_t>& xs, Shape shape = {}) {
  HostArray a{DType::Int32, shape.empty() ? Shape{static_cast<int64_t>(xs.size())} : shape, {}};
  for (int64_t x : xs) a.values.emplace_back(x);
  return a;
}

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; i++) v.push_back(i);
  return v;
}

std::string f32(const std::vector<double>& xs) { return format_array(floats(DType::Float32, xs)); }

TEST(FloatText, ShortestDigitsAtTheDtypePrecision) {
  EXPECT_EQ(python_float(round_to(DType::Float32, 0.1), DType::Float32), "0.1");
  EXPECT_EQ(python_float(round_to(DType::Float32, 0.1), DType::Float64), "0.10000000149011612");
  EXPECT_EQ(python_float(round_to(DType::Float16, 0.1), DType::Float16), "0.1");
  EXPECT_EQ(python_float(0.1), "0.1");
}

TEST(FloatText, PythonRepr) {
  EXPECT_EQ(python_float(1.0), "1.0");
  EXPECT_EQ(python_float(-0.0), "-0.0");
  EXPECT_EQ(python_float(1e-5), "1e-05");
  EXPECT_EQ(python_float(1.5e16), "1.5e+16");
  EXPECT_EQ(python_float(1e16), "1e+16");
  EXPECT_EQ(python_float(1e-4), "0.0001");
  EXPECT_EQ(python_float(123456789.0), "123456789.0");
  EXPECT_EQ(python_float(12345678901234567.0), "1.2345678901234568e+16");
  EXPECT_EQ(python_float(1e300 * 10), "1e+301");
  EXPECT_EQ(python_float(kInf), "inf");
  EXPECT_EQ(python_float(-kInf), "-inf");
  EXPECT_EQ(python_float(kNan), "nan");
}

TEST(FloatText, NumpyScalarThresholdsDependOnTheDtype) {
  EXPECT_EQ(python_float(123456789.0, DType::Float32), "1.2345679e+08");
  EXPECT_EQ(python_float(1e7, DType::Float32), "1e+07");
  EXPECT_EQ(python_float(1e6, DType::Float32), "1e+06");
  EXPECT_EQ(python_float(999999.0, DType::Float32), "999999.0");
  EXPECT_EQ(python_float(9999.0, DType::Float32), "9999.0");
  EXPECT_EQ(python_float(1000.0, DType::Float16), "1e+03");
  EXPECT_EQ(python_float(65504.0, DType::Float16), "6.55e+04");
  EXPECT_EQ(python_float(round_to(DType::Float32, 1e-4), DType::Float32), "1e-04");
  EXPECT_EQ(python_float(round_to(DType::Float16, 1e-4), DType::Float16), "0.0001");
}

TEST(Format, ZeroDimensional) {
  EXPECT_EQ(format_array(HostArray{DType::Int32, {}, {int64_t{11}}}), "11");
  EXPECT_EQ(format_array(HostArray{DType::Float32, {}, {1.0}}), "1.0");
  EXPECT_EQ(format_array(HostArray{DType::Bool, {}, {true}}), "True");
  EXPECT_EQ(format_scalar(round_to(DType::Float32, 0.1), DType::Float32), "0.1");
  EXPECT_EQ(format_scalar(-kInf, DType::Float32), "-inf");
}

// A uint64 holds its value in an int64's bits: from 2^63 up it prints as the unsigned number.
TEST(Format, Uint64FromTwoToTheSixtyThreeUp) {
  EXPECT_EQ(format_array(HostArray{DType::UInt64, {2}, {int64_t{-1}, int64_t{5}}}), "[18446744073709551615                    5]");
  EXPECT_EQ(format_array(HostArray{DType::UInt64, {}, {std::numeric_limits<int64_t>::min()}}), "9223372036854775808");
}

TEST(Format, FloatsPositional) {
  EXPECT_EQ(f32({1, 2, 3}), "[1. 2. 3.]");
  EXPECT_EQ(f32({0.1, 0.25, -3.5}), "[ 0.1   0.25 -3.5 ]");
  EXPECT_EQ(f32({1.5, 2.25}), "[1.5  2.25]");
  EXPECT_EQ(f32({-1.5, 2.0}), "[-1.5  2. ]");
  EXPECT_EQ(f32({1.0 / 3, 2.0 / 3}), "[0.33333334 0.6666667 ]");
  EXPECT_EQ(format_array(floats(DType::Float64, {1.0 / 3, 2.0 / 3})), "[0.33333333 0.66666667]");
  EXPECT_EQ(format_array(floats(DType::Float64, {0.0012345678912})), "[0.00123457]");
  EXPECT_EQ(f32({0.0, -0.0}), "[ 0. -0.]");
  EXPECT_EQ(f32({1.0, 1000.0}), "[   1. 1000.]");
}

TEST(Format, FloatsScientificWhenNumpyWouldUseIt) {
  EXPECT_EQ(f32({1e-5, 1.0}), "[1.e-05 1.e+00]");
  EXPECT_EQ(f32({1.5e-5, 1.0, -2.0}), "[ 1.5e-05  1.0e+00 -2.0e+00]");
  EXPECT_EQ(f32({1e8, 1.0}), "[1.e+08 1.e+00]");
  EXPECT_EQ(f32({123456789.0}), "[1.2345679e+08]");
  EXPECT_EQ(f32({1e-4, 0.5}), "[1.e-04 5.e-01]");
  EXPECT_EQ(f32({1.0, 1001.0}), "[1.000e+00 1.001e+03]");
  EXPECT_EQ(format_array(floats(DType::Float16, {0.1, 1.5, 1000.0})), "[1.0e-01 1.5e+00 1.0e+03]");
  EXPECT_EQ(format_array(floats(DType::Float64, {1e100, 1.0})), "[1.e+100 1.e+000]");
  // the upper limit of positional notation follows the dtype's precision
  EXPECT_EQ(format_array(floats(DType::Float16, {546, 1000})), "[5.46e+02 1.00e+03]");
  EXPECT_EQ(format_array(floats(DType::Float16, {546, 999})), "[546. 999.]");
  EXPECT_EQ(f32({1e6}), "[1.e+06]");
  EXPECT_EQ(format_array(floats(DType::Float64, {1e6})), "[1000000.]");
  EXPECT_EQ(format_array(floats(DType::Float64, {1e8})), "[1.e+08]");
}

TEST(Format, ScientificPadsWithTheExactDigits) {
  EXPECT_EQ(format_array(floats(DType::Float16, {-34.1875, 1001.0})), "[-3.419e+01  1.001e+03]");
  EXPECT_EQ(f32({26747019264.0, 1.5e10}), "[2.674702e+10 1.500000e+10]");
  EXPECT_EQ(f32({26747019264.0, 1.23456789e10}), "[2.6747019e+10 1.2345679e+10]");
}

TEST(Format, NanAndInfinity) {
  EXPECT_EQ(f32({1.0, kNan, kInf}), "[ 1. nan inf]");
  EXPECT_EQ(f32({1.0, -kInf}), "[  1. -inf]");
  EXPECT_EQ(f32({kNan}), "[nan]");
}

TEST(Format, IntsAndBools) {
  EXPECT_EQ(format_array(ints({1, 2, 3})), "[1 2 3]");
  EXPECT_EQ(format_array(ints({-10, 5, 100})), "[-10   5 100]");
  EXPECT_EQ(format_array(HostArray{DType::Bool, {2}, {true, false}}), "[ True False]");
  EXPECT_EQ(format_array(HostArray{DType::Bool, {2}, {true, true}}), "[ True  True]");
}

TEST(Format, NestedDimensions) {
  EXPECT_EQ(format_array(ints({1, 2, 3, 4}, {2, 2})), "[[1 2]\n [3 4]]");
  EXPECT_EQ(
      format_array(ints(iota(24), {2, 3, 4})),
      "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  EXPECT_EQ(format_array(ints({}, {0})), "[]");
  EXPECT_EQ(format_array(HostArray{DType::Float32, {2, 0}, {}}), "[]");
}

TEST(Format, LongRowsWrapAt75Columns) {
  EXPECT_EQ(format_array(ints(iota(30))),
            "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 29]");
  std::vector<double> sevenths;
  for (int i = 0; i < 20; i++) sevenths.push_back(i / 7.0);
  EXPECT_EQ(f32(sevenths),
            "[0.         0.14285715 0.2857143  0.42857143 0.5714286  0.71428573\n"
            " 0.85714287 1.         1.1428572  1.2857143  1.4285715  1.5714285\n"
            " 1.7142857  1.8571428  2.         2.142857   2.2857144  2.4285715\n"
            " 2.5714285  2.7142856 ]");
}

TEST(Format, LargeArraysAreSummarised) {
  EXPECT_EQ(format_array(ints(iota(2000))), "[   0    1    2 ... 1997 1998 1999]");
  EXPECT_EQ(format_array(ints(iota(10000), {100, 100})),
            "[[   0    1    2 ...   97   98   99]\n [ 100  101  102 ...  197  198  199]\n"
            " [ 200  201  202 ...  297  298  299]\n ...\n [9700 9701 9702 ... 9797 9798 9799]\n"
            " [9800 9801 9802 ... 9897 9898 9899]\n [9900 9901 9902 ... 9997 9998 9999]]");
  EXPECT_EQ(format_array(ints(iota(1100), {1100, 1})), "[[   0]\n [   1]\n [   2]\n ...\n [1097]\n [1098]\n [1099]]");
  std::vector<double> halves;
  for (int i = 0; i < 6000; i++) halves.push_back(i * 0.5);
  EXPECT_EQ(format_array(floats(DType::Float32, halves, {2, 3, 1000})),
            "[[[0.0000e+00 5.0000e-01 1.0000e+00 ... 4.9850e+02 4.9900e+02 4.9950e+02]\n"
            "  [5.0000e+02 5.0050e+02 5.0100e+02 ... 9.9850e+02 9.9900e+02 9.9950e+02]\n"
            "  [1.0000e+03 1.0005e+03 1.0010e+03 ... 1.4985e+03 1.4990e+03 1.4995e+03]]\n\n"
            " [[1.5000e+03 1.5005e+03 1.5010e+03 ... 1.9985e+03 1.9990e+03 1.9995e+03]\n"
            "  [2.0000e+03 2.0005e+03 2.0010e+03 ... 2.4985e+03 2.4990e+03 2.4995e+03]\n"
            "  [2.5000e+03 2.5005e+03 2.5010e+03 ... 2.9985e+03 2.9990e+03 2.9995e+03]]]");
}

}  // namespace
}  // namespace tr::repl
