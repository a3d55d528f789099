// nn.Linear, nn.state.get_parameters and nn.optim (SGD with momentum, nesterov and weight decay,
// Adam, AdamW) in a session, checked against the updates written out by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "repl/parser.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

class Nn : public ::testing::Test {
 protected:
  void run(std::string_view src) {
    for (const Stmt& s : parse_program(src)) {
      const Outcome o = session.execute(s);
      if (const AssertResult* a = std::get_if<AssertResult>(&o)) {
        EXPECT_TRUE(a->ok) << a->message << " in: " << src;
      }
    }
  }
  std::string repr(std::string_view expr) { return repr_value(session.evaluate(*parse_expression(expr))); }
  std::string error(std::string_view src) {
    try {
      run(src);
    } catch (const SourceError& e) {
      return e.what();
    }
    return "no error";
  }
  Session session{[](const PrintEvent&) {}};
};

TEST_F(Nn, LinearIsUniformWithinOneOverSqrtInAndComputesXWTPlusB) {
  run("l = nn.Linear(4, 3)\nassert l.weight.shape == (3, 4)\nassert l.bias.shape == (3,)");
  run("assert l.weight.abs().max() <= 0.5");
  run("assert l.bias.abs().max() <= 0.5\nx = randn(2, 4, seed=3)\nassert allclose(l(x), x @ l.weight.T + l.bias)");
  run("n = nn.Linear(4, 3, bias=False)");
  EXPECT_EQ(repr("n.bias"), "None");
  EXPECT_EQ(repr("len(nn.state.get_parameters([l, n]))"), "3");
  EXPECT_EQ(repr("l"), "<Linear object>");
}

TEST_F(Nn, LayerNormAndEmbedding) {
  run("ln = nn.LayerNorm(4)\nx = randn(3, 4, seed=4)\ny = ln(x)");
  run("assert allclose(y.mean(axis=-1), zeros(3), atol=1e-6)\nassert allclose(y.var(axis=-1, correction=0), ones(3), rtol=1e-4)");
  run("assert ln.weight.shape == (4,)\nassert len(nn.state.get_parameters(ln)) == 2");
  run("e = nn.Embedding(10, 3)\nidx = tensor([[1, 7], [7, 0]])\nv = e(idx)\nassert v.shape == (2, 2, 3)");
  run("assert allclose(v[0, 1], e.weight[7])\nassert allclose(v[1, 0], e.weight[7])");
  run("assert e.weight.abs().max() <= (6 / 13) ** 0.5");
  // only the picked rows get a gradient
  run("v.sum().backward()\nassert allclose(e.weight.grad[7], full((3,), 2.0))\nassert allclose(e.weight.grad[2], zeros(3))");
}

TEST_F(Nn, SgdWithMomentumNesterovAndWeightDecay) {
  run("w = tensor([1.0, -2.0]).realize()\nopt = nn.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)");
  run("(w * w).sum().backward()\nwith Context(TRAINING=1): opt.step()");
  // g = 2w + 0.01 w; b = g; update = g + 0.9 b
  run("g = tensor([2.01, -4.02])\nassert allclose(w, tensor([1.0, -2.0]) - 0.1 * (g + 0.9 * g))");
  run("opt.zero_grad()");
  EXPECT_EQ(repr("w.grad"), "None");
  EXPECT_EQ(error("with Context(TRAINING=1): opt.step()"), "a parameter of shape (2,) has no .grad: call loss.backward() first");
}

TEST_F(Nn, AdamAndAdamWFirstStepMoveEachWeightByLr) {
  // Adam's first step is lr * g / (|g| + eps): lr times the sign of the gradient
  run("w = tensor([1.0, -2.0]).realize()\nopt = nn.optim.Adam([w], lr=0.01)\n(w * w).sum().backward()\nwith Context(TRAINING=1): opt.step()");
  run("assert allclose(w, tensor([0.99, -1.99]), rtol=1e-6)");
  run("v = tensor([1.0, -2.0]).realize()\nopt2 = nn.optim.AdamW([v], lr=0.01, weight_decay=0.1)");
  run("(v * v).sum().backward()\nwith Context(TRAINING=1): opt2.step()\nassert allclose(v, tensor([1.0 - 0.01 * 1.1, -2.0 + 0.01 * 1.2]), rtol=1e-6)");
}

