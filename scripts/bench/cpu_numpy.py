# numpy's time for each row of scripts/bench/cpu that numpy can do: one line "key seconds" per row,
# the fastest of several runs into outputs allocated (and so touched) beforehand.
import sys
import time

import numpy as np

# the benchmark's own rule (kernel_times.h): up to REPEATS runs, fewer where they would add up to more than
# WINDOW seconds, but MIN_RUNS at least
REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIN_RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
WINDOW = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0


def best(f):
    """The fastest of the runs the benchmark's rule allows, after one that warms the memory."""
    f()
    t, spent = float("inf"), 0.0
    for i in range(REPEATS):
        if spent >= WINDOW and i >= MIN_RUNS:
            break
        t0 = time.perf_counter()
        f()
        took = time.perf_counter() - t0
        t, spent = min(t, took), spent + took
    return t


rng = np.random.default_rng(0)
n = 16 * 1024 * 1024
x, y, out = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.empty(n, np.float32)
print("add", best(lambda: np.add(x, y, out=out)))
print("chain", best(lambda: np.multiply(np.exp(np.add(np.multiply(x, y, out=out), 1, out=out), out=out), x, out=out)))
print("sum", best(lambda: x.sum()))
m = x.reshape(4096, 4096)
rows, cols = np.empty(4096, np.float32), np.empty(4096, np.float32)
print("rowsum", best(lambda: m.sum(axis=1, out=rows)))
print("colsum", best(lambda: m.sum(axis=0, out=cols)))
t = out.reshape(4096, 4096)
print("transpose", best(lambda: np.copyto(t, m.T)))
s = x[: 4096 * 1024].reshape(4096, 1024)
so = np.empty_like(s)


def softmax():
    np.subtract(s, s.max(axis=1, keepdims=True), out=so)
    np.exp(so, out=so)
    np.divide(so, so.sum(axis=1, keepdims=True), out=so)


print("softmax", best(softmax))
for size in (1024, 2048):
    a, b = rng.random((size, size), dtype=np.float32), rng.random((size, size), dtype=np.float32)
    c = np.empty((size, size), np.float32)
    print(f"matmul{size}", best(lambda: np.matmul(a, b, out=c)))
for size in (1024, 2048):
    a, w, bias = (rng.random((size, size), dtype=np.float32), rng.random((size, size), dtype=np.float32),
                  rng.random(size, dtype=np.float32))
    c = np.empty((size, size), np.float32)

    def linear_relu():
        np.matmul(a, w, out=c)
        np.add(c, bias, out=c)
        np.maximum(c, 0, out=c)

    print(f"linear{size}", best(linear_relu))
a, w, bias = (rng.random((512, 1024), dtype=np.float32), rng.random((1024, 1024), dtype=np.float32),
              rng.random(1024, dtype=np.float32))
c = np.empty((512, 1024), np.float32)


def linear_relu():
    np.matmul(a, w, out=c)
    np.add(c, bias, out=c)
    np.maximum(c, 0, out=c)


print("linear512", best(linear_relu))
# a convolution's implicit GEMM as ResNet's first 3x3 stage has it: 32x56x56 positions by 64 channels x 9 taps
a, b = rng.random((100352, 576), dtype=np.float32), rng.random((576, 64), dtype=np.float32)
c = np.empty((100352, 64), np.float32)
print("tallskinny", best(lambda: np.matmul(a, b, out=c)))
a, b = rng.random((32, 256, 256), dtype=np.float32), rng.random((32, 256, 256), dtype=np.float32)
c = np.empty((32, 256, 256), np.float32)
print("batched", best(lambda: np.matmul(a, b, out=c)))
# PyTorch's CPU bfloat16 matmul, where its wheel is installed
try:
    import torch
except ImportError:
    sys.exit(0)
torch.manual_seed(0)
a, b = torch.rand(1024, 1024, dtype=torch.bfloat16), torch.rand(1024, 1024, dtype=torch.bfloat16)
c = torch.empty(1024, 1024, dtype=torch.bfloat16)
print("torch_bf16_matmul1024", best(lambda: torch.matmul(a, b, out=c)))
