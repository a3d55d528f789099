// :history [N] — the schedules of earlier statements, and which of them the kernel views look at.
#include <climits>

#include "repl/app/history_text.h"
#include "repl/app/meta_commands.h"
#include "repl/app/settings_input.h"

namespace tr::repl::meta {

Status history(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  ScheduleHistory& kept = h.schedules();
  if (c.size() == 0) {
    h.show(c.name(), history_text(kept));
    return Status::Ok;
  }
  c.checked(0, [&] {
    kept.select(bounded_int(c.arg(0), -static_cast<int>(ScheduleHistory::kMaxStatements), INT_MAX, "the statement number"));
  });
  h.show(c.name(), statement_heading(*kept.selected()) + items_text(kept));
  return Status::Ok;
}

}  // namespace tr::repl::meta