TEST_F(Nn, AStepIsOneScheduleAndNeedsTrainingMode) {
  run("w = tensor([[1.0, -2.0], [0.5, 3.0]]).realize()\nb = tensor([0.1, 0.2]).realize()\nalias = w");
  run("opt = nn.optim.Adam([w, b], lr=0.01)\nx = tensor([[1.0, 2.0]])");
  run("loss = (x @ w + b).square().sum().backward()");
  EXPECT_EQ(error("opt.step()"),
            "TRAINING=0: an optimizer steps in training mode only, as tinygrad's: run it under `with "
            "Context(TRAINING=1):` or in a def decorated with @Context(TRAINING=1)");
  // the state (b1_t, b2_t, m and v of each) and then the parameters, all lazy until realized together
  run("with Context(TRAINING=1): step = opt.schedule_step()");
  EXPECT_EQ(repr("len(step)"), "8");
  EXPECT_EQ(repr("step[-2] is w"), "True");
  run("n = kernels(loss, *step)\nloss.realize(*step)");
  // every kernel of the step ran in that one realization: forward, backward and Adam
  EXPECT_EQ(repr("kernels(loss, *step)"), "0");
  EXPECT_EQ(repr("n > 6"), "True");
  // Adam's first step moves each weight by lr against its gradient's sign; the alias sees it
  run("assert allclose(alias, tensor([[1.0, -2.0], [0.5, 3.0]]) - 0.01, rtol=1e-5)");
}

TEST_F(Nn, LossesAsTinygradDefinesThem) {
  run("z = tensor([0.5, -1.0, 2.0])\ny = tensor([1.0, 0.0, 0.0])");
  run("assert allclose(z.binary_crossentropy_logits(y), (1 + (-z * (2 * y - 1)).exp()).log().mean())");
  run("p = z.sigmoid()\nassert allclose(p.binary_crossentropy(y), z.binary_crossentropy_logits(y), rtol=1e-5)");
  run("assert allclose(z.binary_crossentropy_logits(y, reduction='sum'), z.binary_crossentropy_logits(y) * 3)");
  run("logits = tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])\nlabels = tensor([2, 0])");
  run("assert allclose(logits.sparse_categorical_crossentropy(labels), 0.75310913)");
  run("assert allclose(logits.cross_entropy(labels), 0.75310913)");
  run("assert allclose(logits.sparse_categorical_crossentropy(labels, ignore_index=0), 0.40760596)");
  run("assert allclose(logits.cross_entropy(tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])), 0.75310913)");
  EXPECT_EQ(error("z.binary_crossentropy(y, reduction='max')"), "reduction must be 'mean', 'sum' or 'none', not 'max'");
}

TEST_F(Nn, ErrorsNameTheObject) {
  EXPECT_EQ(error("nn.Conv3d(1, 1, 3)"),
            "nn has no 'Conv3d' (it has Linear, Conv2d, BatchNorm, LayerNorm, Embedding, optim.SGD, optim.Adam, optim.AdamW, "
            "state.get_parameters)");
  EXPECT_EQ(error("nn"), "'nn' holds tinygrad's layers and optimizers; name one: nn.Linear(2, 3)");
  run("l = nn.Linear(2, 2)");
  EXPECT_EQ(error("l.step()"), "'Linear' object has no method 'step'");
  EXPECT_EQ(error("l.nope"), "'Linear' object has no attribute 'nope'");
  EXPECT_EQ(error("nn.optim.SGD([1])"), "argument 'params' of SGD() must hold tensors only, not int");
}

TEST_F(Nn, Conv2dHasTinygradsShapesAndInitAndComputesConv2d) {
  run("c = nn.Conv2d(3, 8, 3, padding=1)\nassert c.weight.shape == (8, 3, 3, 3)\nassert c.bias.shape == (8,)");
  run("assert c.weight.abs().max() <= 1 / 27 ** 0.5\nassert c.bias.abs().max() <= 1 / 27 ** 0.5");
  run("x = rand(2, 3, 5, 5, seed=1)\nassert allclose(c(x), x.conv2d(c.weight, c.bias, padding=1))");
  run("g = nn.Conv2d(4, 6, (3, 1), stride=2, groups=2, bias=False)\nassert g.weight.shape == (6, 2, 3, 1)");
  run("assert g(rand(1, 4, 7, 7, seed=2)).shape == (1, 6, 3, 4)");
  run("s = nn.Conv2d(2, 2, (3, 4), padding='same', dilation=2)\nassert s(rand(1, 2, 9, 9, seed=3)).shape == (1, 2, 9, 9)");
  EXPECT_EQ(repr("len(nn.state.get_parameters([c, g]))"), "3");
  EXPECT_EQ(repr("g.bias"), "None");
  EXPECT_EQ(repr("c"), "<Conv2d object>");
  // the parameters train: a gradient reaches weight and bias
  run("c(x).sum().backward()\nassert c.weight.grad.shape == (8, 3, 3, 3)\nassert c.bias.grad.shape == (8,)");
  EXPECT_EQ(error("nn.Conv2d(3, 4, 3, groups=2)"), "groups=2 must divide both in_channels 3 and out_channels 4");
  EXPECT_EQ(error("nn.Conv2d(3, 4, 3, padding='valid')"), "the only padding string is 'same', not 'valid'");
  EXPECT_EQ(error("nn.Conv2d(3, 4, 3, stride=2, padding='same')"), "padding='same' is not supported for strided convolutions");
  EXPECT_EQ(error("c(rand(1, 2, 5, 5))"), "input shape (1, 2, 5, 5) does not match weight shape (8, 3, 3, 3) with groups=1 (3 vs 2 input channels)");
}

