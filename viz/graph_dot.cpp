#include "viz/graph_dot.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "core/schedule/schedule.h"

namespace tr {
namespace {

constexpr const char* kColours[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#ffff99", "#1f78b4", "#33a02c"};

void emit(const LazyRef& n, const std::map<uint64_t, size_t>& kernel_of, std::set<uint64_t>& seen, std::string& out) {
  if (!seen.insert(n->id).second) return;
  const auto k = kernel_of.find(n->id);
  const std::string fill = n->buffer ? "#dddddd" : k != kernel_of.end() ? kColours[k->second % 8] : "white";
  std::string label = fmt::format("#{} {}\\n{} {}", n->id, op_name(n->op), name(n->dtype), shape_str(n->shape));
  if (k != kernel_of.end()) label += fmt::format("\\nkernel {}", k->second);
  out += fmt::format("  n{} [label=\"{}\", style=filled, fillcolor=\"{}\"];\n", n->id, label, fill);
  if (n->buffer) return;
  for (const LazyRef& s : n->srcs) {
    out += fmt::format("  n{} -> n{};\n", s->id, n->id);
    emit(s, kernel_of, seen, out);
  }
}

}  // namespace

std::string graph_dot(const LazyRef& x) {
  std::map<uint64_t, size_t> kernel_of;
  const std::vector<ScheduleItem> items = create_schedule({base_of(x)});
  for (size_t i = 0; i < items.size(); i++) {
    for (uint64_t id : items[i].fused) kernel_of.emplace(id, i);
    for (const LazyRef& o : items[i].outputs) kernel_of.emplace(o->id, i);
  }
  std::string out = "digraph tinyrepl {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::set<uint64_t> seen;
  emit(x, kernel_of, seen, out);
  return out + "}\n";
}

}  // namespace tr
