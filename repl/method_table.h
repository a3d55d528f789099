#pragma once
// The table of Tensor methods that repl/methods.cpp builds; files that add a family of methods
// (repl/methods_nn.cpp) fill it through one function each.
#include <functional>
#include <map>
#include <string>

#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

using Method = std::function<Value(const Tensor&, const CallArgs&, const PrintSink&)>;
using MethodTable = std::map<std::string, Method, std::less<>>;

// Activations, convolution and pooling, interpolate, attention, normalisation and the losses.
void add_nn_methods(MethodTable& t);

}  // namespace tr::repl
