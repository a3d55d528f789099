#include "repl/operators.h"

#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/tensor/logic.h"
#include "repl/number_ops.h"
#include "repl/symbolic_variable.h"

namespace tr::repl {
namespace {

using TensorBinary = Tensor (Tensor::*)(const Tensor&) const;

TensorBinary tensor_op(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return &Tensor::add;
    case BinaryOp::Sub: return &Tensor::sub;
    case BinaryOp::Mul: return &Tensor::mul;
    case BinaryOp::Div: return &Tensor::div;
    case BinaryOp::FloorDiv: return &Tensor::floordiv;
    case BinaryOp::Mod: return &Tensor::mod;
    case BinaryOp::MatMul: return &Tensor::matmul;
    case BinaryOp::Pow: break;  // a number may be a constant power: see power()
    case BinaryOp::BitAnd: return &Tensor::logical_and;
    case BinaryOp::BitOr: return &Tensor::logical_or;
    case BinaryOp::BitXor: return &Tensor::bitwise_xor;
    case BinaryOp::LShift:
    case BinaryOp::RShift: break;  // by a number of bits, not a tensor: see shifted()
  }
  return &Tensor::add;
}

TensorBinary tensor_op(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return &Tensor::lt;
    case CompareOp::Le: return &Tensor::le;
    case CompareOp::Gt: return &Tensor::gt;
    case CompareOp::Ge: return &Tensor::ge;
    case CompareOp::Eq: return &Tensor::eq;
    case CompareOp::Ne: return &Tensor::ne;
    case CompareOp::Is:
    case CompareOp::IsNot:
    case CompareOp::In:
    case CompareOp::NotIn: fail("type", "'{}' does not compare tensors element by element", spelling(op));
  }
  return &Tensor::eq;
}

bool same_sequence_kind(const Value& a, const Value& b) {
  return (a.is<Tuple>() && b.is<Tuple>()) || (a.is<List>() && b.is<List>());
}

// Python compares ranges as the sequences of ints they hold: range(0) == range(5, 2), range(1, 2, 7) == range(1, 2).
bool same_ints(const RangeValue& a, const RangeValue& b) {
  const int64_t n = a.size();
  if (n != b.size()) return false;
  return n == 0 || (a.start == b.start && (n == 1 || a.step == b.step));
}

bool values_equal(const Value& a, const Value& b) {
  if (a.is<Tensor>() || b.is<Tensor>()) return truthy(apply_compare(CompareOp::Eq, a, b));
  if (is_number(a) && is_number(b)) return number_compare(CompareOp::Eq, to_const(a), to_const(b));
  if (same_sequence_kind(a, b)) {
    const std::vector<Value>& x = *sequence_items(a);
    const std::vector<Value>& y = *sequence_items(b);
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); i++) {
      if (!values_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.index() != b.index()) return false;
  if (const RangeValue* r = a.get_if<RangeValue>()) return same_ints(*r, std::get<RangeValue>(b));
  if (const Dict* d = a.get_if<Dict>()) {  // as Python's: the same keys with equal values, in any order
    const Dict& e = std::get<Dict>(b);
    if (d->keys.size() != e.keys.size()) return false;
    for (size_t i = 0; i < d->keys.size(); i++) {
      const Value* other = dict_find(e, d->keys[i]);
      if (!other || !values_equal(d->values[i], *other)) return false;
    }
    return true;
  }
  if (const std::string* s = a.get_if<std::string>()) return *s == std::get<std::string>(b);
  if (const DType* t = a.get_if<DType>()) return *t == std::get<DType>(b);
  return a.is<NoneValue>();
}

// Python's sequence comparison: the first differing items decide, else the lengths.
bool sequence_order(CompareOp op, const std::vector<Value>& x, const std::vector<Value>& y) {
  for (size_t i = 0; i < x.size() && i < y.size(); i++) {
    if (!values_equal(x[i], y[i])) return truthy(apply_compare(op, x[i], y[i]));
  }
  return number_compare(op, static_cast<int64_t>(x.size()), static_cast<int64_t>(y.size()));
}

// Python's `is` on the values this language has: tensors, functions and objects by identity; None,
// bools, numbers, strings and dtypes by type and value (Python keeps one object for each of those
// that a program compares this way); tuples, lists and dicts are values here, not objects.
bool identical(const Value& a, const Value& b) {
  for (const Value* v : {&a, &b})
    if (v->is<Tuple>() || v->is<List>() || v->is<Dict>() || v->is<RangeValue>())
      fail("type", "'is' compares objects, and a {} here is a value: compare it with ==", type_name(*v));
  if (a.index() != b.index()) return false;
  if (const Tensor* t = a.get_if<Tensor>()) return t->same(std::get<Tensor>(b));
  if (const FunctionRef* f = a.get_if<FunctionRef>()) return *f == std::get<FunctionRef>(b);
  if (const ObjectRef* o = a.get_if<ObjectRef>()) return *o == std::get<ObjectRef>(b);
  return values_equal(a, b);
}

