// :step x — the stages of x one after another: graph, schedule, then per kernel its AST, opts, UOps
// and source, then the run and its timings. A person at a terminal presses Enter between them.
#include <functional>

#include <fmt/format.h>

#include "core/schedule.h"
#include "repl/app/kernel_views.h"
#include "repl/app/meta_commands.h"
#include "viz/schedule_view.h"
#include "viz/timings.h"

namespace tr::repl::meta {
namespace {

struct Stage {
  std::string title;
  std::function<std::string()> text;  // made when shown: lowering a kernel takes time
};

}  // namespace

Status step(Host& h, const MetaCall& c) {
  Tensor x = c.tensor(h.session(), 0, c.size());
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  std::vector<Stage> stages;
  stages.push_back({"the lazy graph", [&] { return print_graph(x.node()); }});
  stages.push_back({"the schedule", [&] {
                      return items.empty() ? std::string("nothing to run: it is realized already\n")
                                           : print_schedule(items);
                    }});
  // each kernel is lowered once, when its AST stage comes
  std::vector<KernelRecord> lowered(items.size());
  for (size_t i = 0; i < items.size(); i++) {
    const ScheduleItem& item = items[i];
    if (item.kind != ScheduleItem::Kind::Kernel) continue;
    KernelRecord& r = lowered[i];
    const int k = static_cast<int>(i);
    stages.push_back({fmt::format("kernel {}: its AST", k), [&r, &item, k] {
                        r = lower(item, item.outputs[0]->device);
                        return kernel_title(k, r) + print_ast(r.kernel.ast);
                      }});
    stages.push_back({fmt::format("kernel {}: its opts", k), [&r, k] { return kernel_title(k, r) + dims_text(r); }});
    stages.push_back({fmt::format("kernel {}: its UOps", k), [&r] { return print_uops(r.program.uops); }});
    stages.push_back({fmt::format("kernel {}: its source", k), [&r] { return sources_text(r, shown_backends(r)); }});
  }
  if (!items.empty())
    stages.push_back({"the run", [&] {
                        x.realize();
                        return timings_table(last_realization().runs);
                      }});
  for (size_t i = 0; i < stages.size(); i++) {
    if (i > 0 && !h.pause(stages[i].title)) break;
    h.show(c.name(), fmt::format("── {}/{} {} ──\n{}", i + 1, stages.size(), stages[i].title, stages[i].text()));
  }
  return Status::Ok;
}

}  // namespace tr::repl::meta
