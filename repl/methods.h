#pragma once
// Tensor methods and attributes, with tinygrad's names, parameters and defaults.
#include <string>
#include <string_view>
#include <vector>

#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

bool is_method(std::string_view name);
bool is_attribute(std::string_view name);
// Methods and attributes together: what a "did you mean" may suggest after "x.".
const std::vector<std::string>& member_names();

// self.NAME(args) for a method (is_method(call.name) must hold); numpy() prints through print.
Value call_method(const Tensor& self, const CallArgs& call, const PrintSink& print);
// self.NAME for an attribute: shape, dtype, device, ndim, T (is_attribute(name) must hold).
Value get_attribute(const Tensor& self, std::string_view name);

}  // namespace tr::repl
