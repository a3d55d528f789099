#pragma once
// The lazy graph as Graphviz DOT: one box per node, coloured by the kernel that will compute it.
#include <string>

#include "core/lazy/lazy.h"

namespace tr {

std::string graph_dot(const LazyRef& x);

}  // namespace tr
