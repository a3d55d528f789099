// The compiler's middle alone: how long scheduling, lowering (opts and the codegen passes) and
// rendering take for graphs a user builds, with nothing compiled or run. Milliseconds, best of 5.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "devices/registry.h"

namespace {

using tr::Tensor;

// A 20-layer MLP of width 256 on a batch of 64: every layer a matmul, a bias and a relu.
Tensor mlp() {
  Tensor x = Tensor::rand({64, 256}, 1);
  for (int i = 0; i < 20; i++) {
    Tensor w = Tensor::rand({256, 256}, 2 + i), b = Tensor::rand({256}, 100 + i);
    w.realize();
    b.realize();
    x = x.matmul(w).add(b).relu();
  }
  return x;
}

// 60 residual layers h = h + relu(h * 0.5) over 8x8: a graph whose paths double at every layer.
Tensor residual() {
  Tensor h = Tensor::rand({8, 8}, 7);
  h.realize();
  for (int i = 0; i < 60; i++) h = h.add(h.mul(Tensor::full({}, 0.5)).relu());
  return h;
}

struct Figures {
  double ms = 1e30;
  int kernels = 0;
};

Figures measure(const std::function<Tensor()>& make) {
  Figures f;
  for (int round = 0; round < 5; round++) {
    const Tensor t = make();
    const auto t0 = std::chrono::steady_clock::now();
    int kernels = 0;
    for (const tr::ScheduleItem& item : tr::create_schedule({tr::base_of(t.node())}))
      if (item.kind == tr::ScheduleItem::Kind::Kernel) {
        tr::lower(item, "CPU");
        kernels++;
      }
    f.ms = std::min(f.ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    f.kernels = kernels;
  }
  return f;
}

}  // namespace

int main() {
  tr::register_devices();
  std::printf("schedule + lower + render for the CPU (C source), nothing compiled; best of 5\n");
  for (const auto& [name, make] : {std::pair<const char*, std::function<Tensor()>>{"MLP, 20 layers of width 256", mlp},
                                   {"residual stack, 60 layers", residual}}) {
    const Figures f = measure(make);
    std::printf("  %-30s %3d kernels  %8.2f ms\n", name, f.kernels, f.ms);
  }
  return 0;
}
