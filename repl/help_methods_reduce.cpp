// The help table's reductions, scans and sorting, and the tests, masks and bit operations on tensors.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> reduce_help() {
  return {
      {"reductions (axis: None for all, an int or a tuple; negative axes count from the end)",
       HelpKind::Method,
       {
           {"sum", "x.sum(axis=None, keepdim=False, dtype=None)",
            "The sum over axis; keepdim keeps the reduced dims as 1. Small ints and bool are summed in int32 (uint32 "
            "for unsigned), half in float32 and rounded back; dtype= picks the accumulator's dtype.",
            "x = arange(6).reshape(2, 3)\nprint(x.sum(), x.sum(axis=1), x.sum(axis=0, keepdim=True))"},
           {"max", "x.max(axis=None, keepdim=False)", "The largest element over axis.",
            "print(tensor([[1, 5], [7, 2]]).max(axis=1))"},
           {"min", "x.min(axis=None, keepdim=False)", "The smallest element over axis.",
            "print(tensor([[1, 5], [7, 2]]).min(axis=0))"},
           {"mean", "x.mean(axis=None, keepdim=False)",
            "The sum over axis divided by the number of elements summed; ints give float32. One kernel: the sum, "
            "times 1/n as it is stored.",
            "print(arange(4).mean(), arange(6).reshape(2, 3).mean(axis=1))"},
           {"prod", "x.prod(axis=None, keepdim=False, dtype=None)", "The product of the elements over axis.",
            "print(tensor([1, 2, 3, 4]).prod())"},
           {"var", "x.var(axis=None, keepdim=False, correction=1)",
            "The variance over axis: the mean of (x - mean)^2 with n - correction as the divisor (1: the sample "
            "variance, 0: the population's). tinyrepl runs it as one kernel that walks each row twice, the mean then "
            "the squares around it, where tinygrad 0.14 and the notes run two: :explain x.var() says why, and how "
            "to see their version.",
            "x = tensor([1., 2., 3., 4.])\nprint(x.var(), x.var(correction=0))\nassert kernels(x.var()) == 1"},
           {"std", "x.std(axis=None, keepdim=False, correction=1)",
            "The standard deviation over axis: the square root of var, fused into var's kernel.",
            "print(tensor([1., 2., 3., 4.]).std())"},
           {"argmax", "x.argmax(axis=None, keepdim=False)",
            "The index of the largest element over axis (of the flattened x without axis), the first one where "
            "several tie, as int32.",
            "print(tensor([[1, 9, 9], [4, 2, 0]]).argmax(axis=1))"},
           {"argmin", "x.argmin(axis=None, keepdim=False)", "The index of the smallest element over axis, the first "
            "where several tie.",
            "print(tensor([3, 1, 1]).argmin())"},
           {"softmax", "x.softmax(axis=-1, dtype=None)",
            "exp(x - max) / sum(exp(x - max)) along axis: positive numbers that sum to 1 along it, the max "
            "subtracted so that exp cannot overflow; dtype= casts x first. tinyrepl computes the max, the sum of "
            "exps and the output in one kernel that walks each row three times; tinygrad 0.14 runs three kernels "
            "(:explain x.softmax()).",
            "x = tensor([[1., 2., 3.], [1., 1., 1.]])\nprint(x.softmax())\nassert kernels(x.softmax()) == 1"},
           {"log_softmax", "x.log_softmax(axis=-1, dtype=None)",
            "log(softmax(x)), computed as x - max - log(sum(exp(x - max))) so that it stays finite.",
            "print(tensor([1., 2., 3.]).log_softmax())"},
           {"logsumexp", "x.logsumexp(axis=None, keepdim=False)", "log(sum(exp(x))) over axis, without overflow.",
            "print(tensor([1000., 1000.]).logsumexp())"},
           {"var_mean", "x.var_mean(axis=None, keepdim=False, correction=1)",
            "var and mean over axis, as a tuple, from one graph.", "v, m = tensor([1., 3.]).var_mean()\nprint(v, m)"},
           {"std_mean", "x.std_mean(axis=None, keepdim=False, correction=1)", "std and mean over axis, as a tuple.",
            "s, m = tensor([1., 3.]).std_mean()\nprint(s, m)"},
           {"normalize", "x.normalize(p=2.0, dim=1, eps=1e-12)",
            "x divided by its p-norm along dim (at least eps), so that each slice has norm 1; p=0 counts the non-zeros.",
            "print(tensor([[3., 4.]]).normalize())"},
       }},
      {"scans and sorting",
       HelpKind::Method,
       {
           {"cumsum", "x.cumsum(axis=0)", "The running sum along axis: element i is the sum of elements 0..i.",
            "print(arange(5).cumsum())"},
           {"cumprod", "x.cumprod(axis)", "The running product along axis.", "print(tensor([1, 2, 3, 4]).cumprod(0))"},
           {"cummax", "x.cummax(axis=0)", "The running maximum along axis and where it was, as (values, indices).",
            "v, i = tensor([1, 3, 2, 5]).cummax()\nprint(v, i)"},
           {"cummin", "x.cummin(axis=0)", "The running minimum along axis and where it was, as (values, indices).",
            "v, i = tensor([4, 2, 3, 1]).cummin()\nprint(v, i)"},
           {"logcumsumexp", "x.logcumsumexp(axis=0)", "log(cumsum(exp(x))) along axis, without overflow.",
            "print(tensor([0., 0., 0.]).logcumsumexp())"},
           {"sort", "x.sort(dim=-1, descending=False)",
            "The elements sorted along dim and the indices they came from, as (values, indices); equal elements keep "
            "their order. tinygrad sorts with a bitonic network, as here.",
            "v, i = tensor([3, 1, 2]).sort()\nprint(v, i)"},
           {"argsort", "x.argsort(dim=-1, descending=False)", "The indices that sort x along dim.",
            "print(tensor([3, 1, 2]).argsort(descending=True))"},
           {"topk", "x.topk(k, dim=-1, largest=True)",
            "The k largest (or smallest) elements along dim, in order, with their indices, as (values, indices).",
            "v, i = tensor([5, 1, 4, 2]).topk(2)\nprint(v, i)"},
       }},
      {"tests, masks and bits",
       HelpKind::Method,
       {
           {"clip", "x.clip(min_=None, max_=None)", "x limited to [min_, max_] at each element; the same as clamp.",
            "print(arange(6).clip(1, 4))"},
           {"clamp", "x.clamp(min_=None, max_=None)", "x limited to [min_, max_] at each element; either may be None.",
            "print(tensor([-5., 5.]).clamp(max_=1.))"},
           {"masked_fill", "x.masked_fill(mask, value)", "x with value wherever mask is true.",
            "print(arange(4).masked_fill(arange(4) > 1, -1))"},
           {"isnan", "x.isnan()", "True where an element is nan.", "print(tensor([1., float('nan')]).isnan())"},
           {"isinf", "x.isinf(detect_positive=True, detect_negative=True)",
            "True where an element is +inf or -inf (either can be left out).",
            "print(tensor([1., float('inf')]).isinf())"},
           {"isfinite", "x.isfinite()", "True where an element is neither inf nor nan.",
            "print(tensor([1., float('inf')]).isfinite())"},
           {"isclose", "x.isclose(other, rtol=1e-5, atol=1e-8, equal_nan=False)",
            "True where |x - other| <= atol + rtol * |other|, element by element.",
            "print(tensor([1., 2.]).isclose(tensor([1.0000001, 2.1])))"},
           {"any", "x.any(axis=None, keepdim=False)", "Whether any element over axis is true (non-zero), as bool.",
            "print(tensor([[0, 1], [0, 0]]).any(axis=1))"},
           {"all", "x.all(axis=None, keepdim=False)", "Whether every element over axis is true (non-zero), as bool.",
            "print(tensor([[1, 1], [0, 1]]).all(axis=1))"},
           {"bitwise_and", "x.bitwise_and(y)", "x & y on the bits of ints or bools.",
            "print(tensor([12]).bitwise_and(10))"},
           {"bitwise_or", "x.bitwise_or(y)", "x | y on the bits of ints or bools.", "print(tensor([12]).bitwise_or(3))"},
           {"bitwise_xor", "x.bitwise_xor(y)", "x ^ y on the bits of ints or bools.",
            "print(tensor([12]).bitwise_xor(10))"},
           {"bitwise_not", "x.bitwise_not()", "~x: every bit flipped (not, for bool).",
            "print(tensor([0, 5]).bitwise_not())"},
           {"lshift", "x.lshift(bits)", "x << bits: an int tensor times 2^bits.", "print(tensor([1, 3]).lshift(2))"},
           {"rshift", "x.rshift(bits)", "x >> bits: an int tensor divided by 2^bits, rounded down.",
            "print(tensor([8, 7]).rshift(1))"},
       }},
  };
}

}  // namespace tr::repl
