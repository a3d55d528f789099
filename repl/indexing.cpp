#include <algorithm>
#include <functional>

#include "repl/symbolic_variable.h"
#include "repl/indexing.h"

#include <limits>
#include <type_traits>

#include "core/tensor/index.h"
#include "repl/source_error.h"
#include "repl/tensor_literal.h"

namespace tr::repl {
namespace {

// An index tensor (or a list of ints, made one) stands at its position as a full slice, and is
// applied after the slices, as tinygrad applies it.
struct Indices {
  std::vector<Index> basic;
  std::vector<std::pair<size_t, Tensor>> tensors;
};

void add_index_tensor(const Tensor& t, Indices& out) {
  out.tensors.emplace_back(out.basic.size(), t);
  out.basic.emplace_back(Slice{});
}

void add_tensor_index(const Value& v, Span span, Indices& out) {
  if (v.is<NoneValue>()) {
    out.basic.emplace_back(NewAxis{});
  } else if (const int64_t* i = v.get_if<int64_t>()) {
    out.basic.emplace_back(*i);
  } else if (const Tuple* t = v.get_if<Tuple>()) {
    for (const Value& item : t->items) add_tensor_index(item, span, out);  // x[idx] with idx = (0, 1)
  } else if (const Tensor* t = v.get_if<Tensor>()) {
    add_index_tensor(*t, out);
  } else if (v.is<List>()) {
    const Tensor t = tensor_from_data(Arg{v, span, "a list index"}, std::nullopt, "");
    if (!is_int(t.dtype())) fail_at(span, "index", "a list index must hold ints, not {}", name(t.dtype()));
    add_index_tensor(t, out);
  } else {
    fail_at(span, "type", "a tensor index must be an int, a slice, None, ..., a tensor or a list of ints, not {}", type_name(v));
  }
}

// Slices `:n` of bound Variables: the rest of the subscript is applied with `:` in their place, then
// each of their dims is cut to its Variable (each slice keeps one dim, an int index drops one, None
// adds one).
Tensor symbolic_slices(const std::vector<IndexItem>& items, Span span,
                       const std::function<Tensor(const std::vector<IndexItem>&)>& index) {
  const bool any = std::any_of(items.begin(), items.end(), [](const IndexItem& i) { return i.stop_var != nullptr; });
  if (!any) return index(items);
  std::vector<IndexItem> whole = items;
  std::vector<std::pair<size_t, const IndexItem*>> cuts;  // output dim, its slice
  size_t dim = 0;
  for (size_t i = 0; i < items.size(); i++) {
    const Value* v = std::get_if<Value>(&items[i].index);
    if (std::holds_alternative<Ellipsis>(items[i].index) || (v && !v->is<int64_t>() && !v->is<NoneValue>()))
      fail_at(items[i].span, "value", "a slice with a Variable stop goes with ints, slices and None only");
    if (v && v->is<int64_t>()) continue;
    if (items[i].stop_var) {
      cuts.emplace_back(dim, &items[i]);
      whole[i].index = Slice{};
    }
    dim++;
  }
  const Tensor out = index(whole);
  std::vector<tr::ExprRef> sym(out.shape().size());
  Shape sizes = out.shape();
  for (const auto& [d, item] : cuts) {
    const int64_t value = *std::get<Slice>(item->index).stop;
    if (value > out.shape()[d])
      fail_at(item->span, "value", "the slice :{} stops at {}, past the dim's {} elements", item->stop_var->name, value,
              out.shape()[d]);
    sym[d] = item->stop_var;
    sizes[d] = value;
  }
  return at(span, [&] { return out.shrink_to(sym, sizes); });
}

Tensor index_plain(const Tensor& x, const std::vector<IndexItem>& items, Span span) {
  Indices indices;
  for (const IndexItem& item : items) {
    if (const Value* v = std::get_if<Value>(&item.index)) {
      add_tensor_index(*v, item.span, indices);
    } else if (const Slice* s = std::get_if<Slice>(&item.index)) {
      indices.basic.emplace_back(*s);
    } else {
      indices.basic.emplace_back(Ellipsis{});
    }
  }
  return at(span, [&] { return getitem(x, indices.basic, indices.tensors); });
}

// Python's PySlice_AdjustIndices: the positions a slice visits in a sequence of n items, as a range.
RangeValue slice_positions(const Slice& s, int64_t n, Span span) {
  const int64_t step = s.step.value_or(1);
  if (step == 0) fail_at(span, "value", "slice step cannot be zero");
  const auto clamp = [&](std::optional<int64_t> v, int64_t fallback) {
    if (!v) return fallback;
    int64_t i = *v < 0 ? *v + n : *v;
    if (i < 0) return step < 0 ? int64_t{-1} : int64_t{0};
    if (i >= n) return step < 0 ? n - 1 : n;
    return i;
  };
  return RangeValue{clamp(s.start, step < 0 ? n - 1 : 0), clamp(s.stop, step < 0 ? -1 : n), step};
}

// The position an int index names in a sequence of n items, counting from the end when negative.
int64_t position(const IndexItem& item, int64_t n, std::string_view kind) {
  const Value* v = std::get_if<Value>(&item.index);
  if (!v || !v->is<int64_t>()) {
    fail_at(item.span, "type", "{} indices must be integers or slices, not {}", kind, v ? type_name(*v) : "ellipsis");
  }
  const int64_t i = std::get<int64_t>(*v) < 0 ? std::get<int64_t>(*v) + n : std::get<int64_t>(*v);
  if (i < 0 || i >= n) fail_at(item.span, "index", "{} index out of range", kind);
  return i;
}

// r[i], or r[a:b:c] as Python gives it: the range of the ints at the slice's positions.
Value index_range(const RangeValue& r, const std::vector<IndexItem>& items, Span span) {
  if (items.size() != 1) fail_at(span, "type", "range indices must be one int or slice, not {} of them", items.size());
  if (const Slice* s = std::get_if<Slice>(&items[0].index)) {
    const RangeValue at = slice_positions(*s, r.size(), items[0].span);
    int64_t step = 0;
    if (__builtin_mul_overflow(r.step, at.step, &step))
      fail_at(items[0].span, "value", "the slice's step times the range's is past a 64-bit int");
    // a position past either end may name an int past every int64: the nearest int64 bounds the same ints
    const auto value_at = [&](int64_t position) {
      const __int128 v = __int128{r.start} + __int128{position} * r.step;
      return static_cast<int64_t>(std::clamp<__int128>(v, std::numeric_limits<int64_t>::min(),
                                                       std::numeric_limits<int64_t>::max()));
    };
    return RangeValue{value_at(at.start), value_at(at.stop), step};
  }
  return r.at(position(items[0], r.size(), "range object"));
}

template <typename Seq>
Value index_sequence(const Seq& seq, const std::vector<IndexItem>& items, Span span) {
  const std::string_view kind = std::is_same_v<Seq, Tuple> ? "tuple" : "list";
  if (items.size() != 1)
    fail_at(span, "type", "{} indices must be one int or slice, not {} of them", kind, items.size());
  const IndexItem& item = items[0];
  const int64_t n = static_cast<int64_t>(seq.items.size());
  if (const Slice* s = std::get_if<Slice>(&item.index)) {
    const RangeValue positions = slice_positions(*s, n, item.span);
    Seq out;
    for (int64_t i = 0; i < positions.size(); i++) out.items.push_back(seq.items[static_cast<size_t>(positions.at(i))]);
    return out;
  }
  return seq.items[static_cast<size_t>(position(item, n, kind))];
}

}  // namespace

Value subscript_value(const Value& object, const std::vector<IndexItem>& items, Span span) {
  if (const Tensor* t = object.get_if<Tensor>())
    return symbolic_slices(items, span, [&](const std::vector<IndexItem>& its) { return index_plain(*t, its, span); });
  if (const Tuple* t = object.get_if<Tuple>()) return index_sequence(*t, items, span);
  if (const List* l = object.get_if<List>()) return index_sequence(*l, items, span);
  if (const RangeValue* r = object.get_if<RangeValue>()) return index_range(*r, items, span);
  if (const Dict* d = object.get_if<Dict>()) {
    const Value* key = items.size() == 1 ? std::get_if<Value>(&items[0].index) : nullptr;
    const std::string* name = key ? key->get_if<std::string>() : nullptr;
    if (!name) fail_at(span, "type", "dict keys are strings here");
    if (const Value* v = dict_find(*d, *name)) return *v;
    fail_at(items[0].span, "key", "KeyError: '{}'", *name);
  }
  fail_at(span, "type", "'{}' object is not subscriptable", type_name(object));
}

}  // namespace tr::repl
