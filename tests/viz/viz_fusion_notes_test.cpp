// :explain's note where tinyrepl fuses what the notes (seeds 001 and 003) split: a reduce read back over
// its rows by later ops of the same kernel. Node ids count up through the process, so no test names one.
#include <gtest/gtest.h>

#include <string>

#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"
#include "viz/schedule_view.h"

namespace tr {
namespace {

using testing::tensor;

// The text with each run of spaces and line breaks as one space: where a paragraph folds depends on the
// width of the node ids it names.
std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (!blank || out.empty() || out.back() != ' ') out += blank ? ' ' : c;
  }
  return out;
}

bool has(const std::string& text, const std::string& part) { return flat(text).find(part) != std::string::npos; }

TEST(FusionNotes, VarSaysWhatTheNotesAndTinygradDoWhyTinyreplDiffersAndHowToSeeTheirs) {
  const Tensor a = tensor({1, 2, 3, 4}, DType::Int32);
  const std::string text = explain(a.var().node());
  EXPECT_TRUE(has(text, "The notes split it: the tinygrad of seeds 001 and 003 ends a kernel after #")) << text;
  EXPECT_TRUE(has(text, " MUL (the mean: #")) << text;
  EXPECT_TRUE(has(text, "(the notes' var is two kernels: r_4 writes the mean,")) << text;
  EXPECT_TRUE(has(text, "tinygrad 0.14 still ends a kernel there when a later reduce reads the value, as here (#")) << text;
  EXPECT_TRUE(has(text, "tinyrepl keeps one kernel because the reduce and what reads it walk the same rows: the kernel walks "
                        "each row 2 times")) << text;
  EXPECT_TRUE(has(text, " m = x.mean().contiguous() # the notes' first kernel exactly (r_4: the sum times 1/n) ")) << text;
}

TEST(FusionNotes, SoftmaxNamesItsMaxAndItsSumAndTheWayToSplitTheMax) {
  const Tensor x = Tensor::ones({4, 8});
  const std::string text = explain(x.softmax().node());
  EXPECT_TRUE(has(text, " MAX (the max) and after #")) << text;
  EXPECT_TRUE(has(text, " SUM (the sum), since #")) << text;
  EXPECT_TRUE(has(text, "each row 3 times")) << text;
  EXPECT_TRUE(has(text, " m = x.max(axis=-1, keepdim=True).contiguous() ")) << text;
  EXPECT_FALSE(has(text, "x.mean().contiguous()")) << text;
}

// Only element-wise ops read the mean back: the notes split there, tinygrad 0.14 may recompute instead.
TEST(FusionNotes, AReduceReadOnlyByElementwiseOpsLeavesTinygradsChoiceOpen) {
  const Tensor a = tensor({1, 2, 3, 4});
  const std::string text = explain(a.sub(a.mean()).node());
  EXPECT_TRUE(has(text, "The notes split it")) << text;
  EXPECT_TRUE(has(text, "tinygrad 0.14 decides this case by its own heuristics")) << text;
}

TEST(FusionNotes, AKernelWithNoReduceReadBackSaysNothingOfTheNotes) {
  const Tensor a = tensor({1, 2, 3, 4});
  EXPECT_FALSE(has(explain(a.mul(a).sum().node()), "The notes split it"));
  const Tensor m = a.mean().contiguous();
  const Tensor d = a.sub(m);
  EXPECT_FALSE(has(explain(d.mul(d).sum().node()), "The notes split it")) << "the mean is a kernel of its own";
}

}  // namespace
}  // namespace tr
