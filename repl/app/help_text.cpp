#include "repl/app/help_text.h"

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/opt/opt_table.h"
#include "repl/app/meta.h"
#include "repl/convert.h"
#include "repl/suggest.h"

namespace tr::repl {
namespace {

struct Entry {
  std::string_view name;
  std::string_view signature;
};

struct Group {
  std::string_view title;
  std::vector<Entry> entries;
};

const std::vector<Group>& function_groups() {
  static const std::vector<Group> groups{
      {"creation (dtype= and device= on each)",
       {{"tensor", "tensor(data, dtype=None, device=None)  nested lists or a number; also Tensor(data)"},
        {"Tensor", "Tensor(data) or Tensor.NAME(...): tinygrad's spelling of the functions"},
        {"zeros", "zeros(*shape, dtype=float32)"},
        {"ones", "ones(*shape, dtype=float32)"},
        {"full", "full(shape, value, dtype=None)"},
        {"arange", "arange(stop) or arange(start, stop, step=1, dtype=None)"},
        {"linspace", "linspace(start, stop, steps, dtype=float32)"},
        {"eye", "eye(n, m=None, dtype=float32)"},
        {"rand", "rand(*shape, seed=None, dtype=float32)  uniform in [0, 1); each call advances the generator, seed= is a stream of its own"},
        {"randn", "randn(*shape, seed=None, dtype=float32)  standard normal, from the same generator"},
        {"manual_seed", "manual_seed(n)  start the generator again at seed n (0 when a run starts)"},
        {"zeros_like", "zeros_like(x, dtype=None)"},
        {"ones_like", "ones_like(x, dtype=None)"},
        {"full_like", "full_like(x, value, dtype=None)"},
        {"empty", "empty(*shape, dtype=float32)  a buffer of its own; its values are unspecified (here zeros)"}}},
      {"random initialisers (seed=, dtype=, device= on each; rand and randn scaled)",
       {{"uniform", "uniform(*shape, low=0.0, high=1.0)"},
        {"normal", "normal(*shape, mean=0.0, std=1.0)"},
        {"randint", "randint(*shape, low=0, high=10, dtype=int32)  high excluded"},
        {"glorot_uniform", "glorot_uniform(*shape)  uniform in +-sqrt(6 / (shape[0] + prod(shape[1:])))"},
        {"kaiming_uniform", "kaiming_uniform(*shape, a=0.01)  uniform in +-sqrt(6 / (1 + a^2) / prod(shape[1:]))"},
        {"kaiming_normal", "kaiming_normal(*shape, a=0.01)  normal, std sqrt(2 / (1 + a^2) / prod(shape[1:]))"},
        {"scaled_uniform", "scaled_uniform(*shape)  uniform in +-prod(shape)^-0.5"},
        {"randperm", "randperm(n, dtype=int32)  a permutation of range(n): the argsort of a rand draw"}}},
      {"element-wise and checks",
       {{"where", "where(condition, x, y)"},
        {"maximum", "maximum(x, y)"},
        {"minimum", "minimum(x, y)"},
        {"allclose", "allclose(a, b, rtol=1e-5, atol=1e-8)  True when |a-b| <= atol + rtol*|b| everywhere"}}},
      {"running",
       {{"kernels", "kernels(x, ...)  how many kernels realizing x would run now, without running them"},
        {"compiles", "compiles()  how many kernel programs this process has built (compiled, or loaded from the disk cache)"},
        {"realize", "realize(x, ...)  run what x needs, all in one schedule"},
        {"print", "print(value, ...)  realize tensors and print them as numpy does"},
        {"Context", "Context(TRAINING=1)  training mode, as `with Context(TRAINING=1):` or @Context(TRAINING=1) on a def"},
        {"Variable", "Variable(name, lo, hi)  a symbolic size; .bind(v) gives it a value in shapes (one kernel for every v)"}}},
      {"of several tensors",
       {{"stack", "stack(*tensors, dim=0)  along a new dim; also a list of tensors"},
        {"einsum", "einsum(formula, *tensors)  e.g. 'bij,bjk->bik', '...', 'ii->i'"},
        {"meshgrid", "meshgrid(*tensors, indexing='ij')  'xy' swaps the first two dims"}}},
      {"Python's, on plain values",
       {{"range", "range(stop) or range(start, stop, step=1)  a lazy range of ints; list(range(n)) makes the list"},
        {"len", "len(x)  items of a tuple, list or string; a tensor's first dim"},
        {"int", "int(x=0)  a number, a one-element tensor or a string to an int"},
        {"float", "float(x=0.0)  a number, a one-element tensor or a string to a float"},
        {"str", "str(x='')  as print shows it"},
        {"abs", "abs(x)  also on a tensor"},
        {"min", "min(a, b, ...) or min(sequence)"},
        {"max", "max(a, b, ...) or max(sequence)"},
        {"round", "round(x, ndigits=None)  half to even"},
        {"list", "list(x=())  a tuple's or a tensor's items as a list"},
        {"tuple", "tuple(x=())  a list's or a tensor's items as a tuple"}}},
  };
  return groups;
}

const std::vector<Group>& method_groups() {
  static const std::vector<Group> groups{
      {"attributes",
       {{"shape", "x.shape  a tuple of ints"},
        {"dtype", "x.dtype"},
        {"device", "x.device"},
        {"ndim", "x.ndim"},
        {"T", "x.T  the transpose (reversed dims)"},
        {"numel", "x.numel()  the number of elements"},
        {"size", "x.size(dim=None)  the shape, or one dim's size"},
        {"element_size", "x.element_size()  bytes per element"},
        {"nbytes", "x.nbytes()  numel() * element_size()"},
        {"is_floating_point", "x.is_floating_point()  True for float16, float32, float64"}}},
      {"element-wise (unary)",
       {{"neg", "x.neg()"}, {"exp", "x.exp()"}, {"exp2", "x.exp2()"}, {"log", "x.log()"}, {"log2", "x.log2()"},
        {"sqrt", "x.sqrt()"}, {"rsqrt", "x.rsqrt()"}, {"sin", "x.sin()"}, {"cos", "x.cos()"}, {"tan", "x.tan()"},
        {"relu", "x.relu()"}, {"sigmoid", "x.sigmoid()"}, {"tanh", "x.tanh()"}, {"gelu", "x.gelu(approximate='tanh')  or 'none'"},
        {"silu", "x.silu()"}, {"abs", "x.abs()"}, {"sign", "x.sign()"}, {"reciprocal", "x.reciprocal()"},
        {"square", "x.square()"}, {"floor", "x.floor()"}, {"ceil", "x.ceil()"}, {"trunc", "x.trunc()"},
        {"round", "x.round()  half to even"}, {"logical_not", "x.logical_not()"}}},
      {"element-wise (binary; a number broadcasts as a constant)",
       {{"add", "x.add(y)  x + y"}, {"sub", "x.sub(y)  x - y"}, {"mul", "x.mul(y)  x * y"},
        {"div", "x.div(y, rounding_mode=None)  x / y, ints give float; 'trunc' or 'floor' round (two int tensors stay int)"}, {"pow", "x.pow(y)  x ** y"}, {"maximum", "x.maximum(y)"},
        {"minimum", "x.minimum(y)"}, {"where", "cond.where(x, y)"}, {"eq", "x.eq(y)  x == y"},
        {"ne", "x.ne(y)  x != y"}, {"lt", "x.lt(y)  x < y"}, {"le", "x.le(y)  x <= y"}, {"gt", "x.gt(y)  x > y"},
        {"ge", "x.ge(y)  x >= y"}, {"mod", "x.mod(y)  x % y, with the divisor's sign"}}},
      {"casts",
       {{"cast", "x.cast(dtype)"}, {"float", "x.float()  float32"}, {"half", "x.half()  float16"},
        {"double", "x.double()  float64"}, {"int", "x.int()  int32"}, {"long", "x.long()  int64"}, {"short", "x.short()  int16"},
        {"bfloat16", "x.bfloat16()  bfloat16"},
        {"bool", "x.bool()"}, {"bitcast", "x.bitcast(dtype)  the same bits read as dtype; another item size rescales the last dim"}}},
      {"reductions (negative axes count from the end)",
       {{"sum", "x.sum(axis=None, keepdim=False)"}, {"max", "x.max(axis=None, keepdim=False)"},
        {"min", "x.min(axis=None, keepdim=False)"}, {"mean", "x.mean(axis=None, keepdim=False)"},
        {"prod", "x.prod(axis=None, keepdim=False)"},
        {"var", "x.var(axis=None, keepdim=False, correction=1)"},
        {"std", "x.std(axis=None, keepdim=False, correction=1)"},
        {"argmax", "x.argmax(axis=None, keepdim=False)  the first maximum"},
        {"argmin", "x.argmin(axis=None, keepdim=False)"}, {"softmax", "x.softmax(axis=-1)"},
        {"log_softmax", "x.log_softmax(axis=-1)"}, {"logsumexp", "x.logsumexp(axis=None, keepdim=False)"},
        {"var_mean", "x.var_mean(axis=None, keepdim=False, correction=1)  var and mean, a tuple"},
        {"std_mean", "x.std_mean(axis=None, keepdim=False, correction=1)  std and mean, a tuple"},
        {"normalize", "x.normalize(p=2.0, dim=1, eps=1e-12)  x / max(||x||_p, eps); p=0 counts non-zeros"}}},
      {"movement (views: no copy where possible)",
       {{"reshape", "x.reshape(*shape)  one -1 is inferred"}, {"view", "x.view(*shape)  as reshape"},
        {"permute", "x.permute(*order)"}, {"expand", "x.expand(*shape)  -1 keeps a dim"},
        {"shrink", "x.shrink(arg)  arg: ((start, stop) or None, ...) per dim"}, {"flip", "x.flip(*axis)"},
        {"transpose", "x.transpose(dim0=1, dim1=0)"}, {"flatten", "x.flatten(start_dim=0, end_dim=-1)"},
        {"unsqueeze", "x.unsqueeze(dim)"}, {"squeeze", "x.squeeze(dim=None)"},
        {"repeat", "x.repeat(*repeats)"}, {"cat", "x.cat(*others, dim=0)"}}},
      {"linear algebra",
       {{"dot", "x.dot(w)"}, {"matmul", "x.matmul(w)  x @ w"},
        {"linear", "x.linear(weight, bias=None, dtype=None)  x @ weight + bias"}}},
      {"layout (views where possible)",
       {{"stack", "x.stack(*others, dim=0)"}, {"split", "x.split(sizes, dim=0)  an int or a list of sizes; a tuple"},
        {"chunk", "x.chunk(chunks, dim=0)  a list"}, {"unflatten", "x.unflatten(dim, sizes)"},
        {"meshgrid", "x.meshgrid(*others, indexing='ij')"},
        {"repeat_interleave", "x.repeat_interleave(repeats, dim=None)"},
        {"roll", "x.roll(shifts, dims=None)"}, {"diag", "x.diag()  a 1-dim x on a square's diagonal"},
        {"diagonal", "x.diagonal(offset=0, dim1=0, dim2=1)  a view; the two dims become a last dim"},
        {"tril", "x.tril(diagonal=0)"}, {"triu", "x.triu(diagonal=0)"},
        {"unfold", "x.unfold(dim, size, step)  windows as a new last dim"},
        {"pad", "x.pad(padding, mode='constant', value=0)  mode: constant, reflect, replicate, circular"},
        {"pad_to", "x.pad_to(*shape, value=0)  pad the end of each dim up to shape; None keeps a dim"}}},
      {"tests, masks and bits",
       {{"clip", "x.clip(min_=None, max_=None)  also clamp"}, {"clamp", "x.clamp(min_=None, max_=None)"},
        {"masked_fill", "x.masked_fill(mask, value)"}, {"isnan", "x.isnan()"},
        {"isinf", "x.isinf(detect_positive=True, detect_negative=True)"}, {"isfinite", "x.isfinite()"},
        {"isclose", "x.isclose(other, rtol=1e-5, atol=1e-8, equal_nan=False)"},
        {"any", "x.any(axis=None, keepdim=False)"}, {"all", "x.all(axis=None, keepdim=False)"},
        {"bitwise_and", "x.bitwise_and(y)  x & y"}, {"bitwise_or", "x.bitwise_or(y)  x | y"},
        {"bitwise_xor", "x.bitwise_xor(y)  x ^ y"}, {"bitwise_not", "x.bitwise_not()  ~x"},
        {"lshift", "x.lshift(bits)  x << bits"}, {"rshift", "x.rshift(bits)  x >> bits"}}},
      {"indexing by tensors (also x[idx], x[[0, 2]], x[i, j])",
       {{"gather", "x.gather(dim, index)"},
        {"scatter", "x.scatter(dim, index, src, reduce=None)  reduce: 'add' or 'multiply' with a number src"},
        {"scatter_reduce",
         "x.scatter_reduce(dim, index, src, reduce, include_self=True)  reduce: 'sum', 'prod', 'mean', 'amax', 'amin'"},
        {"one_hot", "x.one_hot(num_classes)  int32"},
        {"masked_select", "x.masked_select(mask, size=None, fill_value=0)  1-dim; without size= it reads the mask's count first"},
        {"nonzero", "x.nonzero(size=None, fill_value=0)  int32 coordinates, (count, ndim); without size= it reads the count first"}}},
      {"scans and sorting",
       {{"cumsum", "x.cumsum(axis=0)"}, {"cumprod", "x.cumprod(axis)"},
        {"cummax", "x.cummax(axis=0)  values and indices"},
        {"cummin", "x.cummin(axis=0)  values and indices"},
        {"logcumsumexp", "x.logcumsumexp(axis=0)  log(cumsum(exp(x))) without overflow"},
        {"sort", "x.sort(dim=-1, descending=False)  values and indices, stable"},
        {"argsort", "x.argsort(dim=-1, descending=False)"},
        {"topk", "x.topk(k, dim=-1, largest=True)  values and indices"}}},
      {"control",
       {{"realize", "x.realize()  run what x needs now"}, {"contiguous", "x.contiguous()  its own buffer"},
        {"rand_like", "x.rand_like(dtype=None, seed=None)  rand of x's shape, dtype and device"},
        {"randn_like", "x.randn_like(dtype=None, seed=None)  Box-Muller over one rand draw of twice x's elements"},
        {"empty_like", "x.empty_like(dtype=None, device=None)  empty() of x's shape"},
        {"multinomial", "x.multinomial(num_samples=1, replacement=False, seed=None)  int32 class indices drawn by x's row weights"},
        {"to", "x.to(device)  a device, or a tuple of devices: a whole copy on each"},
        {"shard", "x.shard(devices, axis=None)  one piece of axis per device (None: a whole copy on each); every later op runs on each device"}, {"clone", "x.clone(device=None)  a copy in a buffer of its own; once realized, an assign to x leaves it"}, {"numpy", "x.numpy()  prints as print(x) does"},
        {"item", "x.item()  a one-element tensor to a number"}, {"tolist", "x.tolist()  nested lists"}}},
      {"activations and math",
       {{"leaky_relu", "x.leaky_relu(neg_slope=0.01)"}, {"elu", "x.elu(alpha=1.0)"}, {"celu", "x.celu(alpha=1.0)"},
        {"selu", "x.selu(alpha=1.67326, gamma=1.0507)"}, {"softplus", "x.softplus(beta=1.0)"}, {"mish", "x.mish()"},
        {"hardswish", "x.hardswish()"}, {"hardsigmoid", "x.hardsigmoid(alpha=1/6, beta=0.5)"},
        {"hardtanh", "x.hardtanh(min_val=-1, max_val=1)"}, {"relu6", "x.relu6()"}, {"quick_gelu", "x.quick_gelu()"},
        {"swish", "x.swish()"}, {"logsigmoid", "x.logsigmoid()"}, {"softsign", "x.softsign()"},
        {"softmin", "x.softmin(axis=-1)"}, {"erf", "x.erf()"}, {"log10", "x.log10()"}, {"sinh", "x.sinh()"},
        {"cosh", "x.cosh()"}, {"asin", "x.asin()"}, {"acos", "x.acos()"}, {"atan", "x.atan()"},
        {"logaddexp", "x.logaddexp(other)  log(exp(x) + exp(other)), stable"},
        {"lerp", "x.lerp(end, weight)  x + (end - x) * weight"},
        {"fmod", "x.fmod(y)  the remainder with x's sign (C's fmod)"},
        {"asinh", "x.asinh()  log(x + sqrt(x^2 + 1))"}, {"acosh", "x.acosh()  log(x + sqrt(x^2 - 1)), nan below 1"},
        {"atanh", "x.atanh()  log((1 + x) / (1 - x)) / 2, nan beyond +-1"},
        {"copysign", "x.copysign(other)  |x| with other's sign (-0.0 counts as negative); the broadcast's dtype"}}},
      {"convolution, pooling, resampling, attention (spatial: the last dims)",
       {{"conv2d", "x.conv2d(weight, bias=None, groups=1, stride=1, dilation=1, padding=0)"},
        {"conv_transpose2d",
         "x.conv_transpose2d(weight, bias=None, groups=1, stride=1, dilation=1, padding=0, output_padding=0)"},
        {"max_pool2d", "x.max_pool2d(kernel_size=(2,2), stride=None, dilation=1, padding=0, ceil_mode=False, "
                       "return_indices=False)"},
        {"max_unpool2d",
         "x.max_unpool2d(indices, kernel_size=(2,2), stride=None, dilation=1, padding=0, output_size=None)"},
        {"avg_pool2d",
         "x.avg_pool2d(kernel_size=(2,2), stride=None, dilation=1, padding=0, ceil_mode=False, count_include_pad=True)"},
        {"interpolate", "x.interpolate(size, mode='linear', align_corners=False)  also 'nearest', 'nearest-exact'"},
        {"scaled_dot_product_attention",
         "q.scaled_dot_product_attention(k, v, attn_mask=None, dropout_p=0.0, is_causal=False, enable_gqa=False)"}}},
      {"normalisation",
       {{"layernorm", "x.layernorm(axis=-1, eps=1e-5)"},
        {"batchnorm", "x.batchnorm(weight, bias, mean, invstd, axis=1)  weight, bias may be None"},
        {"dropout", "x.dropout(p=0.5)  in training (Context(TRAINING=1)) zeroes with probability p, scales by 1/(1-p)"}}},
      {"losses (reduction='mean', 'sum' or 'none')",
       {{"cross_entropy", "x.cross_entropy(Y, reduction='mean', label_smoothing=0.0)  Y: class indices or probabilities"},
        {"sparse_categorical_crossentropy",
         "x.sparse_categorical_crossentropy(Y, ignore_index=-1, label_smoothing=0.0, reduction='mean')"},
        {"nll_loss", "x.nll_loss(Y, weight=None, ignore_index=None, reduction='mean')  x: log-probabilities"},
        {"binary_crossentropy", "x.binary_crossentropy(Y, reduction='mean')  x: probabilities"},
        {"binary_crossentropy_logits", "x.binary_crossentropy_logits(Y, reduction='mean', pos_weight=None)  x: logits"}}},
      {"gradients",
       {{"backward", "x.backward(gradient=None)  fill .grad of every float tensor in x's graph"},
        {"gradient", "x.gradient(*targets, gradient=None)  the gradients, as a list, without storing them"},
        {"grad", "x.grad  the gradient backward() stored, or None"},
        {"detach", "x.detach()  a leaf with x's values: gradients stop there"},
        {"assign", "x.assign(v)  x (every name for it) holds v's values: lazy, written into x's buffer in place when realized"},
        {"requires_grad_", "x.requires_grad_(requires_grad=True)  accepted; every float tensor has a gradient"}}},
  };
  return groups;
}

std::string groups_text(std::string_view title, const std::vector<Group>& groups) {
  std::string out = fmt::format("{}:\n", title);
  for (const Group& g : groups) {
    out += fmt::format("  {}\n", g.title);
    for (const Entry& e : g.entries) out += fmt::format("    {}\n", e.signature);
  }
  return out;
}

std::string commands_text() {
  std::string out = "meta commands (K: a kernel's index in :kernels, default the last kernel):\n";
  for (const MetaCommand& c : meta_commands()) out += fmt::format("  {:<24} {}\n", c.usage, c.summary);
  return out;
}

std::string dtypes_text() {
  return fmt::format(
      "dtypes: {}\n"
      "  a bare name (float32) or dtypes.NAME; default int is int32, default float is float32.\n"
      "  promotion follows tinygrad: bool < int8/uint8 < ... < int64 < float16 < float32 < float64;\n"
      "  int / int is float, // is floor division, comparisons give bool, sum of bool is int32.\n",
      fmt::join(dtype_names(), " "));
}

constexpr std::string_view kKeys = R"(keys of the plain REPL:
  Tab            complete names, methods after "x.", functions, dtypes, meta commands
  Up/Down        history (kept in ~/.tinyrepl_history)   Ctrl-R  search the history
  Ctrl-A/Ctrl-E  start/end of line   Ctrl-W  delete a word   Ctrl-L  clear the screen
  Enter          run; while a bracket is open the next line continues it ("... ")
  Ctrl-D         leave (as :quit)
)";

constexpr std::string_view kDebug = R"(DEBUG levels (--debug N, DEBUG=N, :debug N), as in tinygrad:
  1  "scheduled N kernels in X ms" and the name of each kernel run
  2  one line per kernel or copy: device, name, memory, time, GFLOPS, GB/s; at the end of a script
     "avg: ... GFLOPS ... GB/s   total: N kernels ..."; a line that a @jit replay launched ends with (jit)
  3  + each kernel's AST tree with its ShapeTracker views, its dims with their roles, and the opts applied
  4  + the rendered source (the :render backends, else the device's)
  5  + the UOps listing
  6  + the UOps after each lowering pass, in order (as :uops K all)
A kernel's stages come before its *** line.
)";

constexpr std::string_view kJson = R"(--json (tinyrepl run --json FILE.tg): one JSON object per line on stdout, each with "event",
and "file" and "line" when it comes from a statement:
  print     shape, dtype, data (flat, row-major) and text; "shape": null and "value" for other values;
            "values" (a list of those) when print has several arguments
  schedule  kernels, copies, ms            kernel  name, device, global, local, us, flops, bytes, gflops, gbs, cached, jit
  copy      bytes, from, to, us, jit       assert  ok (and col, message when it failed)
  error     line, col, kind, message       source  kernel, backend, text (--debug 4 and up, per --render backend)
  output    command, text (what a meta command shows)
  summary   kernels, gflops, gbs, ms (at the end)
)";

