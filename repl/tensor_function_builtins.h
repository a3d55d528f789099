#pragma once
// Functions of several tensors that tinygrad spells as Tensor.NAME(...): stack, einsum, meshgrid.
#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

Value stack_fn(const CallArgs& call, const PrintSink&);     // stack(a, b, ..., dim=0) or stack([a, b], dim=0)
Value einsum_fn(const CallArgs& call, const PrintSink&);    // einsum("ij,jk->ik", a, b)
Value meshgrid_fn(const CallArgs& call, const PrintSink&);  // meshgrid(x, y, indexing="ij")

}  // namespace tr::repl
