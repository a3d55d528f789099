// :jit — the @jit functions, what each captured and how often it replayed.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/jit/jit.h"
#include "repl/app/meta_commands.h"

namespace tr::repl::meta {
namespace {

std::string plural(int n, std::string_view one, std::string_view many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

std::string jit_text(const JitSummary& s) {
  if (s.launches.empty() && s.recaptures > 0)
    return fmt::format("{}: {}, its capture dropped {} for a new value of a Variable; the call after the next plain one "
                       "captures again\n", s.name, plural(s.calls, "call", "calls"), plural(s.recaptures, "time", "times"));
  if (s.launches.empty())
    return fmt::format("{}: {}, not captured yet (the second call captures)\n", s.name, plural(s.calls, "call", "calls"));
  int kernels = 0;
  for (const RunRecord& r : s.launches) kernels += !r.is_copy;
  std::string out = fmt::format("{}: {}, captured {} and {} on call {}, replayed {}", s.name,
                                plural(s.calls, "call", "calls"), plural(kernels, "kernel", "kernels"),
                                plural(static_cast<int>(s.launches.size()) - kernels, "copy", "copies"), s.captured_on,
                                plural(s.replays, "time", "times"));
  if (!s.serves.empty()) out += fmt::format(", for any value of {}", fmt::join(s.serves, ", "));
  if (s.recaptures > 0) out += fmt::format(" (captured again {})", plural(s.recaptures, "time", "times"));
  out += "\n";
  for (size_t i = 0; i < s.launches.size(); i++) {
    const RunRecord& r = s.launches[i];
    const std::string what = r.is_copy ? fmt::format("copy {}->{}", r.copy.from, r.copy.to) : r.kernel.name;
    out += fmt::format("  {:3d} {:<24} {:<7} replayed {}\n", i, what, r.is_copy ? r.copy.to : r.kernel.device, s.replays);
  }
  return out;
}

}  // namespace

Status jit(Host& h, const MetaCall& c) {
  c.expect(0, 0);
  const std::vector<JitSummary> all = jit_summaries();
  std::string out;
  for (const JitSummary& s : all) out += jit_text(s);
  h.show(c.name(), out.empty() ? "no @jit function yet: write @jit above a def\n" : out);
  return Status::Ok;
}

}  // namespace tr::repl::meta
