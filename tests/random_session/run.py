"""Pipes random sessions into tinyrepl and checks that each one ends well.

    python3 run.py TINYREPL FIRST_SEED LAST_SEED WORKDIR

Each seed gives one session (session_gen.py) of random statements over every kind of tensor
operation, meta command and setting, most of them wrong in some way. tinyrepl must report every
error and go on: the session exits with 0, 1 or 2 (the status of its first failure, as `run -`
would), prints its final value 6, and (in the sanitizer build)
AddressSanitizer and UndefinedBehaviorSanitizer report nothing. A failing session is kept in
WORKDIR as seed_N.tg, with its output, for replaying by hand.
"""
import os
import subprocess
import sys

import session_gen

SANITIZER_WORDS = ("AddressSanitizer", "runtime error:", "terminate called")


def check(tinyrepl, seed, workdir):
    session = session_gen.session(seed, 60)
    # the caller's sanitizer options stay (scripts/test turns ASan's per-thread signal stacks off: a
    # statement may run on a thread of its own, and unmapping one at a thread's exit can fail)
    asan = ":".join(o for o in (os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0") if o)
    env = dict(os.environ, HOME=workdir, ASAN_OPTIONS=asan)
    for name in ("DEBUG", "NOOPT", "BEAM", "DEV"):
        env.pop(name, None)
    try:
        p = subprocess.run([tinyrepl], input=session, capture_output=True, text=True, env=env, timeout=240)
    except subprocess.TimeoutExpired:
        return "did not end within 240 s", session, "", ""
    problems = []
    if p.returncode not in (0, 1, 2):
        problems.append(f"exit status {p.returncode}")
    if "6" not in p.stdout.splitlines():
        problems.append("the final value 6 was not printed")
    problems += [f"stderr has '{w}'" for w in SANITIZER_WORDS if w in p.stderr]
    return "; ".join(problems), session, p.stdout, p.stderr


def main():
    tinyrepl, first, last, workdir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    os.makedirs(workdir, exist_ok=True)
    failed = 0
    for seed in range(first, last + 1):
        problem, session, out, err = check(tinyrepl, seed, workdir)
        if not problem:
            continue
        failed += 1
        for ext, text in (("tg", session), ("out", out), ("err", err)):
            with open(os.path.join(workdir, f"seed_{seed}.{ext}"), "w") as f:
                f.write(text)
        print(f"seed {seed}: {problem} (session and output in {workdir}/seed_{seed}.*)")
        print("\n".join(err.splitlines()[-15:]))
    print(f"{last - first + 1 - failed} of {last - first + 1} random sessions ended well")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
