// The help table's neural-net methods (convolution, pooling, attention, normalisation, losses), gradients,
// and the methods that run, copy and read tensors.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> nn_method_help() {
  return {
      {"convolution, pooling, resampling, attention (spatial dims: the last ones)",
       HelpKind::Method,
       {
           {"conv2d", "x.conv2d(weight, bias=None, groups=1, stride=1, dilation=1, padding=0)",
            "A 2-d (or n-d) cross-correlation of x (batch, channels, *spatial) with weight (out_channels, "
            "channels / groups, *kernel), plus bias per output channel; padding is an int, a pair per dim, or "
            "torch's flat form. tinygrad builds it from views (a pool of windows) and one multiply-sum.",
            "x = ones(1, 1, 4, 4)\nprint(x.conv2d(ones(2, 1, 3, 3)).shape)"},
           {"conv_transpose2d",
            "x.conv_transpose2d(weight, bias=None, groups=1, stride=1, dilation=1, padding=0, output_padding=0)",
            "The transposed convolution (the gradient of conv2d with respect to its input): weight is (channels, "
            "out_channels / groups, *kernel); stride spreads x's elements apart.",
            "x = ones(1, 1, 2, 2)\nprint(x.conv_transpose2d(ones(1, 1, 2, 2), stride=2).shape)"},
           {"max_pool2d",
            "x.max_pool2d(kernel_size=(2,2), stride=None, dilation=1, padding=0, ceil_mode=False, return_indices=False)",
            "The maximum of each window of the last two dims (stride defaults to the kernel size); with "
            "return_indices also where each maximum was, for max_unpool2d.",
            "print(arange(16).float().reshape(1, 1, 4, 4).max_pool2d())"},
           {"max_unpool2d",
            "x.max_unpool2d(indices, kernel_size=(2,2), stride=None, dilation=1, padding=0, output_size=None)",
            "max_pool2d undone: each value put back where indices says its window's maximum was, zeros elsewhere.",
            "x = arange(16).float().reshape(1, 1, 4, 4)\nv, i = x.max_pool2d(return_indices=True)\n"
            "print(v.max_unpool2d(i).shape)"},
           {"avg_pool2d",
            "x.avg_pool2d(kernel_size=(2,2), stride=None, dilation=1, padding=0, ceil_mode=False, count_include_pad=True)",
            "The mean of each window of the last two dims.",
            "print(arange(16).float().reshape(1, 1, 4, 4).avg_pool2d())"},
           {"interpolate", "x.interpolate(size, mode='linear', align_corners=False)",
            "x resampled to size in its last len(size) dims: 'linear' interpolates between neighbours, 'nearest' "
            "and 'nearest-exact' pick one.",
            "print(tensor([[[0., 1.]]]).interpolate((4,)))"},
           {"scaled_dot_product_attention",
            "q.scaled_dot_product_attention(k, v, attn_mask=None, dropout_p=0.0, is_causal=False, enable_gqa=False)",
            "softmax(q @ k.T / sqrt(d) + mask) @ v over the last two dims: is_causal masks the future, attn_mask "
            "adds (or, as bool, selects). tinyrepl fuses the max, exp, sum and matmul into one kernel with a running "
            "maximum (online softmax).",
            "q = ones(1, 2, 4)\nprint(q.scaled_dot_product_attention(q, q).shape)"},
       }},
      {"normalisation and dropout",
       HelpKind::Method,
       {
           {"layernorm", "x.layernorm(axis=-1, eps=1e-5)",
            "(x - mean) / sqrt(var + eps) over axis, without weight or bias (nn.LayerNorm adds them). One kernel "
            "here, three in tinygrad 0.14.",
            "print(tensor([[1., 2., 3.]]).layernorm())"},
           {"batchnorm", "x.batchnorm(weight, bias, mean, invstd, axis=1)",
            "(x - mean) * invstd * weight + bias, each of the size of x's dim axis (weight and bias may be None).",
            "x = ones(2, 3)\nprint(x.batchnorm(None, None, zeros(3), ones(3)))"},
           {"dropout", "x.dropout(p=0.5)",
            "In training mode (Context(TRAINING=1)) each element is zeroed with probability p and the rest scaled "
            "by 1/(1-p); outside training it is x.",
            "print(ones(4).dropout(0.5))"},
       }},
      {"losses (reduction='mean', 'sum' or 'none')",
       HelpKind::Method,
       {
           {"cross_entropy", "x.cross_entropy(Y, reduction='mean', label_smoothing=0.0)",
            "The cross entropy of logits x against Y, class indices or probabilities, over the last dim.",
            "print(tensor([[2., 0., 0.]]).cross_entropy(tensor([0])))"},
           {"sparse_categorical_crossentropy",
            "x.sparse_categorical_crossentropy(Y, ignore_index=-1, label_smoothing=0.0, reduction='mean')",
            "The cross entropy of logits x against int labels Y; labels equal to ignore_index count for nothing.",
            "print(tensor([[2., 0.], [0., 2.]]).sparse_categorical_crossentropy(tensor([0, 1])))"},
           {"nll_loss", "x.nll_loss(Y, weight=None, ignore_index=None, reduction='mean')",
            "The negative log likelihood: minus x's log-probability of each label in Y, weighted per class.",
            "print(tensor([[-0.1, -2.3]]).nll_loss(tensor([0])))"},
           {"binary_crossentropy", "x.binary_crossentropy(Y, reduction='mean')",
            "-(Y log x + (1 - Y) log(1 - x)) for probabilities x and targets Y.",
            "print(tensor([0.9, 0.1]).binary_crossentropy(tensor([1., 0.])))"},
           {"binary_crossentropy_logits", "x.binary_crossentropy_logits(Y, reduction='mean', pos_weight=None)",
            "binary_crossentropy of sigmoid(x), computed from the logits x so that it stays finite; pos_weight "
            "weighs the positive targets.",
            "print(tensor([3., -3.]).binary_crossentropy_logits(tensor([1., 0.])))"},
       }},
      {"gradients",
       HelpKind::Method,
       {
           {"backward", "x.backward(gradient=None)",
            "Fills .grad of every float tensor in x's graph with the gradient of x (a scalar, or with gradient= of "
            "x's shape), adding to a .grad already there. The gradients are lazy graph nodes, fused like any "
            "others.",
            "w = tensor([2., 3.])\n(w * w).sum().backward()\nprint(w.grad)"},
           {"gradient", "x.gradient(*targets, gradient=None)",
            "The gradients of x with respect to the targets, as a list, without storing them in .grad.",
            "w = tensor([2.])\ng = (w * w * w).sum().gradient(w)\nprint(g[0])"},
           {"detach", "x.detach()", "A tensor with x's values that gradients do not flow through.",
            "w = tensor([2.])\n(w * w.detach()).sum().backward()\nprint(w.grad)"},
           {"assign", "x.assign(v)",
            "x, and every name for it, takes v's values: lazily, written into x's buffer in place when realized "
            "(how optimizers update their parameters).",
            "x = zeros(2).contiguous().realize()\nx.assign(tensor([1., 2.]))\nprint(x)"},
           {"requires_grad_", "x.requires_grad_(requires_grad=True)",
            "Accepted and ignored, for programs written for older tinygrad: every float tensor gets a gradient here, "
            "as in tinygrad 0.14.",
            "print(ones(2).requires_grad_().shape)"},
       }},
      {"running, copying and reading",
       HelpKind::Method,
       {
           {"realize", "x.realize()",
            "Runs what x needs now, in one schedule, and keeps the result in x's buffer; returns x.",
            "x = (arange(4) + 1).realize()\nprint(kernels(x))"},
           {"contiguous", "x.contiguous()",
            "x in a buffer of its own: the scheduler ends a kernel here. `m = a.mean().contiguous()` gives the mean "
            "its own kernel, as tinygrad and the notes do for var (:explain a.var()).",
            "a = tensor([1., 2., 3., 4.])\nm = a.mean().contiguous()\nprint(kernels(((a - m) ** 2).sum() / 3))"},
           {"rand_like", "x.rand_like(dtype=None, seed=None)", "rand of x's shape, dtype and device.",
            "print(zeros(2, 2).rand_like().shape)"},
           {"randn_like", "x.randn_like(dtype=None, seed=None)",
            "randn of x's shape, dtype and device (Box-Muller over one rand draw of twice x's elements).",
            "print(zeros(3).randn_like().shape)"},
           {"empty_like", "x.empty_like(dtype=None, device=None)", "empty() of x's shape (and dtype, device).",
            "print(arange(3).empty_like().shape)"},
           {"multinomial", "x.multinomial(num_samples=1, replacement=False, seed=None)",
            "Class indices drawn with the weights in each row of x, as int32; without replacement a class is drawn "
            "at most once.",
            "print(tensor([0., 1., 0.]).multinomial())"},
           {"to", "x.to(device)",
            "x on another device (a copy in the schedule), or a whole copy on each device of a tuple.",
            "print(arange(3).to('CPU:1').device)"},
           {"shard", "x.shard(devices, axis=None)",
            "x split along axis into one piece per device (None: a whole copy on each); every later op runs on each "
            "device, and reductions over the split axis combine the pieces.",
            "s = arange(4).shard(('CPU', 'CPU:1'), axis=0)\nprint(s.sum())"},
           {"clone", "x.clone(device=None)",
            "A copy in a buffer of its own; once realized, an assign to x leaves it as it was.",
            "x = arange(3).contiguous().realize()\nc = x.clone().realize()\nx.assign(zeros(3, dtype=int32))\nprint(c)"},
           {"numpy", "x.numpy()", "x's values, realized; they print as numpy prints the array (print(x) does too).",
            "print(arange(3).numpy())"},
           {"item", "x.item()", "A one-element tensor's value as a Python number.", "print(tensor([2.5]).item() * 2)"},
           {"tolist", "x.tolist()", "x's values as nested Python lists (a number for a 0-dim tensor).",
            "print(arange(4).reshape(2, 2).tolist())"},
       }},
  };
}

}  // namespace tr::repl
