#pragma once
// A dict's methods, as Python's: keys(), values(), items(), get(key, default=None).
#include "repl/arguments.h"

namespace tr::repl {

Value call_dict_method(const Dict& d, const CallArgs& call);

}  // namespace tr::repl
