// The rewrite rules as data: each carries the identity that justifies it, and a target adds its own
// (half kept only in memory moves every op on half into float).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/codegen/rules.h"
#include "core/kernel/kernel.h"
#include "core/render/opencl.h"
#include "core/schedule/schedule.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(Rules, EachHasItsOwnNameAndTheIdentityThatJustifiesIt) {
  std::set<std::string> names;
  for (const std::vector<Rule>* rules : {&symbolic_rules(), &half_in_float_rules()})
    for (const Rule& r : *rules) {
      EXPECT_TRUE(names.insert(r.name).second) << "two rules named " << r.name;
      EXPECT_FALSE(r.identity.empty()) << r.name;
    }
  EXPECT_EQ(rules_for(Target{}).size(), symbolic_rules().size());
  Target memory_only;
  memory_only.half_arithmetic = false;
  EXPECT_EQ(rules_for(memory_only).size(), symbolic_rules().size() + half_in_float_rules().size());
}

bool touches_half(const std::vector<UOp>& uops) {
  return std::any_of(uops.begin(), uops.end(), [&](const UOp& u) {
    if (u.kind != UOpKind::Alu) return false;
    return u.dtype == DType::Float16 ||
           std::any_of(u.srcs.begin(), u.srcs.end(), [&](int s) { return uops[s].dtype == DType::Float16; });
  });
}

TEST(Rules, HalfOnlyInMemoryComputesInFloat) {
  std::mt19937_64 rng(3);
  const auto half = [&] {
    Tensor t = tensor(random_values(rng, 64, DType::Float32, -1, 1), {64}).cast(DType::Float16);
    t.realize();
    return t;
  };
  const Tensor a = half(), b = half(), c = half();
  const Tensor y = a.mul(b).exp().maximum(c).add(c);
  const std::vector<ScheduleItem> items = create_schedule({base_of(y.node())});
  ASSERT_EQ(items.size(), 1u);
  const Kernel k = Kernel::from_ast(items[0].ast);
  const Target native{.gpu = true, .max_local = 256};
  Target memory_only = native;
  memory_only.half_arithmetic = false;

  EXPECT_TRUE(touches_half(codegen(k, native, "native").uops));
  const UOpProgram p = codegen(k, memory_only, "memory_only");
  EXPECT_FALSE(touches_half(p.uops)) << print_uops(p.uops);
  // each op's result rounds back to half, as half arithmetic would round it
  const std::string src = render_opencl_for(p, false);
  EXPECT_NE(src.find("tr_round_half("), std::string::npos) << src;
  EXPECT_NE(src.find("vload_half("), std::string::npos) << src;
  EXPECT_EQ(src.find("half "), std::string::npos) << "no half variable: " << src;
}

}  // namespace
}  // namespace tr
