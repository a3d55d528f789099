#include "repl/tensor_function_builtins.h"

#include "core/tensor/einsum.h"
#include "core/tensor/layout.h"
#include "repl/convert.h"
#include "repl/method_table.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {


// Tensors given one by one, or as one list or tuple of them (tinygrad's argfix).
std::vector<Tensor> tensors_of(const CallArgs& call, const std::vector<Arg>& args) {
  std::vector<Tensor> out;
  if (args.size() == 1 && sequence_items(args[0].value)) {
    for (const Value& v : *sequence_items(args[0].value)) out.push_back(to_tensor(Arg{v, args[0].span, args[0].what}));
  } else {
    for (const Arg& a : args) out.push_back(to_tensor(a));
  }
  if (out.empty()) fail_at(call.span, "type", "{}() needs at least one tensor", call.name);
  return out;
}

}  // namespace

Value stack_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"tensors", kRest}, {"dim"}});
  return stack(tensors_of(call, b.rest()), dim_or(b, "dim", 0));
}

Value einsum_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"formula", kRequired}, {"operands", kRest}});
  return einsum(to_str(b["formula"]), tensors_of(call, b.rest()));
}

Value meshgrid_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"tensors", kRest}, {"indexing"}});
  Tuple out;
  for (const Tensor& t : meshgrid(tensors_of(call, b.rest()), indexing_is_xy(b.find("indexing")))) out.items.emplace_back(t);
  return out;
}

}  // namespace tr::repl
