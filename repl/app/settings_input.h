#pragma once
// Settings read from text, the same way for the command line (--device, --render, ...) and the
// meta commands (:device, :render, ...). Each throws tr::Error with a message a user can act on.
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

// --repeat and :repeat: more would only wait longer for the same median.
inline constexpr int kMaxRepeat = 1000;

// The device's canonical name ("cpu" -> "CPU") once it is known to open.
std::string usable_device(std::string_view name);
// "c,OpenCL, cuda" -> {"c", "opencl", "cuda"}; every name must be a backend.
std::vector<std::string> render_list(std::string_view list);
// A whole number in [lo, hi]; `what` names it in the error ("debug level").
int bounded_int(std::string_view text, int lo, int hi, std::string_view what);
// on/off, 1/0, true/false, yes/no.
bool switch_value(std::string_view text, std::string_view what);

}  // namespace tr::repl
