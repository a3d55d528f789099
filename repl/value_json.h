#pragma once
// Values as --json events carry them.
#include <nlohmann/json.hpp>

#include "repl/host_array.h"
#include "repl/value.h"

namespace tr::repl {

// The flat row-major values of a tensor; a float reads as the shortest decimal of its dtype
// (float32 0.1 is 0.1, not 0.10000000149011612). NaN and infinities become null, as JSON has neither.
nlohmann::json json_data(const HostArray& a);

// A value other than a tensor: null, true, 3, 1.5, "text", a dtype by name ("float32"), tuples and
// lists as arrays. A tensor nested in a sequence appears as its repr, unrealized.
nlohmann::json json_value(const Value& v);

}  // namespace tr::repl
