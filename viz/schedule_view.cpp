#include "viz/schedule_view.h"

#include <map>

#include <fmt/format.h>

#include "core/realize/realize.h"
#include "viz/fusion_notes.h"
#include "viz/stages.h"

namespace tr {
namespace {

std::string buffer_str(const LazyNode& n) { return fmt::format("#{} {} {}", n.id, name(n.dtype), shape_str(n.shape)); }

void index_graph(const LazyRef& n, std::map<uint64_t, const LazyNode*>& out) {
  if (!out.emplace(n->id, n.get()).second) return;
  for (const LazyRef& s : n->srcs) index_graph(s, out);
}

}  // namespace

std::vector<std::string> kernel_names(const std::vector<ScheduleItem>& items) {
  std::vector<std::string> names;
  for (const ScheduleItem& i : items)
    names.push_back(i.kind == ScheduleItem::Kind::Kernel ? lower(i, i.outputs[0]->device).name : "");
  return names;
}

std::string print_schedule(const std::vector<ScheduleItem>& items) {
  if (items.empty()) return "nothing to run: every buffer is realized\n";
  const std::vector<std::string> names = kernel_names(items);
  std::string out;
  for (size_t i = 0; i < items.size(); i++) {
    const ScheduleItem& it = items[i];
    const LazyNode& o = *it.outputs[0];
    std::vector<std::string> ins;
    for (const LazyRef& n : it.inputs) ins.push_back(buffer_str(*n));
    if (it.kind == ScheduleItem::Kind::Copy) {
      out += fmt::format("{:>3} copy    {} -> {:<8} {}\n", i, ins.empty() ? "HOST" : it.inputs[0]->device, o.device,
                         buffer_str(o));
    } else {
      out += fmt::format("{:>3} kernel  {:<20} {:<7} {} <- {}\n", i, names[i], o.device, buffer_str(o),
                         ins.empty() ? "(no inputs)" : fmt::format("{}", fmt::join(ins, ", ")));
    }
    out += fmt::format("      why: {}\n", it.reason);
  }
  return out;
}

std::string explain(const LazyRef& x) {
  std::string out = "The lazy graph (nothing has run yet for the nodes that are not [realized]):\n" + graph_text(x);
  const std::vector<ScheduleItem> items = create_schedule({base_of(x)});
  if (items.empty()) return out + "\nIt is realized already: reading it runs no kernel.\n";
  std::map<uint64_t, const LazyNode*> nodes;
  index_graph(x, nodes);
  const std::vector<std::string> names = kernel_names(items);
  int kernels = 0;
  for (const ScheduleItem& i : items) kernels += i.kind == ScheduleItem::Kind::Kernel;
  out += fmt::format("\nRealizing it runs {} kernel{} and {} cop{}:\n", kernels, kernels == 1 ? "" : "s",
                     items.size() - kernels, items.size() - kernels == 1 ? "y" : "ies");
  for (size_t i = 0; i < items.size(); i++) {
    const ScheduleItem& it = items[i];
    if (it.kind == ScheduleItem::Kind::Copy) {
      out += fmt::format("  copy {} into #{}: {}\n", it.inputs.empty() ? "from the host" : "between devices",
                         it.outputs[0]->id, it.reason);
      continue;
    }
    std::vector<std::string> ops;
    for (uint64_t id : it.fused)
      if (const auto n = nodes.find(id); n != nodes.end()) ops.push_back(fmt::format("#{} {}", id, op_name(n->second->op)));
    out += fmt::format("  kernel {} writes #{}; fuses {}\n    it ends here because {}\n", names[i], it.outputs[0]->id,
                       ops.empty() ? "no computation (a copy of a view)" : fmt::format("{}", fmt::join(ops, ", ")),
                       it.reason);
    out += split_by_the_notes(it, nodes) + online_softmax_note(it);
  }
  return out;
}

}  // namespace tr
