#include "repl/dict_methods.h"

#include "repl/convert.h"
#include "repl/source_error.h"

namespace tr::repl {

Value call_dict_method(const Dict& d, const CallArgs& call) {
  if (call.name == "keys" || call.name == "values" || call.name == "items") {
    bind(call, {});
    List out;
    for (size_t i = 0; i < d.keys.size(); i++) {
      if (call.name == "keys") out.items.emplace_back(d.keys[i]);
      if (call.name == "values") out.items.push_back(d.values[i]);
      if (call.name == "items") out.items.emplace_back(Tuple{{Value(d.keys[i]), d.values[i]}});
    }
    return out;
  }
  if (call.name == "get") {
    const Bound b = bind(call, {{"key", ParamKind::Required}, {"default"}});
    const Value* v = dict_find(d, to_str(b["key"]));
    return v ? *v : b.find("default") ? b["default"].value : Value{};
  }
  fail_at(call.span, "name", "'dict' object has no method '{}' (it has keys, values, items, get)", call.name);
}

}  // namespace tr::repl
