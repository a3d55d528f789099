#!/usr/bin/env python3
"""Every PTX kernel of a .tg script assembles with NVIDIA's ptxas.

    check_ptxas.py --tinyrepl PATH --ptxas PATH FILE.tg

The script runs under `tinyrepl run --json --debug 4 --render ptx` on the CPU device, whose PTX tab shows
each kernel lowered for the NV device's GPU target (workgroups, local memory, vectors): what NV would run.
(OPENCL's GPU target rendered as PTX is left to the random programs of backend_random_test, which cover
both targets at a fraction of the cost of running every example twice.) Each distinct PTX source is assembled by ptxas for the architecture its `.target` line
names and for sm_90 (the H100 of the GPU machine); a source that ptxas refuses fails the test with
ptxas's message and the source.

Exit status: 0 every source assembled, 1 one did not (or the script failed on every device), 77 skipped
(no ptxas: the CUDA toolkit is not installed; or the script reached a kernel over a symbolic size, which
the PTX renderer refuses, README "Symbolic sizes", after the sources before it assembled).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARCHS = ["sm_90"]


def sources(tinyrepl, device, script):
    run = subprocess.run([tinyrepl, "--device", device, "--debug", "4", "--render", "ptx", "run", "--json", script],
                         capture_output=True, text=True, timeout=600)
    found = {}
    for line in run.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "source" and event.get("backend") == "ptx":
            found.setdefault(event["text"], event["kernel"])
    return run.returncode, run.stdout + run.stderr, found


def assemble(ptxas, text, kernel, workdir):
    target = re.search(r"^\.target (sm_\d+)", text, re.M)
    if not target:
        return [f"{kernel}: no .target line"]
    path = os.path.join(workdir, kernel + ".ptx")
    with open(path, "w") as f:
        f.write(text)
    errors = []
    for arch in [target.group(1)] + ARCHS:
        r = subprocess.run([ptxas, "--gpu-name", arch, path, "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            errors.append(f"{kernel} for {arch}:\n{r.stderr.strip()}")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tinyrepl", required=True)
    ap.add_argument("--ptxas", default="")
    ap.add_argument("script")
    args = ap.parse_args()
    ptxas = args.ptxas or shutil.which("ptxas") or ""
    if not ptxas or not os.access(ptxas, os.X_OK):
        print("skipped: ptxas was not found (the CUDA toolkit is not installed)")
        return 77
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as workdir:
        status, output, found = sources(args.tinyrepl, "CPU", args.script)
        if status != 0:
            print(f"the script did not run (status {status}); its sources so far are checked")
            print("\n".join(output.splitlines()[-3:]))
        for text, kernel in found.items():
            checked += 1
            for e in assemble(ptxas, text, kernel, workdir):
                failures.append(e + "\n--- source ---\n" + text)
    print(f"{checked} PTX sources checked with {ptxas}")
    for f in failures:
        print(f)
    if not failures and status != 0 and "the PTX renderer does not take a Variable argument" in output:
        print("skipped: the rest of the script runs kernels over a symbolic size, which the PTX renderer does not take yet")
        return 77
    return 1 if failures or status != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