std::string opt_text(const OptInfo& o) {
  std::vector<std::string_view> takes;
  for (const DimRole r : o.takes) takes.push_back(dim_role_name(r));
  const std::string gives = !o.gives ? "padded, masked"
                            : fmt::format("{} piece {}", o.gives_outer ? "outer" : "inner", dim_role_name(*o.gives));
  const std::string beam = o.gives == DimRole::Thread ? "the cores"
                           : o.beam_amounts.empty()   ? "none"
                                                      : fmt::format("{}", fmt::join(o.beam_amounts, " "));
  std::string out = fmt::format("  {:<7} {} dim -> {}: {}\n          BEAM tries: {}", o.name, fmt::join(takes, " or "),
                                gives, o.help, beam);
  if (o.needs != OptNeeds::Nothing) out += fmt::format("; needs {}", needs_str(o.needs));
  // the table's rules of which opts combine
  const auto rules = [](const std::vector<OptRule>& rs) {
    std::vector<std::string> names;
    for (const OptRule& r : rs) names.push_back(fmt::format("{}{}", kernel_has_name(r.with), r.reduce_dim_only ? " (of a reduce dim)" : ""));
    return fmt::format("{}", fmt::join(names, ", "));
  };
  if (!o.requires_.empty()) out += fmt::format("\n          needs the kernel to have: {}", rules(o.requires_));
  if (!o.conflicts.empty()) out += fmt::format("\n          not after: {}", rules(o.conflicts));
  if (o.rows_again != RowsAgain::Applies)
    out += fmt::format("\n          not in a kernel that walks its rows again{}", o.rows_again == RowsAgain::OutputDimsOnly ? " (but of an output dim)" : "");
  return out + "\n";
}

