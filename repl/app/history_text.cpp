#include "repl/app/history_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "viz/debug_output.h"
#include "viz/schedule_view.h"

namespace tr::repl {
namespace {

constexpr size_t kStatementColumns = 60;  // a statement's text in :history's row, "…" after

std::string one_line(const std::string& statement) {
  const size_t end = statement.find('\n');
  std::string line = statement.substr(0, end);
  if (line.size() <= kStatementColumns && end == std::string::npos) return line;
  size_t cut = std::min(line.size(), kStatementColumns);
  while (cut > 0 && cut < line.size() && (static_cast<unsigned char>(line[cut]) & 0xc0) == 0x80) cut--;  // whole characters
  return line.substr(0, cut) + "…";
}

std::string trimmed(std::string s) { return s.substr(s.find_first_not_of(' ')); }

// An item that no schedule planned: what it ran, and why it is in the statement's list.
std::string unscheduled_text(size_t k, const RunRecord& r) {
  const std::string replayed = r.replayed ? ", replayed by @jit" : "";
  if (r.is_copy) {
    const std::string why = r.replayed ? "a @jit replay copied it again, as its capture did"
                                       : "the value is read back to the host (print, item(), numpy(), tolist())";
    return fmt::format("{:>3} copy    {} -> {:<8} {} bytes{}\n      why: {}\n", k, r.copy.from, r.copy.to, r.copy.bytes,
                       replayed, why);
  }
  return fmt::format("{:>3} kernel  {:<20} {:<7} launched without a schedule{}\n      why: {} (when it was captured)\n", k,
                     r.kernel.name, r.kernel.device, replayed, r.kernel.reason ? *r.kernel.reason : "");
}

}  // namespace

std::string statement_heading(const StatementSchedule& s) {
  return fmt::format("statement {}: {}\n", s.number, one_line(s.statement));
}

std::string items_text(ScheduleHistory& history) {
  const StatementSchedule* s = history.selected();
  if (!s) return "no schedule yet: realize something (print(x), x.realize()) or use :kernels x\n";
  std::string out;
  if (s->dropped > 0)
    out += fmt::format("(its first {} items are not kept: the history keeps a statement's last {})\n", s->dropped,
                       ScheduleHistory::kMaxItems);
  for (size_t k = 0; k < s->items.size(); k++) {
    const KeptItem& item = s->items[k];
    if (!item.scheduled) {
      out += unscheduled_text(k, *item.run);
      continue;
    }
    // one item as the schedule view prints it, numbered K instead of 0
    const std::string text = print_schedule({*item.scheduled});
    out += fmt::format("{:>3}", k) + text.substr(3);
  }
  return out;
}

std::string history_text(const ScheduleHistory& history) {
  if (history.entries().empty()) return "no statement has scheduled anything yet\n";
  std::string out = fmt::format("  {:>4} {:>7} {:>6} {:>11}  {}\n", "#", "kernels", "copies", "time", "statement");
  for (const StatementSchedule& s : history.entries()) {
    int kernels = 0;
    for (const KeptItem& i : s.items) kernels += i.is_kernel();
    double seconds = 0;
    for (const RunRecord& r : s.runs()) seconds += run_seconds(r);
    const std::string time = s.planned ? "planned" : trimmed(time_str(seconds));
    out += fmt::format("{} {:>4} {:>7} {:>6} {:>11}  {}\n", &s == history.selected() ? ">" : " ", s.number, kernels,
                       static_cast<int>(s.items.size()) - kernels, time, one_line(s.statement));
  }
  return out + ":history N selects statement N for :kernels, :ast K, :uops K, :src K, :time, :opt and :diff (-1: the newest)\n";
}

}  // namespace tr::repl
