#!/usr/bin/env python3
"""Every PTX kernel of a .tg script assembles with NVIDIA's ptxas.

    check_ptxas.py [--ptxas PATH] [--verdicts DIR] EVENTS.jsonl

EVENTS.jsonl is what `tinyrepl --debug 4 --render ptx run --json FILE.tg` printed on the CPU device (the
test example_<name> records it, see tests/example_run.cmake): its PTX tab shows each kernel lowered for
the NV device's GPU target (workgroups, local memory, vectors), what NV would run. (OPENCL's GPU target
rendered as PTX is left to the random programs of backend_random_test, which cover both targets at a
fraction of the cost of running every example twice.) Each distinct PTX source is assembled by ptxas for
the architecture its `.target` line names and for sm_90 (the H100 of the GPU machine); a source that
ptxas refuses fails the test with ptxas's message and the source. With --verdicts, a source that
assembled is remembered in DIR under a hash of ptxas's version, the architectures and the text, and not
assembled again (./scripts/test's sanitizer run renders the same PTX as its plain run).

Exit status: 0 every source assembled, 1 one did not, 77 skipped (no ptxas: the CUDA toolkit is not
installed).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARCHS = ["sm_90"]


def sources(events):
    found = {}
    with open(events) as f:
        for line in f:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "source" and event.get("backend") == "ptx":
                found.setdefault(event["text"], event["kernel"])
    return found


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


def verdict_path(verdicts, version, text):
    """Where the pass of this text is remembered, or None without --verdicts."""
    if not verdicts:
        return None
    return os.path.join(verdicts, hashlib.sha256("\0".join([version, *ARCHS, text]).encode()).hexdigest())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--verdicts", default="", help="a folder that remembers the sources that assembled")
    ap.add_argument("events")
    args = ap.parse_args()
    ptxas = args.ptxas or shutil.which("ptxas") or ""
    if not ptxas or not os.access(ptxas, os.X_OK):
        print("skipped: ptxas was not found (the CUDA toolkit is not installed)")
        return 77
    failures, found = [], sources(args.events)
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as workdir:
        for text, kernel in found.items():
            passed = verdict_path(args.verdicts, version, text)
            if passed and os.path.exists(passed):
                continue
            errors = assemble(ptxas, text, kernel, workdir)
            for e in errors:
                failures.append(e + "\n--- source ---\n" + text)
            if passed and not errors:
                os.makedirs(args.verdicts, exist_ok=True)
                open(passed, "w").close()
    print(f"{len(found)} PTX sources checked with {ptxas}")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
