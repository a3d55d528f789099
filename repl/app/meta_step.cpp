// :step x — the stages of x one after another, as viz/stages lists them: graph, schedule, then per
// kernel its AST, opts, UOps and source, then the run and its timings. A person at a terminal presses
// Enter between them.
#include <optional>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/schedule/schedule.h"
#include "repl/app/meta_commands.h"
#include "viz/stages.h"

namespace tr::repl::meta {

Status step(Host& h, const MetaCall& c) {
  Tensor x = c.tensor(h.session(), 0, c.size());
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  const std::vector<StageStop> stops = stage_walk(items);
  // each kernel is lowered once, when its first stage comes: lowering takes time
  std::vector<std::optional<KernelRecord>> lowered(items.size());
  const auto kernel = [&](int item) -> const KernelRecord& {
    if (!lowered[item]) lowered[item] = lower(items[item], items[item].outputs[0]->device);
    return *lowered[item];
  };
  const auto text = [&](const StageStop& s) -> std::string {
    switch (s.stage) {
      case Stage::Graph: return graph_text(x.node());
      case Stage::Schedule: return schedule_text(items);
      case Stage::Ast: return kernel_title(s.item, kernel(s.item)) + ast_text(*kernel(s.item).kernel);
      case Stage::Opts: return kernel_title(s.item, kernel(s.item)) + opts_text(*kernel(s.item).kernel);
      case Stage::Uops: return uops_text(*kernel(s.item).program);
      case Stage::Source: return source_text(kernel(s.item), shown_backends(kernel(s.item), settings().render));
      case Stage::Run: break;
    }
    x.realize();
    return run_text(last_realization().runs);
  };
  for (size_t i = 0; i < stops.size(); i++) {
    const std::string title = stop_title(stops[i]);
    if (i > 0 && !h.pause(title)) break;
    h.show(c.name(), fmt::format("── {}/{} {} ──\n{}", i + 1, stops.size(), title, text(stops[i])));
  }
  return Status::Ok;
}

}  // namespace tr::repl::meta
