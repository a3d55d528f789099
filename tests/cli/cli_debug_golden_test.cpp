// The whole DEBUG 5 output of `DEBUG=5 NOOPT=1` on the notes' dot product, line for line, with what
// changes from run to run masked: times, rates, the pid, and whether the program came from the cache.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/cli_testing.h"
#include "tests/dot_product_golden.h"

namespace tr::repl {
namespace {

using testing::run_binary;
using testing::TempDir;

std::string masked(std::string out) {
  out = std::regex_replace(out, std::regex(R"(in \d+\.\d+ ms)"), "in X ms");
  out = std::regex_replace(out, std::regex(R"(pid:\d+)"), "pid:N");
  out = std::regex_replace(out, std::regex(R"(tm +[0-9.]+(us|ms)/ +[0-9.]+ms \( +[0-9.]+ GFLOPS +[0-9.]+\|[0-9.]+ +GB/s\))"),
                           "tm T");
  out = std::regex_replace(out, std::regex(R"( \(cached\))"), "");
  out = std::regex_replace(out, std::regex(R"(avg: .* GB/s   total: )"), "avg: R   total: ");
  out = std::regex_replace(out, std::regex(R"(GOPS +[0-9.]+ GB +[0-9.]+ ms)"), "GOPS G GB T ms");
  return out;
}

TEST(CliDebugGolden, DotProductAtDebug5Noopt) {
  const TempDir dir;
  const std::string path = dir.write("dot.tg", "x = tensor([1, 2])\ny = tensor([3, 4])\nprint((x * y).sum())\n");
  const testing::Result r = run_binary({"run", path}, "", {"DEBUG=5", "NOOPT=1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(masked(r.out),
            "scheduled 1 kernels in X ms\n"
            "opened device CPU from pid:N\n"
            "*** CPU        1 copy        8,     CPU <- HOST            arg  2 mem  0.00 GB tm T\n"
            "*** CPU        2 copy        8,     CPU <- HOST            arg  2 mem  0.00 GB tm T\n"
            "  0 ━┳ STORE MemBuffer(idx=0, dtype=int, st=(1,):(0,))\n"
            "  1  ┗━┳ SUM (0,)\n"
            "  2    ┗━┳ MUL\n"
            "  3      ┣━━ LOAD MemBuffer(idx=1, dtype=int, st=(2,):(1,))\n"
            "  4      ┗━━ LOAD MemBuffer(idx=2, dtype=int, st=(2,):(1,))\n"
            "ShapeTracker views:\n"
            "  STORE idx=0  view 0: (1,):(0,)\n"
            "  LOAD idx=1   view 0: (2,):(1,)\n"
            "  LOAD idx=2   view 0: (2,):(1,)\n"
            "full shape (2,), reduce axes from 0\n"
            "dims (AXIS for :opt):\n"
            "   0  reduce  size 2      axis 0 of the full shape\n"
            "opts: none\n"
            + std::string(tr::testing::kDotProductNooptUops) +
            "launch: global [1, 1, 1] local [1, 1, 1]; about 4 FLOPs and 20 bytes\n"
            "// c\n"
            "#include <math.h>\n"
            "void r_2(int* restrict data0, const int* restrict data1, const int* restrict data2, int core_id) {\n"
            "  int acc0 = 0;\n"
            "  for (int ridx0 = 0; ridx0 < 2; ridx0++) {\n"
            "    int val0 = data1[ridx0];\n"
            "    int val1 = data2[ridx0];\n"
            "    acc0 = (acc0+(val0*val1));\n"
            "  }\n"
            "  data0[0] = acc0;\n"
            "}\n"
            "*** CPU        3 r_2                                       arg  3 mem  0.00 GB tm T\n"
            "*** HOST       4 copy        4,    HOST <- CPU             arg  2 mem  0.00 GB tm T\n"
            "11\n"
            "avg: R   total:     4 kernels     0.00 GOPS G GB T ms\n");
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// Colours (a first run's *** header green, a copy's name yellow) are for a terminal: none into a pipe.
TEST(CliDebugGolden, NoColoursIntoAPipe) {
  const testing::Result r = run_binary({"-e", "print(tensor([1, 2]).sum())"}, "", {"DEBUG=2"});
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos);
}

}  // namespace
}  // namespace tr::repl
