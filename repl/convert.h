#pragma once
// Reading call arguments as the C++ types the engine takes, with a located type error that names the
// argument ("argument 'axis' of sum() must be an int or a tuple of ints, not float").
#include <optional>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"
#include "repl/arguments.h"

namespace tr::repl {

int64_t to_int(const Arg& a);   // an int; a bool is refused, True is not a size
double to_float(const Arg& a);  // an int or a float
bool to_bool(const Arg& a);
std::string to_str(const Arg& a);
// A device's name, or a tuple or list of names: the devices of a sharded tensor ("(CPU, CPU:1)").
std::string to_device(const Arg& a);
// A tuple or list of device names.
std::vector<std::string> to_devices(const Arg& a);
ConstValue to_number(const Arg& a);  // a bool, int or float
DType to_dtype(const Arg& a);        // a dtype, or its name as a string: "float32"
std::optional<DType> to_optional_dtype(const Arg* a);  // absent or None: none; else to_dtype
Tensor to_tensor(const Arg& a);
std::vector<int64_t> to_ints(const Arg& a);  // an int, or a tuple or list of ints
// A shape given as f(2, 3) or f((2, 3)); empty args is the 0-d shape. -1 is accepted where it means
// "infer" or "keep" (reshape, expand).
Shape to_shape(const std::vector<Arg>& args, bool allow_minus_one = false);
// Axis indices given as f(0, 1) or f((0, 1)), possibly negative.
std::vector<int> to_dims(const std::vector<Arg>& args);
Axes to_axes(const Arg* a);  // absent: every axis; an int; a tuple or list of ints
int to_dim(const Arg& a);    // an axis index, possibly negative

// A parameter's value read as above, or `fallback` where the call left it out.
double number_or(const Bound& b, std::string_view name, double fallback);
bool flag_or(const Bound& b, std::string_view name, bool fallback);
int64_t int_or(const Bound& b, std::string_view name, int64_t fallback);
std::vector<int64_t> ints_or(const Bound& b, std::string_view name, std::vector<int64_t> fallback);
std::optional<int> optional_dim(const Bound& b, std::string_view name);
int dim_or(const Bound& b, std::string_view name, int fallback);

// Every name a dtype answers to, canonical names and tinygrad's aliases ("float", "half", "int").
const std::vector<std::string>& dtype_names();

}  // namespace tr::repl
