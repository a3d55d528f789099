// @jit against plain calls: the training step of scripts/examples/12_spirals_mlp_adam.tg (a two-layer
// MLP on 512 points, its gradients and Adam's update), run as a plain def and as a @jit def. From the
// third call on, each step's wall time is split into the time inside kernels and copies (as their
// records say) and the time outside them: scheduling, lowering, rendering and the program cache for
// a plain call; binding the captured buffers and bookkeeping for a replay. Each call is timed alone
// (until its records are made, which waits for its kernels), and the @jit calls also back to back, as
// a training loop makes them: a replay returns while its kernels run on a GPU, and its records are
// made once the next has started.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "core/base/context.h"
#include "core/realize/realize.h"
#include "devices/registry.h"
#include "repl/parser.h"
#include "repl/session.h"

namespace {

const char* const kSetup = R"(n = 256
t = arange(n).cast(float64) / n
r = t * 2 + 0.2
theta = t * 3 * 3.141592653589793
xa = (r * theta.cos()).reshape(n, 1).cat((r * theta.sin()).reshape(n, 1), dim=1)
X = xa.cat(-xa, dim=0).contiguous().realize()
Y = ones(n, dtype=float64).cat(zeros(n, dtype=float64)).reshape(2 * n, 1).contiguous().realize()
hidden = 64
w1 = (randn(2, hidden, seed=1, dtype=float64) * (1 / 2 ** 0.5)).realize()
b1 = zeros(hidden, dtype=float64).contiguous().realize()
w2 = (randn(hidden, 1, seed=2, dtype=float64) * (1 / hidden ** 0.5)).realize()
b2 = zeros(1, dtype=float64).contiguous().realize()
params = [w1, b1, w2, b2]
def forward(x):
    return (x @ w1 + b1).relu() @ w2 + b2
def bce_with_logits(z, y):
    return (z.maximum(0) - z * y + (1 + (-z.abs()).exp()).log()).mean()
lr = 0.03
beta1 = 0.9
beta2 = 0.999
eps = 1e-8
ms = []
vs = []
for p in params:
    ms = ms + [zeros_like(p).contiguous().realize()]
    vs = vs + [zeros_like(p).contiguous().realize()]
b1t = ones(1, dtype=float64).contiguous().realize()
b2t = ones(1, dtype=float64).contiguous().realize()
def adam_step(grads):
    b1t.assign(b1t * beta1)
    b2t.assign(b2t * beta2)
    for i in range(len(params)):
        p, g, m, v = params[i], grads[i], ms[i], vs[i]
        m.assign(beta1 * m + (1 - beta1) * g)
        v.assign(beta2 * v + (1 - beta2) * g * g)
        p.assign(p - lr * (m / (1 - b1t)) / ((v / (1 - b2t)).sqrt() + eps))
)";

const char* const kStep = R"(def train_step():
    loss = bce_with_logits(forward(X), Y)
    grads = loss.gradient(w1, b1, w2, b2)
    realize(grads[0], grads[1], grads[2], grads[3])
    adam_step(grads)
    return realize(loss, b1t, b2t, *params, *ms, *vs)[0]
)";

struct Step {
  double wall_ms, kernel_ms;
  size_t launches;
};

void run(tr::repl::Session& s, const std::string& src) {
  for (const tr::repl::Stmt& st : tr::repl::parse_program(src)) s.execute(st);
}

// A session with the data and train_step defined (as a @jit def when `jit`).
class StepSession {
 public:
  explicit StepSession(bool jit) {
    run(s_, kSetup);
    run(s_, (jit ? "@jit\n" : "") + std::string(kStep));
  }

  // `calls` calls made back to back, timed until the last one's records are made; per call.
  Step time(int calls) {
    const size_t first = tr::history().count();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; i++) s_.execute(call_[0]);
    tr::settle_runs();
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double inside = 0;
    const std::vector<tr::RunRecord> ran = tr::history().since(first);
    for (const tr::RunRecord& rec : ran) inside += tr::run_seconds(rec) * 1e3;
    return {wall / calls, inside / calls, ran.size() / static_cast<size_t>(calls)};
  }

 private:
  tr::repl::Session s_{[](const tr::repl::PrintEvent&) {}};
  const std::vector<tr::repl::Stmt> call_ = tr::repl::parse_program("loss = train_step()");
};

std::vector<Step> steps(bool jit, int n) {
  StepSession s(jit);
  std::vector<Step> out;
  for (int i = 0; i < n; i++) out.push_back(s.time(1));
  return out;
}

// Calls after the capture in blocks of `block`, with nothing read between the calls of a block: a
// block's step is its wall time (until its last call's records are made) over its calls.
std::vector<Step> back_to_back(int blocks, int block) {
  StepSession s(true);
  s.time(2);
  std::vector<Step> out;
  for (int b = 0; b < blocks; b++) out.push_back(s.time(block));
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The steps' wall times, times in kernels and times outside them.
struct Columns {
  std::vector<double> wall, inside, outside;
  explicit Columns(std::span<const Step> steps) {
    for (const Step& st : steps) {
      wall.push_back(st.wall_ms);
      inside.push_back(st.kernel_ms);
      outside.push_back(st.wall_ms - st.kernel_ms);
    }
  }
};

void report(const char* name, const std::vector<Step>& all) {
  const Columns c(std::span<const Step>(all).subspan(2));  // from the third call on
  // the fastest step too: on a loaded machine the median carries the waits for a core
  const auto fastest = std::min_element(c.wall.begin(), c.wall.end()) - c.wall.begin();
  std::printf("  %-6s %2zu launches/step  median: step %7.3f ms, in kernels %7.3f ms, outside %7.3f ms (%4.1f%%)"
              "   fastest step: %7.3f ms, outside %7.3f ms (%4.1f%%)\n",
              name, all.back().launches, median(c.wall), median(c.inside), median(c.outside),
              100 * median(c.outside) / median(c.wall), c.wall[fastest], c.outside[fastest],
              100 * c.outside[fastest] / c.wall[fastest]);
}

}  // namespace

int main(int argc, char** argv) {
  tr::register_devices();
  const int n = argc > 1 ? std::max(3, std::atoi(argv[1])) : 30;
  // a second argument, plain or jit, runs that half alone (for a profiler)
  const std::string only = argc > 2 ? argv[2] : "";
  std::printf("spirals training step (MLP 2-64-1, 512 points, float64, Adam) on %s; medians of calls 3..%d\n",
              tr::settings().device.c_str(), n);
  if (only != "jit") report("plain", steps(false, n));
  if (only != "plain") {
    report("@jit", steps(true, n));
    // blocks of 10 calls, as many as the calls after the first two make (their median: a loaded
    // machine's waits for a core fall into a few of them)
    const std::vector<Step> blocks = back_to_back(std::max(1, (n - 2) / 10), 10);
    const Columns c(blocks);
    std::printf("  @jit   %2zu launches/step  back to back, median of %zu blocks of 10 calls: step %7.3f ms, in kernels "
                "%7.3f ms, outside %7.3f ms (%4.1f%%)\n",
                blocks.back().launches, blocks.size(), median(c.wall), median(c.inside), median(c.outside),
                100 * median(c.outside) / median(c.wall));
  }
  return 0;
}
