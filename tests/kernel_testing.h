#pragma once
// Building one kernel from a small program, for tests of what the scheduler and the opts make of it.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/kernel/kernel.h"
#include "core/opt/apply_opt.h"
#include "core/schedule/schedule.h"
#include "core/ir/uops.h"
#include "tests/tensor_testing.h"

namespace tr::testing {

// A realized float32 tensor of random values in [-3, 3) on `device`, the same for the same seed.
inline Tensor realized_random(const Shape& shape, uint64_t seed, const std::string& device = "CPU") {
  std::mt19937_64 rng(seed);
  Tensor t = tensor(random_values(rng, prod(shape), DType::Float32, -3, 3), shape).to(device);
  t.realize();
  return t;
}

// What apply_opt says refusing the opt; "" where it applies.
inline std::string opt_refusal(const Kernel& k, const Opt& opt, const Target& t) {
  try {
    apply_opt(k, opt, t);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The kernel of x, whose inputs are realized: its schedule must be that one kernel.
inline Kernel only_kernel(const Tensor& x) {
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  EXPECT_EQ(items.size(), 1u);
  return Kernel::from_ast(items.back().ast);
}

// k with these opts applied in order.
inline Kernel with_opts(Kernel k, const std::vector<Opt>& opts, const Target& target) {
  for (const Opt& o : opts) k = apply_opt(k, o, target);
  return k;
}

// Whether uop `buf` of p is local memory (a DEFINE_LOCAL).
inline bool is_local(const UOpProgram& p, int buf) { return p.uops[static_cast<size_t>(buf)].kind == UOpKind::DefineLocal; }

// What a program moves through local memory: each array's elements, the stores of a whole vector
// (copies 4 at a time) and of one lane of one (copies scattered lane by lane), the loads by width.
struct LocalTraffic {
  std::vector<int64_t> sizes;
  int vector_stores = 0, lane_stores = 0;
  std::map<int, int> loads;
};
inline LocalTraffic local_traffic(const UOpProgram& p) {
  LocalTraffic t;
  for (const UOp& u : p.uops) {
    if (u.kind == UOpKind::DefineLocal) t.sizes.push_back(u.size);
    if (u.kind == UOpKind::Store && is_local(p, u.srcs[0])) {
      const UOp& value = p.uops[static_cast<size_t>(u.srcs[2])];
      t.vector_stores += value.vec == 4;
      t.lane_stores += value.kind == UOpKind::Gep;
    }
    if (u.kind == UOpKind::Load && is_local(p, u.srcs[0])) t.loads[u.vec]++;
  }
  return t;
}

}  // namespace tr::testing