std::string opts_text() {
  std::string out = "opts (:opt K OP AXIS AMOUNT; :opts K shows the dims that AXIS counts):\n";
  for (const OptInfo& o : opt_table()) out += opt_text(o);
  return out;
}

std::string overview() {
  return commands_text() +
         "\nThe language is Python's expressions over tensors: x = arange(6).reshape(2, 3); print(x.sum(axis=1))\n"
         "Topics: :help commands | functions | methods | dtypes | opts | keys | debug | json, or :help NAME.\n";
}

const Entry* find_entry(const std::vector<Group>& groups, std::string_view name) {
  for (const Group& g : groups)
    for (const Entry& e : g.entries)
      if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

std::vector<std::string> help_topics() {
  std::vector<std::string> out{"commands", "functions", "methods", "dtypes", "opts", "keys", "debug", "json"};
  for (const MetaCommand& c : meta_commands()) out.emplace_back(c.name);
  for (const auto* groups : {&function_groups(), &method_groups()})
    for (const Group& g : *groups)
      for (const Entry& e : g.entries) out.emplace_back(e.name);
  return out;
}

std::string help_text(std::string_view topic) {
  if (topic.empty()) return overview();
  if (topic == "commands") return commands_text();
  if (topic == "functions") return groups_text("functions", function_groups());
  if (topic == "methods") return groups_text("tensor methods and attributes", method_groups());
  if (topic == "dtypes") return dtypes_text();
  if (topic == "opts") return opts_text();
  if (topic == "keys") return std::string(kKeys);
  if (topic == "debug") return std::string(kDebug);
  if (topic == "json") return std::string(kJson);
  const std::string_view bare = topic.starts_with(':') ? topic.substr(1) : topic;
  // a name can be a command, a function and a method at once (kernels, realize, where)
  std::string out;
  if (const MetaCommand* c = find_meta_command(bare)) out += fmt::format("{}\n  {}\n", c->usage, c->summary);
  if (!topic.starts_with(':')) {
    if (const std::optional<OptOp> op = parse_opt(topic)) out += opt_text(opt_info(*op));
    if (const Entry* e = find_entry(function_groups(), topic)) out += fmt::format("function {}\n", e->signature);
    if (const Entry* e = find_entry(method_groups(), topic)) out += fmt::format("method {}\n", e->signature);
  }
  if (out.empty()) fail("value", "no help on '{}'{}", topic, did_you_mean(topic, help_topics()));
  return out;
}

}  // namespace tr::repl