TEST_F(Nn, BatchNormUsesRunningStatsUnlessTraining) {
  run("bn = nn.BatchNorm2d(3)\nx = rand(4, 3, 2, 2, seed=5) * 4 + 1");
  EXPECT_EQ(repr("len(nn.state.get_parameters(bn))"), "5");
  EXPECT_EQ(repr("bn.num_batches_tracked.dtype"), "dtypes.long");
  // evaluation (tinygrad's default): running mean 0 and variance 1
  run("assert allclose(bn(x), x / (1 + 1e-5) ** 0.5)\nassert allclose(bn.running_mean, zeros(3))");
  // an optimizer trains weight and bias only: the running statistics are buffers
  run("opt = nn.optim.SGD(nn.state.get_parameters(bn), lr=0.1)\nassert len(opt.params) == 2");
  run("with Context(TRAINING=1):\n  y = bn(x)\n");
  run("m = x.mean(axis=(0, 2, 3))\nv = x.var(axis=(0, 2, 3), correction=0)");
  run("assert allclose(y, (x - m.reshape(1, 3, 1, 1)) / (v.reshape(1, 3, 1, 1) + 1e-5).sqrt(), atol=1e-5)");
  run("assert allclose(bn.running_mean, m * 0.1, atol=1e-6)");
  run("assert allclose(bn.running_var, ones(3) * 0.9 + x.var(axis=(0, 2, 3)) * 0.1, atol=1e-5)");
  EXPECT_EQ(repr("bn.num_batches_tracked.item()"), "1");
  run("plain = nn.BatchNorm(3, affine=False, track_running_stats=False)");
  EXPECT_EQ(repr("plain.running_mean"), "None");
  run("assert allclose(plain(x).mean(axis=(0, 2, 3)), zeros(3), atol=1e-5)");
  EXPECT_EQ(error("bn(rand(2, 4))"), "BatchNorm of 3 channels cannot take an input of shape (2, 4)");
}

// A bad argument to a new function is an error at that argument (or at the call), never a crash.
TEST_F(Nn, BadArgumentsOfTheNnFunctionsPointAtTheirSource) {
  const auto span_of = [&](std::string_view src) {
    try {
      run(src);
    } catch (const SourceError& e) {
      return std::make_pair(std::string(e.what()), e.span().col);
    }
    return std::make_pair(std::string("no error"), 0);
  };
  run("x = rand(1, 1, 4, 4, seed=1)");
  EXPECT_EQ(span_of("y = x.max_pool2d(kernel_size=(2, 2), ceil_mode=3)"),
            std::make_pair(std::string("argument 'ceil_mode' of max_pool2d() must be True or False, not int"), 38));  // at "ceil_mode="
  EXPECT_EQ(span_of("y = x.interpolate(size=(2, 2), mode='cubic')").first,
            "interpolate supports mode 'linear', 'nearest' or 'nearest-exact', not 'cubic'");
  EXPECT_EQ(span_of("y = x.conv2d(ones(1, 1, 5, 5))").first,
            "kernel size 5 (dilation 1) cannot be greater than the input size 4 of shape (1, 1, 4, 4)");
  EXPECT_EQ(span_of("y = x.conv2d(ones(1, 1, 5, 5))").second, 7);
  EXPECT_EQ(span_of("y = x.cross_entropy(tensor([1]), reduction='avg')").first,
            "reduction must be 'mean', 'sum' or 'none', not 'avg'");
  EXPECT_EQ(span_of("y = randint(3, low=4, high=2)").first, "randint requires low < high, got low=4, high=2");
  EXPECT_EQ(span_of("y = x.softplus(beta=0)").first, "softplus's beta must not be 0");
  EXPECT_EQ(span_of("y = x.scaled_dot_product_attention(x, x, attn_mask=x, is_causal=True)").first,
            "cannot set attn_mask when is_causal=True");
  EXPECT_EQ(span_of("y = x.avg_pool2d(padding=(1, 2, 3))").first,
            "padding must be an int or a sequence of length 2 or 4, got 3 values");
}

}  // namespace
}  // namespace tr::repl
