// libFuzzer: chains of movement ops on a ShapeTracker, every number of them (the start shape, each
// op and its arguments) chosen by the fuzzer's bytes, checked after each op against the brute-force
// model of tests/shape_model.h. A mismatch aborts with the chain that made it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/base/error.h"
#include "tests/shape_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider bytes(data, size);
  using tr::testing::Chains;
  Chains chains([&bytes](int64_t lo, int64_t hi) { return bytes.ConsumeIntegralInRange<int64_t>(lo, hi); });
  tr::testing::Traced t(chains.random_shape());
  for (int64_t length = chains.pick(1, 12); length > 0 && bytes.remaining_bytes() > 0; --length) {
    t.apply(chains.random_step(t.m.shape));
    const std::string why = tr::testing::mismatch(t.st, t.m);
    if (!why.empty()) {
      std::fprintf(stderr, "%s: %s\n", t.trace.c_str(), why.c_str());
      std::abort();
    }
  }
  return 0;
}
