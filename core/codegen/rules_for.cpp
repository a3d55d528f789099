// Which rules the simplify pass applies on a target: the shared ones, and those its hardware or
// renderer asks for.
#include "core/codegen/rules.h"

namespace tr {

const std::vector<Rule>& rules_for(const Target& target) {
  const auto with = [](bool half_in_float, bool mulacc) {
    std::vector<Rule> all = symbolic_rules();
    if (half_in_float) all.insert(all.end(), half_in_float_rules().begin(), half_in_float_rules().end());
    if (mulacc) all.insert(all.end(), mulacc_rules().begin(), mulacc_rules().end());
    return all;
  };
  static const std::vector<Rule> sets[2][2] = {{with(false, false), with(false, true)}, {with(true, false), with(true, true)}};
  return sets[!target.half_arithmetic][target.mulacc];
}

}  // namespace tr
