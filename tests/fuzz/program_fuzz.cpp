// libFuzzer, differential: the fuzzer's bytes pick a random tensor program (tests/random_program.h:
// integer and float dtypes, op chains, movement ops, reduces), with or without the default opts, and
// it runs on every device that opens here (CPU; LLVM and OpenCL where clang and PoCL are installed).
// Its values must agree with the reference evaluator's on each; a divergence, or an error that is not
// a device lacking a dtype, aborts with the program, which then becomes a case of a suite.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/base/context.h"
#include "core/reference/reference.h"
#include "core/runtime/device.h"
#include "devices/registry.h"
#include "tests/random_program.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tr::register_devices();
  // the CPU device always opens: without it the harness would compare nothing
  if (const std::string why = tr::device_status("CPU"); !why.empty()) {
    std::fprintf(stderr, "the CPU device does not open: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider bytes(data, size);
  const int seed = bytes.ConsumeIntegral<int>();
  tr::settings().noopt = bytes.ConsumeBool();
  for (const char* device : {"CPU", "LLVM", "OPENCL"}) {
    if (!tr::device_status(device).empty()) continue;
    tr::testing::Generator gen(seed, device);
    std::string why;
    try {
      const tr::Tensor x = gen.build();
      const ::testing::AssertionResult same =
          tr::testing::agrees(x.data(), tr::reference_eval(x.node()), tr::testing::least_precise_float(x.node()));
      if (!same) why = same.message();
    } catch (const tr::Error& e) {
      if (!tr::testing::lacks_dtype(e)) why = std::string(e.kind()) + " error: " + e.what();
    }
    if (!why.empty()) {
      std::fprintf(stderr, "seed %d on %s%s: %s\nprogram:\n%s", seed, device, tr::settings().noopt ? " (NOOPT)" : "",
                   why.c_str(), gen.text().c_str());
      std::abort();
    }
  }
  return 0;
}