// `item in range(...)` without walking the range: an int (or a bool, or a float that is whole) that the
// range's ints reach; Python's == finds nothing else there.
bool range_holds(const RangeValue& r, const Value& item) {
  if (!is_number(item)) return false;
  const double d = as_double(to_const(item));
  if (item.is<double>() && (std::trunc(d) != d || std::fabs(d) >= 9.2e18)) return false;
  const int64_t x = item.is<double>() ? static_cast<int64_t>(d) : as_int(to_const(item));
  const __int128 offset = __int128{x} - r.start;
  if (offset % r.step != 0) return false;
  const __int128 i = offset / r.step;
  return i >= 0 && i < r.size();
}

// Python's `item in container`.
bool contains(const Value& container, const Value& item) {
  if (const std::vector<Value>* items = sequence_items(container)) {
    return std::any_of(items->begin(), items->end(), [&](const Value& x) {
      return (x.is<Tensor>() && item.is<Tensor>()) ? std::get<Tensor>(x).same(std::get<Tensor>(item)) : values_equal(x, item);
    });
  }
  if (const std::string* s = container.get_if<std::string>()) {
    const std::string* part = item.get_if<std::string>();
    if (!part) fail("type", "'in <string>' requires string as left operand, not {}", type_name(item));
    return s->find(*part) != std::string::npos;
  }
  if (const Dict* d = container.get_if<Dict>()) {
    const std::string* key = item.get_if<std::string>();
    return key && dict_find(*d, *key);
  }
  if (const RangeValue* r = container.get_if<RangeValue>()) return range_holds(*r, item);
  if (container.is<Tensor>()) fail("type", "'in' does not search a tensor: compare it, e.g. (x == v).sum() > 0");
  fail("type", "argument of type '{}' is not iterable", type_name(container));
}

template <typename Seq>
Value concatenated(const Seq& a, const Seq& b) {
  Seq out = a;
  out.items.insert(out.items.end(), b.items.begin(), b.items.end());
  return out;
}

// tensor << n and tensor >> n by an int or by a tensor of counts; n << tensor shifts n, a constant of
// the tensor's dtype.
Tensor shifted(BinaryOp op, const Value& a, const Value& b) {
  const Tensor* x = a.get_if<Tensor>();
  if (const Tensor* counts = b.get_if<Tensor>()) {
    if (!x && !a.is<int64_t>()) fail("type", "only an int or a tensor can be shifted, not {}", type_name(a));
    const Tensor base = x ? *x : Tensor::scalar_like(*counts, std::get<int64_t>(a));
    return op == BinaryOp::LShift ? lshift(base, *counts) : rshift(base, *counts);
  }
  if (!b.is<int64_t>()) fail("type", "a tensor is shifted by an int or a tensor of counts, not by {}", type_name(b));
  const int64_t bits = std::get<int64_t>(b);
  return op == BinaryOp::LShift ? lshift(*x, bits) : rshift(*x, bits);
}

}  // namespace

std::pair<Tensor, Tensor> tensor_operands(const Value& a, const Value& b, std::string_view op) {
  const Tensor* x = a.get_if<Tensor>();
  const Tensor* y = b.get_if<Tensor>();
  if (x && y) return {*x, *y};
  if (x && is_number(b)) return {*x, Tensor::scalar_like(*x, to_const(b))};
  if (y && is_number(a)) return {Tensor::scalar_like(*y, to_const(a)), *y};
  fail("type", "unsupported operand types for {}: '{}' and '{}'", op, type_name(a), type_name(b));
}

Tensor power(const Value& a, const Value& b) {
  if (const Tensor* x = a.get_if<Tensor>(); x && is_number(b)) return x->pow(to_const(b));
  if (const Tensor* y = b.get_if<Tensor>(); y && is_number(a)) return y->rpow(to_const(a));
  const auto [x, y] = tensor_operands(a, b, "**");
  return x.pow(y);
}

Tensor select(const Tensor& cond, const Value& a, const Value& b) {
  // two numbers: the first takes its Python type's dtype, the second joins it by the scalar rule
  const Value first =
      is_number(a) && is_number(b) ? Value(Tensor::full({}, to_const(a), std::nullopt, cond.device())) : a;
  const auto [x, y] = tensor_operands(first, b, "where");
  return cond.where(x, y);
}

