#pragma once
// Symbolic sizes: a dim whose size is a Variable bound to a value (or grows with one: n + 1, 2 * n).
// The lazy graph holds the bound value (so every shape check, buffer and the reference evaluator see
// numbers) and, beside it, the size over the Variable; a kernel's trackers hold only the size (their
// shape entry becomes its largest value), so one compiled kernel serves every value, and the
// Variable's value travels with the launch.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/lazy/lazy.h"
#include "core/shape/symbolic.h"

namespace tr {

// The value of each Variable of a kernel, by name, sorted by name.
using VarVals = std::vector<std::pair<std::string, int64_t>>;

// A Variable with the given bounds, checked (1 <= lo < hi).
ExprRef make_variable(const std::string& name, int64_t lo, int64_t hi);
// Checks that value lies in v's bounds.
void check_binding(const ExprRef& v, int64_t value);

// A symbolic size is a Variable or an expression of one Variable that grows with it, scale * n +
// offset (n + 1, 2 * n, 4 * n - 3), at least 1 for every value of n.
struct Affine {
  int64_t scale = 1, offset = 0;
};
// The size a Variable times scale plus offset: an error when it is not a size (below 1 for some value).
ExprRef scaled_size(const ExprRef& size, int64_t scale, int64_t offset);
// The Variable of a symbolic size, and how the size follows it.
const ExprRef& size_variable(const ExprRef& size);
Affine affine_of(const ExprRef& size);
// The value of size's Variable for which the size is `value`: an error where there is none in its bounds.
int64_t variable_value(const ExprRef& size, int64_t value);

// The Variables that are the sizes of n's dims (null for a number; empty when none is).
std::vector<ExprRef> node_sym(const LazyNode& n);
// What a new base node's dims are: an element-wise node's come from its sources (two different
// Variables on one dim are an error), a reduce keeps those of the dims it does not reduce.
std::vector<ExprRef> derived_sym(Op op, const Shape& shape, const std::vector<LazyRef>& srcs, const LazyArg& arg);
// x with the dims whose entry is non-null made symbolic: each is a Variable whose bound value is the
// dim's size now.
LazyRef bind_sizes(const LazyRef& x, const std::vector<ExprRef>& sym);

// The tracker as a kernel holds it: each symbolic dim of its last view has the Variable's largest
// value as its size, and the Variable's value is added to vals (one Variable bound to two values in
// one kernel is an error). Views below the last keep their numbers.
ShapeTracker unbind(const ShapeTracker& st, VarVals& vals);
// The Variables of a kernel's trackers, each once, sorted by name.
std::vector<ExprRef> kernel_vars(const std::vector<const ShapeTracker*>& trackers);

// The value vals gives Variable `name`, if any.
std::optional<int64_t> value_of(const VarVals& vals, const std::string& name);
// Adds from's values to into (one Variable with two values is an error).
void merge_vals(VarVals& into, const VarVals& from);
// shape with each dim that sym names resized to its Variable's value in vals (one vals lacks keeps
// its size): what a tensor over symbolic dims is for other values of its Variables.
Shape rebound_shape(const Shape& shape, const std::vector<ExprRef>& sym, const VarVals& vals);
// st with the symbolic dims of its last view resized so; a mask over the whole dim follows it.
ShapeTracker rebound(const ShapeTracker& st, const VarVals& vals);

}  // namespace tr
