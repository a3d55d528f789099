#pragma once
// The --json events of SPEC section 5, one object each; "event" comes first, then "file" and "line"
// when the event comes from a statement.
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/realize/realize.h"
#include "repl/app/reporter.h"
#include "repl/print_event.h"

namespace tr::repl {

using Json = nlohmann::ordered_json;

// One value: shape, dtype and the flat data of a tensor, or "shape": null and "value". Several
// values (print(a, b)): "values", a list of those. Always the printed "text".
Json print_json(const PrintEvent& e, const Location& at);
Json schedule_json(const Realization& r, const Location& at);
Json run_json(const RunRecord& r, const Location& at);  // a "kernel" or a "copy"
Json source_json(const KernelRecord& k, std::string_view backend, const Location& at);
Json assert_json(const Location& at, const Diagnostic* failure);
Json error_json(const Diagnostic& d);
// :roofline: each device's peaks (a figure and its source, or null and why it is absent) and each kernel
// on its roofline; "svg" where it wrote a picture.
Json roofline_json(const Roofline& r, std::string_view svg_file, const Location& at);
Json output_json(std::string_view command, std::string_view text, const Location& at);
Json summary_json(const RunTotals& totals);

}  // namespace tr::repl
