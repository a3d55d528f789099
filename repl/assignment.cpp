// Assignment to what is not a plain name: attributes (opt.lr = 0.01, x.grad = None), subscripts
// (x[1:3] = y, xs[0] = 1), and the augmented forms (x += 1), with tinygrad's in-place semantics on tensors.
#include "repl/indexing.h"
#include "repl/nn.h"
#include "repl/operators.h"
#include "repl/session.h"

namespace tr::repl {
namespace {

// A tensor's attributes that a program may set: tinygrad's grad, and requires_grad, accepted and
// ignored as SPEC section 2 says (every float tensor here can have a gradient).
void set_tensor_attribute(const Tensor& t, std::string_view name, const Value& v, Span span) {
  if (name == "requires_grad") return;
  if (name != "grad") {
    fail_at(span, "type", "cannot set attribute '{}' of a Tensor (a program may set grad and requires_grad)", name);
  }
  if (v.is<NoneValue>()) return t.set_grad(std::nullopt);
  const Tensor* g = v.get_if<Tensor>();
  if (!g) fail_at(span, "type", "a Tensor's grad is a Tensor or None, not {}", type_name(v));
  if (g->shape() != t.shape()) {
    fail_at(span, "shape", "the gradient has shape {}, the tensor {}", shape_str(g->shape()), shape_str(t.shape()));
  }
  t.set_grad(*g);
}

// x[indices] = v as tinygrad's __setitem__: x is realized, and the view the indices pick is written in
// place at once (a whole-tensor index writes x itself).
void set_tensor_item(const Tensor& x, const std::vector<IndexItem>& items, const Value& v, Span span) {
  if (!v.is<Tensor>() && !is_number(v)) fail_at(span, "type", "a tensor's items take a tensor or a number, not {}", type_name(v));
  Tensor(x).realize();
  const Tensor view = std::get<Tensor>(subscript_value(x, items, span));
  at(span, [&] {
    if (base_of(view.node()) != base_of(x.node())) {
      fail("type", "this index makes a new tensor, not a view of x: only ints, slices, None and ... can be assigned to");
    }
    const Tensor value = v.is<Tensor>() ? std::get<Tensor>(v) : Tensor::scalar_like(x, to_const(v));
    const Tensor fitted = value.cast(x.dtype()).broadcast_to(view.shape());
    if (view.node() != x.node()) return view.assign(fitted);
    x.assign(fitted);
    Tensor(x).realize();
  });
}

template <typename Seq>
void set_sequence_item(Seq& seq, const std::vector<IndexItem>& items, const Value& v, Span span) {
  const Value* index = items.size() == 1 ? std::get_if<Value>(&items[0].index) : nullptr;
  if (!index || !index->is<int64_t>()) fail_at(span, "type", "list indices must be integers here");
  const int64_t n = static_cast<int64_t>(seq.items.size());
  const int64_t i = std::get<int64_t>(*index) < 0 ? std::get<int64_t>(*index) + n : std::get<int64_t>(*index);
  if (i < 0 || i >= n) fail_at(items[0].span, "index", "list assignment index out of range");
  seq.items[static_cast<size_t>(i)] = v;
}

}  // namespace

void Session::set_attribute(const Attribute& target, const Value& v, Span span) {
  if (const Name* n = std::get_if<Name>(&target.object->node); n && n->id == "Tensor" && !lookup("Tensor", span)) {
    Evaluator::not_in_tinygrad(target.name, span);
    fail_at(span, "type", "cannot set Tensor.{}: Tensor's attributes are fixed", target.name);
  }
  const Value object = evaluate(*target.object);
  if (const ObjectRef* o = object.get_if<ObjectRef>()) {
    return at(span, [&] { set_object_attribute(*o, target.name, Arg{v, span, target.name}, span); });
  }
  if (const Tensor* t = object.get_if<Tensor>()) return set_tensor_attribute(*t, target.name, v, span);
  fail_at(span, "type", "cannot set attribute '{}' of a '{}' object", target.name, type_name(object));
}

void Session::set_item(const Subscript& target, const Value& v, Span span) {
  const Value object = evaluate(*target.object);
  const std::vector<IndexItem> items = Evaluator(*this).index_items(target);
  if (const Tensor* t = object.get_if<Tensor>()) return set_tensor_item(*t, items, v, span);
  // lists and dicts are values here: the name that holds one gets the changed copy
  const Name* holder = std::get_if<Name>(&target.object->node);
  if ((object.is<List>() || object.is<Dict>()) && !holder) {
    fail_at(target.object->span, "type", "a {} is a value here: assign to an item of a name that holds one (xs[0] = v)",
            type_name(object));
  }
  if (const List* l = object.get_if<List>()) {
    List changed = *l;
    set_sequence_item(changed, items, v, span);
    return bind_name(holder->id, std::move(changed));
  }
  if (const Dict* d = object.get_if<Dict>()) {
    const Value* key = items.size() == 1 ? std::get_if<Value>(&items[0].index) : nullptr;
    if (!key || !key->is<std::string>()) fail_at(span, "type", "dict keys are strings here");
    Dict changed = *d;
    dict_set(changed, std::get<std::string>(*key), v);
    return bind_name(holder->id, std::move(changed));
  }
  fail_at(span, "type", "'{}' object does not support item assignment", type_name(object));
}

void Session::augmented(const AugAssign& a) {
  const Value lhs = evaluate(*a.target);
  const Value rhs = evaluate(*a.value);
  const Value result = at(a.op_span, [&] { return apply_binary(a.op, lhs, rhs); });
  const Tensor* t = lhs.get_if<Tensor>();
  // tinygrad's in-place operators: x += y is x.assign(x + y), so every name for x sees it
  if (t && !std::holds_alternative<Subscript>(a.target->node)) {
    return at(a.op_span, [&] { t->assign(std::get<Tensor>(result)); });
  }
  assign(*a.target, result);
}

}  // namespace tr::repl
