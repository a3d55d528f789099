#pragma once
// The table of tensor methods: each name's binding from call arguments to the engine. methods.cpp
// fills it with the core methods; each group of tensor functions adds its block from its own file.
#include <functional>
#include <map>
#include <string>

#include "core/tensor/layout.h"
#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

using Method = std::function<Value(const Tensor&, const CallArgs&, const PrintSink&)>;
using MethodTable = std::map<std::string, Method, std::less<>>;

// Activations, convolution and pooling, interpolate, attention, normalisation and the losses (repl/methods_nn.cpp).
void add_nn_methods(MethodTable& t);
// stack, split, chunk, gather, scatter, cumsum, sort, einsum and the rest (repl/tensor_function_methods.cpp).
void add_tensor_function_methods(MethodTable& t);

// pad's mode=: 'constant' (absent), 'reflect', 'replicate' or 'circular'.
PadMode to_pad_mode(const Arg* a);
// meshgrid's indexing=: 'ij' (absent) or 'xy'.
bool indexing_is_xy(const Arg* a);

}  // namespace tr::repl