Value apply_binary(BinaryOp op, const Value& a, const Value& b) {
  if (a.is<Tensor>() || b.is<Tensor>()) {
    if (op == BinaryOp::LShift || op == BinaryOp::RShift) return shifted(op, a, b);
    if (op == BinaryOp::Pow) return power(a, b);
    const auto [x, y] = tensor_operands(a, b, spelling(op));
    return (x.*tensor_op(op))(y);
  }
  if (is_number(a) && is_number(b)) return from_const(number_binary(op, to_const(a), to_const(b)));
  if (variable_of(a) || variable_of(b)) return variable_arithmetic(op, a, b);
  if (op == BinaryOp::Add) {
    if (a.is<std::string>() && b.is<std::string>()) return std::get<std::string>(a) + std::get<std::string>(b);
    if (a.is<Tuple>() && b.is<Tuple>()) return concatenated(std::get<Tuple>(a), std::get<Tuple>(b));
    if (a.is<List>() && b.is<List>()) return concatenated(std::get<List>(a), std::get<List>(b));
  }
  fail("type", "unsupported operand types for {}: '{}' and '{}'", spelling(op), type_name(a), type_name(b));
}

Value apply_compare(CompareOp op, const Value& a, const Value& b) {
  if (op == CompareOp::Is || op == CompareOp::IsNot) return identical(a, b) == (op == CompareOp::Is);
  if (op == CompareOp::In || op == CompareOp::NotIn) return contains(b, a) == (op == CompareOp::In);
  if (a.is<Tensor>() || b.is<Tensor>()) {
    const auto [x, y] = tensor_operands(a, b, spelling(op));
    return (x.*tensor_op(op))(y);
  }
  if (is_number(a) && is_number(b)) return number_compare(op, to_const(a), to_const(b));
  if (op == CompareOp::Eq) return values_equal(a, b);
  if (op == CompareOp::Ne) return !values_equal(a, b);
  if (a.is<std::string>() && b.is<std::string>()) {
    const int c = std::get<std::string>(a).compare(std::get<std::string>(b));
    return number_compare(op, int64_t{c}, int64_t{0});
  }
  if (same_sequence_kind(a, b)) return sequence_order(op, *sequence_items(a), *sequence_items(b));
  fail("type", "'{}' not supported between instances of '{}' and '{}'", spelling(op), type_name(a), type_name(b));
}

Value apply_unary(UnaryOp op, const Value& a) {
  if (op == UnaryOp::Not) return !truthy(a);
  if (const Tensor* t = a.get_if<Tensor>()) {
    if (op == UnaryOp::Invert) return bitwise_not(*t);
    return op == UnaryOp::Neg ? t->neg() : *t;
  }
  if (!is_number(a) || (op == UnaryOp::Invert && a.is<double>()))
    fail("type", "bad operand type for unary {}: '{}'", spelling(op), type_name(a));
  if (op == UnaryOp::Invert) return ~as_int(to_const(a));
  // -x as -1 * x keeps Python's results: -True is -1, -0.0 keeps its sign, -(-2**63) overflows
  return from_const(number_binary(BinaryOp::Mul, int64_t{op == UnaryOp::Neg ? -1 : 1}, to_const(a)));
}

bool truthy(const Value& v) {
  struct {
    bool operator()(const NoneValue&) const { return false; }
    bool operator()(bool b) const { return b; }
    bool operator()(int64_t i) const { return i != 0; }
    bool operator()(double d) const { return d != 0; }
    bool operator()(const std::string& s) const { return !s.empty(); }
    bool operator()(DType) const { return true; }
    bool operator()(const Tensor& t) const {
      if (t.numel() != 1) {
        fail("value", "a tensor of shape {} has no truth value; only a one-element tensor has", shape_str(t.shape()));
      }
      return std::visit([](auto x) { return x != 0; }, t.item());
    }
    bool operator()(const Tuple& t) const { return !t.items.empty(); }
    bool operator()(const List& l) const { return !l.items.empty(); }
    bool operator()(const Dict& d) const { return !d.keys.empty(); }
    bool operator()(const FunctionRef&) const { return true; }
    bool operator()(const ObjectRef&) const { return true; }
    bool operator()(const RangeValue& r) const { return r.size() > 0; }
  } visitor;
  return std::visit(visitor, static_cast<const ValueVariant&>(v));
}

}  // namespace tr::repl
