"""PyTorch's side of the GPU benchmark: reads our JSON lines on stdin, times the same work with torch
on the same GPU in the same run (CUDA events, TF32 off: float32 work, as ours is), and prints both
with their ratios, then each kernel's opts."""
import json
import sys

import torch


def best_ms(fn, repeats=10):
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
    torch.backends.cuda.matmul.allow_tf32 = False
    n, side, m = 64 << 20, 8192, 4096
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    sq = x.reshape(side, side)
    p, q, b = torch.rand(m, m, device="cuda"), torch.rand(m, m, device="cuda"), torch.rand(m, device="cuda")
    ph, qh = p.half(), q.half()
    pb, qb = p.bfloat16(), q.bfloat16()
    gbs = lambda nbytes, fn: nbytes / (best_ms(fn) * 1e-3) / 1e9  # noqa: E731
    gflops = lambda fn: 2 * m**3 / (best_ms(fn) * 1e-3) / 1e9  # noqa: E731
    return {
        "add 64M f32": gbs(12 * n, lambda: x + y),
        "(x*2+1).exp().relu()*y 64M": gbs(12 * n, lambda: (x * 2 + 1).exp().relu() * y),
        "sum 64M f32": gbs(4 * n, lambda: x.sum()),
        "sum over rows 8192x8192": gbs(4 * n, lambda: sq.sum(1)),
        "sum over columns 8192x8192": gbs(4 * n, lambda: sq.sum(0)),
        "softmax 8192x8192": gbs(8 * n, lambda: sq.softmax(1)),
        "x.T.contiguous() 8192x8192": gbs(8 * n, lambda: sq.T.contiguous()),
        "matmul 4096 f32": gflops(lambda: p @ q),
        "matmul 4096 f16": gflops(lambda: ph @ qh),
        "matmul 4096 bf16": gflops(lambda: pb @ qb),
        "(a @ w + b).relu() 4096 f32": gflops(lambda: (p @ q + b).relu()),
    }


def main():
    device = sys.argv[1] if len(sys.argv) > 1 else "CUDA"
    lines = [json.loads(line) for line in sys.stdin if line.startswith("{")]
    peaks = "".join(line["peaks"] for line in lines if "peaks" in line)
    ours = [line for line in lines if "work" in line]
    theirs = torch_figures()
    print(f"{device} on {torch.cuda.get_device_name()}, torch {torch.__version__} (TF32 off)")
    print(f"{'work':<29} {'unit':<6} {'k':>2} {'NOOPT':>9} {'default':>9} {'BEAM=2':>9} {'PyTorch':>9} {'d/PT':>6} {'B/PT':>6}")
    for row in ours:
        t = theirs[row["work"]]
        beam = row.get("beam")
        print(f"{row['work']:<29} {row['unit']:<6} {row['kernels']:>2} {row['noopt']:>9.1f} {row['default']:>9.1f} "
              f"{beam if beam is not None else float('nan'):>9.1f} {t:>9.1f} {row['default'] / t:>6.2f} "
              f"{(beam / t if beam is not None else float('nan')):>6.2f}")
    print(f"\nthe roofline of the default opts' kernels; {device}'s peaks, measured in this run:\n{peaks}")
    print(f"{'work':<29} {'kernel':<28} {'FLOP/B':>8} {'GFLOPS':>9} {'GB/s':>7} {'% of bound':>10}  bound")
    for row in ours:
        for k in row["roofline"]:
            percent = f"{k['percent']:.0f}%" if k["percent"] >= 0 else "-"
            print(f"{row['work']:<29} {k['kernel'][:28]:<28} {k['intensity']:>8.2f} {k['gflops']:>9.1f} {k['gbs']:>7.1f} "
                  f"{percent:>10}  {k['bound']}{'  (' + k['note'] + ')' if k['note'] else ''}")
    print("\nopts per kernel (default | BEAM=2):")
    for row in ours:
        print(f"  {row['work']}")
        for i, d in enumerate(row["default_opts"]):
            b = row.get("beam_opts", [])
            print(f"    {d}  |  {b[i].split(':', 1)[1] if i < len(b) else '-'}")


if __name__ == "__main__":
    main()
