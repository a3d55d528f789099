"""PyTorch's side of the GPU benchmark: reads our JSON lines on stdin, times the same work with
torch on the same GPU in the same run, and prints both with their ratio."""
import json
import sys

import torch


def best_ms(fn, repeats):
    fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        best = min(best, start.elapsed_time(end))
    return best


def torch_figures():
    torch.backends.cuda.matmul.allow_tf32 = False  # float32 work, as ours is
    n = 64 << 20
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    add = 3 * 4 * n / (best_ms(lambda: x + y, 10) * 1e-3) / 1e9
    m = 4096
    p, q = torch.rand(m, m, device="cuda"), torch.rand(m, m, device="cuda")
    mm = 2 * m**3 / (best_ms(lambda: p @ q, 5) * 1e-3) / 1e9
    return {"add 64M float32": add, "matmul 4096x4096 float32": mm}


def main():
    ours = [json.loads(line) for line in sys.stdin if line.startswith("{")]
    theirs = torch_figures()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"{'work':<28} {'NOOPT':>10} {'default':>10} {'PyTorch':>10} {'unit':<7} {'default/PyTorch':>15}  kernel")
    for row in ours:
        t = theirs[row["work"]]
        print(f"{row['work']:<28} {row['noopt']:>10.1f} {row['default']:>10.1f} {t:>10.1f} {row['unit']:<7} "
              f"{row['default'] / t:>15.3f}  {row['kernel']}")


if __name__ == "__main__":
    main()
