#pragma once
// Renderers: pure functions from UOps to the source text of one backend.
#include <string>
#include <string_view>
#include <vector>

#include "core/uops.h"

namespace tr {

// Backends every machine can render, in the order the tabs show them.
const std::vector<std::string>& backends();
bool has_backend(std::string_view backend);
// Throws tr::Error("value") for an unknown backend.
std::string render(std::string_view backend, const UOpProgram& program);

}  // namespace tr
