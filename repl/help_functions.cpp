// The help table's functions: creation, random draws, the functions of several tensors, running, Python's
// own, and tinygrad's nn.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> function_help() {
  return {
      {"creation (dtype= and device= on each)",
       HelpKind::Function,
       {
           {"tensor", "tensor(data, dtype=None, device=None)",
            "A tensor holding data: a number, or nested lists of numbers and bools with a rectangular shape. Without "
            "dtype= the data picks it as tinygrad does: bools give bool, ints int32, any float float32. The values "
            "are copied from the host when the tensor is first realized.",
            "x = tensor([[1, 2], [3, 4]])\nprint(x, x.dtype)"},
           {"Tensor", "Tensor(data, dtype=None, device=None), or Tensor.NAME(...)",
            "tinygrad's spelling: Tensor(data) is tensor(data), and Tensor.zeros(...), Tensor.arange(...) and the "
            "other functions are the functions of the same names, so that a tinygrad program reads as written.",
            "x = Tensor.arange(4)\nprint(Tensor([1., 2.]) + x[:2])"},
           {"zeros", "zeros(*shape, dtype=float32, device=None)",
            "A tensor of zeros of the given shape (given as zeros(2, 3) or zeros((2, 3))). It is a constant "
            "broadcast by a view, so it costs no buffer until something stores it.",
            "print(zeros(2, 3))"},
           {"ones", "ones(*shape, dtype=float32, device=None)", "A tensor of ones of the given shape.",
            "print(ones(2, dtype=int32))"},
           {"full", "full(shape, value, dtype=None, device=None)",
            "A tensor of the given shape filled with value; without dtype= the value picks it (an int gives "
            "int32, a float float32, a bool bool).",
            "print(full((2, 2), 7))"},
           {"arange", "arange(stop) or arange(start, stop, step=1, dtype=None, device=None)",
            "The numbers from start (0 when only stop is given) up to stop, excluded, step apart, as Python's range "
            "but as a tensor: ints give int32, a float among the arguments gives float32.",
            "print(arange(5), arange(1, 2, 0.25))"},
           {"linspace", "linspace(start, stop, steps, dtype=float32, device=None)",
            "steps numbers evenly spaced from start to stop, both included.", "print(linspace(0, 1, 5))"},
           {"eye", "eye(n, m=None, dtype=float32, device=None)",
            "An n by m matrix (m defaults to n) with ones on its diagonal and zeros elsewhere.", "print(eye(3))"},
           {"rand", "rand(*shape, seed=None, dtype=float32, device=None)",
            "Numbers drawn uniformly from [0, 1). Every call without seed= advances the session's counter-based "
            "generator (manual_seed resets it), so two calls differ but a script gives the same numbers on every run "
            "and device; seed= gives a call a stream of its own.",
            "manual_seed(0)\nprint(rand(3), rand(3, seed=1))"},
           {"randn", "randn(*shape, seed=None, dtype=float32, device=None)",
            "Numbers from the standard normal distribution (mean 0, standard deviation 1), made from a draw of the "
            "same generator as rand by the Box-Muller transform.",
            "x = randn(1000)\nprint(x.mean().item() < 0.2)"},
           {"manual_seed", "manual_seed(n)",
            "Starts the random generator again at seed n (tinygrad's Tensor.manual_seed): the draws after it are "
            "the same as after any other manual_seed(n). A run starts at seed 0.",
            "manual_seed(3)\na = rand(2)\nmanual_seed(3)\nprint(a.tolist() == rand(2).tolist())"},
           {"zeros_like", "zeros_like(x, dtype=None, device=None)",
            "Zeros with x's shape, and x's dtype and device unless given.", "print(zeros_like(arange(3)))"},
           {"ones_like", "ones_like(x, dtype=None, device=None)", "Ones with x's shape, dtype and device.",
            "print(ones_like(eye(2)))"},
           {"full_like", "full_like(x, value, dtype=None, device=None)",
            "x's shape filled with value, in x's dtype unless dtype= says otherwise.",
            "print(full_like(arange(3), 9))"},
           {"empty", "empty(*shape, dtype=float32, device=None)",
            "A tensor with a buffer of its own whose values are not set (tinygrad leaves them as memory had them; "
            "here they are zeros). Use it as the target of assign.",
            "e = empty(2, 2)\ne.assign(ones(2, 2))\nprint(e)"},
       }},
      {"random initialisers (seed=, dtype=, device= on each; scaled draws of rand and randn)",
       HelpKind::Function,
       {
           {"uniform", "uniform(*shape, low=0.0, high=1.0, seed=None, dtype=float32, device=None)",
            "Numbers drawn uniformly from [low, high): rand scaled and shifted.",
            "print(uniform(3, low=-1.0, high=1.0).abs().max().item() <= 1)"},
           {"normal", "normal(*shape, mean=0.0, std=1.0, seed=None, dtype=float32, device=None)",
            "Numbers from a normal distribution with the given mean and standard deviation: randn * std + mean.",
            "print(normal(4, mean=10.0, std=0.1).min().item() > 9)"},
           {"randint", "randint(*shape, low=0, high=10, seed=None, dtype=int32, device=None)",
            "Integers drawn uniformly from low up to high, high excluded.",
            "print(randint(8, low=0, high=3).max().item() < 3)"},
           {"glorot_uniform", "glorot_uniform(*shape, seed=None, dtype=float32, device=None)",
            "Glorot (Xavier) initialisation: uniform in +-sqrt(6 / (shape[0] + prod(shape[1:]))), which keeps a "
            "layer's output variance near its input's.",
            "w = glorot_uniform(4, 4)\nprint(w.shape)"},
           {"kaiming_uniform", "kaiming_uniform(*shape, a=0.01, seed=None, dtype=float32, device=None)",
            "Kaiming (He) initialisation for leaky-ReLU layers of negative slope a: uniform in "
            "+-sqrt(6 / (1 + a^2) / prod(shape[1:])).",
            "print(kaiming_uniform(3, 5).shape)"},
           {"kaiming_normal", "kaiming_normal(*shape, a=0.01, seed=None, dtype=float32, device=None)",
            "Kaiming initialisation drawn from a normal distribution with standard deviation "
            "sqrt(2 / (1 + a^2) / prod(shape[1:])).",
            "print(kaiming_normal(3, 5).shape)"},
           {"scaled_uniform", "scaled_uniform(*shape, seed=None, dtype=float32, device=None)",
            "Uniform in +-prod(shape)^-0.5: rand scaled to [-1, 1) and divided by the square root of the number of "
            "elements.",
            "print(scaled_uniform(2, 8).abs().max().item() <= 0.25)"},
           {"randperm", "randperm(n, seed=None, dtype=int32, device=None)",
            "A random permutation of range(n), as the argsort of a rand draw of n numbers.",
            "print(randperm(5).sort()[0])"},
       }},
      {"element-wise and checks",
       HelpKind::Function,
       {
           {"where", "where(condition, x, y)",
            "x where condition is true and y elsewhere, the three broadcast together (condition.where(x, y) as a "
            "method).",
            "x = arange(5)\nprint(where(x > 2, x, -1))"},
           {"maximum", "maximum(x, y)", "The larger of x and y at each element, broadcast together.",
            "print(maximum(arange(4), 2))"},
           {"minimum", "minimum(x, y)", "The smaller of x and y at each element, broadcast together.",
            "print(minimum(arange(4), 2))"},
           {"allclose", "allclose(a, b, rtol=1e-5, atol=1e-8)",
            "True when every element satisfies |a - b| <= atol + rtol * |b| (numpy's rule, a Python bool), for "
            "asserts on float results.",
            "print(allclose(tensor([1., 2.]) / 3 * 3, tensor([1., 2.])))"},
       }},
      {"running",
       HelpKind::Function,
       {
           {"kernels", "kernels(x, ...)",
            "How many kernels realizing x (and the other tensors, together) would run now, without running "
            "anything: the number the scheduler's fusion gives, for asserts in a course. Copies are not counted.",
            "x = arange(8).float()\nassert kernels(x.var()) == 1\nprint(kernels((x + 1).exp()))"},
           {"compiles", "compiles()",
            "How many kernel programs this process has built so far, compiled or loaded from the disk cache; the "
            "difference before and after a statement shows whether it compiled anything new.",
            "n = compiles()\nprint((arange(4) + 1).sum())\nprint(compiles() >= n)"},
           {"realize", "realize(x, ...)",
            "Runs what the tensors need, all in one schedule, and returns them (a tuple for several): tinygrad's "
            "Tensor.realize(x, y) and corealize. Work two tensors share runs once.",
            "a = arange(4) + 1\nb = a * 2\na, b = realize(a, b)\nprint(a, b)"},
           {"print", "print(value, ...)",
            "Realizes every tensor among the values in one schedule and prints them as numpy prints arrays, other "
            "values as Python prints them, separated by spaces.",
            "print(tensor([1.5, 2.0]), 'and', 3)"},
           {"help", "help(x.method), help(NAME), help(\"TOPIC\")",
            "Prints the entry of what its argument names, as IPython's help: a function, x.method for any "
            "expression x that gives a tensor, a dtype, a command, a topic (\"notes\", \"opts\"), or a variable's "
            "value. x.method? and ?NAME are the same. help() alone prints the overview.",
            "x = tensor([1., 2.])\nhelp(x.softmax)\nhelp(\"sum\")"},
           {"Context", "Context(TRAINING=1)",
            "tinygrad's context variables for a block or a function: TRAINING=1 turns training mode on (dropout "
            "drops, BatchNorm uses batch statistics), as `with Context(TRAINING=1):` or @Context(TRAINING=1) on a "
            "def.",
            "with Context(TRAINING=1):\n  y = ones(4).dropout(0.5)\nprint(y.shape)"},
           {"Variable", "Variable(name, lo, hi)",
            "A symbolic size between lo and hi. v.bind(n) gives it the value n where a shape takes a size "
            "(x[:v], reshape, arange(v)): one kernel is compiled for every n, with n as its argument.",
            "n = Variable(\"n\", 1, 8).bind(3)\nx = arange(8)[:n]\nprint(x.sum())"},
       }},
      {"of several tensors (Tensor.NAME in tinygrad)",
       HelpKind::Function,
       {
           {"stack", "stack(*tensors, dim=0)",
            "The tensors, all of one shape, joined along a new dim at dim; a list of tensors works too.",
            "print(stack(arange(2), arange(2) + 5, dim=1))"},
           {"einsum", "einsum(formula, *tensors)",
            "Sums products of the tensors' elements as the Einstein formula says: each letter a dim, a letter "
            "missing from the output is summed over ('ij,jk->ik' is a matmul, 'ii->i' a diagonal, '...' stands "
            "for the dims not named).",
            "a = arange(6).reshape(2, 3).float()\nprint(einsum('ij,kj->ik', a, a))"},
           {"meshgrid", "meshgrid(*tensors, indexing='ij')",
            "Coordinate grids from 1-dim tensors: one tensor per input, each of the shape of all the inputs' sizes. "
            "indexing='xy' swaps the first two dims, as numpy's default.",
            "a, b = meshgrid(arange(2), arange(3))\nprint(a, b)"},
       }},
      {"Python's, on plain values",
       HelpKind::Function,
       {
           {"range", "range(stop) or range(start, stop, step=1)",
            "Python's lazy range of ints, for loops and comprehensions; list(range(n)) makes the list.",
            "print(list(range(1, 7, 2)))"},
           {"len", "len(x)", "The items of a tuple, list, dict or string; a tensor's first dim.",
            "print(len([1, 2, 3]), len(zeros(4, 2)))"},
           {"int", "int(x=0)",
            "A number, a one-element tensor or a string as a Python int, truncated towards zero.",
            "print(int(2.9), int(tensor([7])), int('12'))"},
           {"float", "float(x=0.0)", "A number, a one-element tensor or a string as a Python float.",
            "print(float(3), float(tensor([0.5])))"},
           {"str", "str(x='')", "The text print shows for x.", "print(str(3) + '!')"},
           {"abs", "abs(x)", "The absolute value of a number, or of each element of a tensor.",
            "print(abs(-2), abs(tensor([-1, 2])))"},
           {"min", "min(a, b, ...) or min(sequence)",
            "The smallest of the arguments, or of a sequence's items, as Python's min.", "print(min(3, 1, 2))"},
           {"max", "max(a, b, ...) or max(sequence)",
            "The largest of the arguments, or of a sequence's items, as Python's max.", "print(max([3, 1, 2]))"},
           {"round", "round(x, ndigits=None)",
            "A number rounded half to even (Python's rule); with ndigits, to that many decimals.",
            "print(round(2.5), round(3.14159, 2))"},
           {"list", "list(x=())", "The items of a tuple, a range, a string or a tensor's first dim as a list.",
            "print(list((1, 2)), list(range(3)))"},
           {"tuple", "tuple(x=())", "The items of a list, a range or a tensor's first dim as a tuple.",
            "print(tuple([1, 2]))"},
       }},
      {"tinygrad's nn: layers (called on a tensor) and optimizers",
       HelpKind::NnFunction,
       {
           {"nn.Linear", "nn.Linear(in_features, out_features, bias=True)",
            "A fully connected layer: layer(x) is x @ weight.T + bias, weight of shape (out_features, in_features). "
            "weight and bias start uniform in +-1/sqrt(in_features), as in tinygrad; layer.weight and layer.bias "
            "are the tensors.",
            "layer = nn.Linear(3, 2)\nprint(layer(ones(4, 3)).shape, layer.weight.shape)"},
           {"nn.Conv2d",
            "nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True)",
            "A 2-d convolution layer: layer(x) is x.conv2d(weight, bias, ...) on x of shape (batch, in_channels, "
            "height, width); padding='same' keeps the size at stride 1. weight and bias start uniform in "
            "+-1/sqrt(in_channels * kernel area).",
            "conv = nn.Conv2d(1, 4, 3, padding=1)\nprint(conv(ones(1, 1, 5, 5)).shape)"},
           {"nn.BatchNorm", "nn.BatchNorm(sz, eps=1e-5, affine=True, track_running_stats=True, momentum=0.1)",
            "Batch normalisation over dim 1: in training mode (Context(TRAINING=1)) it normalises with the batch's "
            "mean and variance and updates running_mean and running_var; otherwise it uses the running ones. "
            "affine adds weight and bias.",
            "bn = nn.BatchNorm(3)\nprint(bn(ones(2, 3, 4, 4)).shape)"},
           {"nn.BatchNorm2d", "nn.BatchNorm2d(sz, eps=1e-5, affine=True, track_running_stats=True, momentum=0.1)",
            "nn.BatchNorm by the name tinygrad also gives it for images (batch, channels, height, width).", "print(nn.BatchNorm2d(2)(ones(1, 2, 3, 3)).shape)"},
           {"nn.BatchNorm3d", "nn.BatchNorm3d(sz, eps=1e-5, affine=True, track_running_stats=True, momentum=0.1)",
            "nn.BatchNorm by the name tinygrad also gives it for volumes (batch, channels, depth, height, width).",
            "print(nn.BatchNorm3d(2)(ones(1, 2, 2, 2, 2)).shape)"},
           {"nn.LayerNorm", "nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True)",
            "Layer normalisation over the last len(normalized_shape) dims: (x - mean) / sqrt(var + eps), times "
            "weight plus bias when elementwise_affine.",
            "ln = nn.LayerNorm(4)\nprint(ln(arange(8).float().reshape(2, 4)))"},
           {"nn.Embedding", "nn.Embedding(vocab_size, embed_size)",
            "A lookup table: layer(idx) is the rows of weight (vocab_size by embed_size) at the int indices idx, "
            "one row per index.",
            "emb = nn.Embedding(10, 3)\nprint(emb(tensor([1, 4])).shape)"},
           {"nn.optim.SGD", "nn.optim.SGD(params, lr=0.001, momentum=0.0, weight_decay=0.0, nesterov=False)",
            "Stochastic gradient descent over params (a list of tensors): opt.step() moves each by -lr times its "
            ".grad (with momentum and weight decay when given), in training mode (Context(TRAINING=1)) as in "
            "tinygrad; opt.zero_grad() clears the grads.",
            "w = tensor([1.0, 2.0])\nopt = nn.optim.SGD([w], lr=0.1)\nwith Context(TRAINING=1):\n  (w * w).sum().backward()\n  opt.step()\nprint(w)"},
           {"nn.optim.Adam", "nn.optim.Adam(params, lr=0.001, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0)",
            "Adam over params: each step moves a tensor by lr times its first moment over the square root of its "
            "second, both running averages of its gradient (b1, b2) with their bias corrected. tinygrad builds it as "
            "LAMB without the trust ratio, as here.",
            "w = tensor([1.0, -1.0])\nopt = nn.optim.Adam([w], lr=0.1)\nwith Context(TRAINING=1):\n  (w * w).sum().backward()\n  opt.step()\nprint(w)"},
           {"nn.optim.AdamW", "nn.optim.AdamW(params, lr=0.001, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.01)",
            "Adam with decoupled weight decay: each step also shrinks every parameter by lr * weight_decay times "
            "itself.",
            "w = tensor([1.0])\nopt = nn.optim.AdamW([w], lr=0.1)\nwith Context(TRAINING=1):\n  (w * 3).sum().backward()\n  opt.step()\nprint(w)"},
           {"nn.state.get_parameters", "nn.state.get_parameters(obj)",
            "Every tensor a layer, an optimizer, or a list or tuple of them holds, as a list: what an optimizer "
            "takes.",
            "layer = nn.Linear(2, 2)\nprint(len(nn.state.get_parameters(layer)))"},
       }},
  };
}

}  // namespace tr::repl
