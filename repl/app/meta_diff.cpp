// :diff [K] [A [B]] — two versions of kernel K's source, line by line: before and after an :opt, the
// default opts against BEAM's or none, one backend against another.
#include <fmt/format.h>

#include "core/base/context.h"
#include "core/opt/heuristic.h"
#include "core/opt/search.h"
#include "core/render/render.h"
#include "core/runtime/device.h"
#include "repl/app/meta_commands.h"
#include "repl/app/settings_input.h"
#include "viz/debug_output.h"
#include "viz/line_diff.h"
#include "viz/stages.h"

namespace tr::repl::meta {
namespace {

// BEAM's width for `beam` when the session searches with none (:beam 0): small, since :diff waits for it.
constexpr int kDiffBeamWidth = 2;

// Which version of the kernel a side of the diff is: as it is now, as it first was, as the last :opt
// found it, or lowered again with other opts.
enum class Version : uint8_t { Now, Ran, Before, Default, Noopt, Beam };

struct Side {
  Version version = Version::Now;
  int beam_width = 0;    // Beam: 0 for the session's width (or kDiffBeamWidth)
  std::string backend{};  // "" for the backend of the kernel's device
  std::string word = "now";  // the version as typed, for its label
};

constexpr std::string_view kVersions = "now, ran, before, default, noopt, beam, beam=N, or a backend";

Side side_arg(const MetaCall& c, size_t i) {
  const std::string word = lowercase(c.arg(i));
  if (has_backend(word)) return Side{.backend = word};
  if (word == "now") return Side{.version = Version::Now, .word = word};
  if (word == "ran") return Side{.version = Version::Ran, .word = word};
  if (word == "before") return Side{.version = Version::Before, .word = word};
  if (word == "default") return Side{.version = Version::Default, .word = word};
  if (word == "noopt") return Side{.version = Version::Noopt, .word = word};
  if (word == "beam") return Side{.version = Version::Beam, .word = word};
  if (word.starts_with("beam="))
    return Side{.version = Version::Beam,
                .beam_width = c.checked(i, [&] { return bounded_int(word.substr(5), 1, 64, "BEAM's width"); }),
                .word = word};
  c.fail(i, "value", "unknown version '{}' (versions: {}: {})", c.arg(i), kVersions, fmt::join(backends(), ", "));
}

KernelRecord version_of(Host& h, const MetaCall& c, int k, const Side& side) {
  const std::vector<KernelRecord> earlier = h.schedules().replaced(k);
  const KernelRecord now = h.schedules().kernel(k);
  // lowered again with other opts, compiled and timed on its device as :opt does
  const auto relowered = [&](const auto& opts) {
    return c.checked(c.size(), [&] {
      const Kernel plain = Kernel::from_ast(now.ast);
      return run_with_opts(now, opts(plain, tr::device(now.device)));
    });
  };
  switch (side.version) {
    case Version::Now: return now;
    case Version::Ran: return earlier.empty() ? now : earlier.front();
    case Version::Before:
      if (earlier.empty())
        c.fail(c.size(), "value", "kernel {} has no version before this one: :opt {} OP AXIS AMOUNT makes one; or "
               "compare it with {}", k, k, kVersions);
      return earlier.back();
    case Version::Default:
      return relowered([](const Kernel& plain, Device& dev) { return default_opts(plain, dev.target()).opts; });
    case Version::Noopt: return relowered([](const Kernel&, Device&) { return std::vector<Opt>{}; });
    case Version::Beam:
      return relowered([&](const Kernel& plain, Device& dev) {
        const int width = side.beam_width > 0 ? side.beam_width : settings().beam > 0 ? settings().beam : kDiffBeamWidth;
        return beam_search(plain, dev, *now.buffers, now.vars, width).opts;
      });
  }
  return now;
}

std::string own_backend(const KernelRecord& r) { return tr::device(r.device).backend(); }

// "r_64_64 before (opts: UPCAST(0, 4)) in c, 12.30us". Another backend's source did not run, and its
// opts may be another device's (its first line says so).
std::string label(const KernelRecord& r, const Side& side, const std::string& backend, bool own) {
  const std::string shown = time_str(r.seconds);
  const std::string time = !own ? "not run" : r.seconds > 0 ? shown.substr(shown.find_first_not_of(' ')) : "not run yet";
  const std::string opts = own ? fmt::format(" (opts: {})", opts_list(*r.kernel)) : "";
  return fmt::format("{} {}{} in {}, {}", r.name, side.word, opts, backend, time);
}

}  // namespace

Status diff(Host& h, const MetaCall& c) {
  c.expect(0, 3);
  const bool has_k = c.size() > 0 && is_index(c.arg(0));
  const int k = c.checked(0, [&] {
    return h.schedules().kernel_index(has_k ? std::optional<std::string>(c.arg(0)) : std::nullopt);
  });
  const size_t first = has_k ? 1 : 0;
  if (c.size() - first > 2) c.fail(first + 2, "command", "usage: {}", ":diff [K] [A [B]]");
  std::vector<Side> sides;
  for (size_t i = first; i < c.size(); i++) sides.push_back(side_arg(c, i));
  // :diff K: the last :opt's change; :diff K B: now against B
  if (sides.empty()) sides = {Side{.version = Version::Before, .word = "before"}, Side{}};
  if (sides.size() == 1) sides.insert(sides.begin(), Side{});
  std::vector<std::string> texts, labels;
  std::vector<double> seconds;
  for (const Side& side : sides) {
    const KernelRecord r = version_of(h, c, k, side);
    const std::string backend = side.backend.empty() ? own_backend(r) : side.backend;
    const bool own = backend == own_backend(r);
    texts.push_back(backend_source(r, backend));
    labels.push_back(label(r, side, backend, own));
    seconds.push_back(own ? r.seconds : 0);
  }
  const LineDiff d = unified_diff(texts[0], texts[1], labels[0], labels[1]);
  std::string out = d.text.empty() ? fmt::format("--- {}\n+++ {}\nthe two sources are the same\n", labels[0], labels[1])
                                   : d.text;
  out += fmt::format("{} line{} removed, {} added", d.removed, d.removed == 1 ? "" : "s", d.added);
  if (seconds[0] > 0 && seconds[1] > 0) out += fmt::format("; {:.2f}x the time", seconds[1] / seconds[0]);
  out += "\n";
  if (h.show_view({.stage = Stage::Source, .kernel = k, .diff = out})) return Status::Ok;
  h.show(c.name(), out);
  return Status::Ok;
}

}  // namespace tr::repl::meta
