// :opt K OP AXIS AMOUNT and :opts K — tuning a kernel by hand, as BEAM would, and watching the result.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/base/context.h"
#include "repl/app/meta_commands.h"
#include "repl/app/settings_input.h"
#include "viz/stages.h"

namespace tr::repl::meta {
namespace {

int kernel_arg(Host& h, const MetaCall& c) {
  return c.checked(0, [&] {
    return h.schedules().kernel_index(c.size() > 0 ? std::optional<std::string>(c.arg(0)) : std::nullopt);
  });
}

OptOp opt_arg(const MetaCall& c, size_t i) {
  std::string upper = c.arg(i);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  if (const std::optional<OptOp> op = parse_opt(upper)) return *op;
  c.fail(i, "value", "unknown opt '{}' (opts: {}; or none)", c.arg(i), opt_names());
}

}  // namespace

Status opt(Host& h, const MetaCall& c) {
  c.expect(2, 4);
  const int k = kernel_arg(h, c);
  const KernelRecord base = h.schedules().kernel(k);
  std::vector<Opt> opts = base.kernel->opts;
  if (c.arg(1) == "none") {
    c.expect(2, 2);
    opts.clear();
  } else {
    c.expect(4, 4);
    const OptOp op = opt_arg(c, 1);
    const int axis = c.checked(2, [&] { return bounded_int(c.arg(2), 0, 63, "AXIS"); });
    const int amount = c.checked(3, [&] { return bounded_int(c.arg(3), 1, 1 << 20, "AMOUNT"); });
    opts.push_back(Opt{op, axis, amount});
  }
  // an opt that does not fit is the command's fault as a whole: its message names the dim
  const KernelRecord tuned = c.checked(c.size(), [&] { return run_with_opts(base, opts); });
  std::string out = kernel_title(k, tuned) + uops_text(*tuned.program) +
                    source_text(tuned, shown_backends(tuned, settings().render)) + kernel_run_text(tuned);
  if (base.seconds > 0) out += fmt::format("before: {}", kernel_run_text(base));
  h.schedules().replace_kernel(k, tuned);
  h.show(c.name(), out);
  return Status::Ok;
}

Status opts(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  const int k = kernel_arg(h, c);
  const KernelRecord& r = h.schedules().kernel(k);
  h.show(c.name(), kernel_title(k, r) + opts_text(*r.kernel));
  return Status::Ok;
}

}  // namespace tr::repl::meta
