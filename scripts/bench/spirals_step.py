#!/usr/bin/env python3
"""One training step of the spirals MLP (scripts/examples/15: 512 points, 2-64-1, Adam, float32) under
tinyrepl and under tinygrad 0.14 (DEV=CPU), in one run: kernels per step and time per step.

    spirals_step.py --tinyrepl PATH [--steps 50] [--repeats 3]

Time per step: tinygrad runs in this process (after 5 warm-up steps, `repeats` blocks of `steps` steps,
the fastest block divided by `steps`); tinyrepl runs as a process per program, so its time per step is
(fastest run of 5 + steps steps - fastest run of 5 steps) / steps, which leaves out its start-up, the
data set-up and the first compiles. Both are a step's whole wall time: scheduling, lowering (cached),
launching and running the kernels. Kernels per step: tinygrad's GlobalCounters.kernel_count over one
step; tinyrepl's kernels() of the step's tensors.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

SETUP = """
n = 256
t = arange(n).cast(float32) / n
r = t * 2 + 0.2
theta = t * 3 * 3.141592653589793
xa = (r * theta.cos()).reshape(n, 1).cat((r * theta.sin()).reshape(n, 1), dim=1)
X = xa.cat(-xa, dim=0).realize()
Y = ones(n).cat(zeros(n)).reshape(2 * n, 1).realize()
w1 = (randn(2, 64, seed=1) * (1 / 2 ** 0.5)).realize()
b1 = zeros(64).contiguous().realize()
w2 = (randn(64, 1, seed=2) * (1 / 64 ** 0.5)).realize()
b2 = zeros(1).contiguous().realize()
opt = nn.optim.Adam([w1, b1, w2, b2], lr=0.03)

def forward(x):
    return (x @ w1 + b1).relu() @ w2 + b2

def bce_with_logits(z, y):
    return (z.maximum(0) - z * y + (1 + (-z.abs()).exp()).log()).mean()

@Context(TRAINING=1)
def train_step():
    opt.zero_grad()
    loss = bce_with_logits(forward(X), Y).backward()
    return loss.realize(*opt.schedule_step())
"""

COUNT = """
with Context(TRAINING=1):
    opt.zero_grad()
    loss = bce_with_logits(forward(X), Y).backward()
    print(kernels(loss, *opt.schedule_step()))
"""


def tinyrepl_seconds(binary, steps, repeats, env):
    with tempfile.NamedTemporaryFile("w", suffix=".tg", delete=False) as f:
        f.write(SETUP + f"for i in range({steps}):\n    train_step()\nprint(w1.sum())\n")
        path = f.name
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([binary, "run", path], check=True, env=env, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    os.unlink(path)
    return best


def tinyrepl_kernels(binary, env):
    out = subprocess.run([binary, "-e", SETUP + COUNT], check=True, env=env, capture_output=True, text=True)
    return int(out.stdout.split()[-1])


def tinygrad_figures(steps, repeats):
    """The same program (SETUP is Python once tests/peer/prelude.py's names exist) under tinygrad."""
    os.environ.setdefault("DEV", "CPU")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "peer"))
    import prelude
    from tinygrad import GlobalCounters

    names = dict(prelude.NAMES)
    exec(SETUP, names)  # noqa: S102 - the benchmark's own program
    train_step = names["train_step"]
    for _ in range(5):
        train_step()
    GlobalCounters.reset()
    train_step()
    kernels = GlobalCounters.kernel_count
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            train_step()
        best = min(best, time.perf_counter() - t0)
    return kernels, best / steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tinyrepl", required=True)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    env = dict(os.environ)
    tinyrepl_seconds(args.tinyrepl, 5, 1, env)  # fills the compile cache
    ours_kernels = tinyrepl_kernels(args.tinyrepl, env)
    short = tinyrepl_seconds(args.tinyrepl, 5, args.repeats, env)
    long = tinyrepl_seconds(args.tinyrepl, 5 + args.steps, args.repeats, env)
    ours = (long - short) / args.steps
    theirs_kernels, theirs = tinygrad_figures(args.steps, args.repeats)
    print(f"spirals step (512x2 -> 64 -> 1, Adam, float32), {args.steps} steps, best of {args.repeats}, "
          f"on {os.cpu_count()} cores")
    print(f"  tinyrepl       {ours_kernels:3d} kernels per step  {ours * 1e3:8.2f} ms per step")
    print(f"  tinygrad 0.14  {theirs_kernels:3d} kernels per step  {theirs * 1e3:8.2f} ms per step  (DEV={os.environ['DEV']})")
    print(f"  tinyrepl / tinygrad time: {ours / theirs:.2f}")


if __name__ == "__main__":
    sys.exit(main())
