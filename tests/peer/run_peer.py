#!/usr/bin/env python3
"""Peer check: a .tg script prints the same values under tinyrepl and under tinygrad 0.14.0.

    run_peer.py --tinyrepl PATH FILE.tg...   (a folder: its *.tg files)
    run_peer.py --events EVENTS.jsonl FILE.tg

Each FILE.tg runs twice: `tinyrepl run --json FILE.tg` (its print events; with --events, a run recorded
by tests/example_run.cmake), and as Python under tinygrad
on its CPU device through prelude.py. The .tg text is Python once the prelude's names exist; the few
things that are not plain Python are translated here, each said out loud in the report:
  - a meta command line (`:kernels x`, `:noopt on`, ...) only shows the engine's views or changes how
    kernels are built, never a value: it becomes `pass` (`:reset` forgets the names; `:run` is refused);
  - `assert` becomes a call that records a failure; an assert that uses kernels(...) is not evaluated
    (kernel counts are tinyrepl's own fusion decisions, see prelude.KERNELS_REASON);
  - `x.numpy()` is the realized tensor, as it is in tinyrepl (it prints as numpy prints the array).
Then the print events must pair up one to one (same line, same number of values), and each value must
agree: tensors in shape, dtype and every element (ints and bools exactly; floats to a tolerance that
fits the dtype; nan only with nan, an infinity only with the same infinity), Python values exactly
(floats to 1e-9 relative).

Exit status: 0 all agree, 1 a disagreement, 77 skipped (tinygrad 0.14.0 or numpy cannot be imported;
this script installs nothing: ./scripts/test tries `pip install tinygrad==0.14.0`).
"""
import argparse
import ast
import hashlib
import io
import json
import math
import os
import re
import subprocess
import sys
import traceback

SKIP = 77
WANTED = "0.14.0"

# The three lines of 19_var_the_notes_way.tg that read the variance of an int tensor.
REASON_VAR = ("tinygrad 0.14.0's var of an int tensor casts the float squares to the int accumulator before summing "
              "them (squares.cast(sum_acc_dtype(int32)): 2.25 becomes 2), so var([1, 2, 3, 4]) is 4/3 there; "
              "tinyrepl sums them as floats, as numpy and the notes' tinygrad do (5/3)")

# Values that legitimately differ, each with its reason: (file name, line, value) -> (text the line must
# contain, reason). value None: the whole statement is not run under tinygrad and its print is not compared
# (tinygrad cannot run it); value k: the k-th value of that line's print is not compared. An entry whose
# line no longer contains its text is reported as stale, so that an exclusion cannot drift onto another line.
EXCLUSIONS = {
    ("19_var_the_notes_way.tg", 17, None): (
        "print(v)",
        REASON_VAR),
    ("19_var_the_notes_way.tg", 18, None): (
        "assert allclose(v, 5. / 3.)",
        REASON_VAR),
    ("19_var_the_notes_way.tg", 29, None): (
        "assert allclose(v2, v)",
        REASON_VAR),
    ("28_int_arithmetic.tg", 12, None): (
        "tensor([2, 3]).pow(tensor([3, 2]))",
        "tinygrad 0.14.0 cannot compile an int tensor ** int tensor on its CPU device: clang rejects the "
        "kernel tinygrad renders ('assigning to int2 from incompatible type float2')"),
    ("29_half.tg", 5, 1): (
        "(x + 0.001).cast(float32)",
        "tinygrad 0.14.0 does not round the float16 sum to float16 before the cast to float32 (it prints "
        "0.10097599, which no float16 holds); tinyrepl rounds each float16 result, as numpy does (0.10095215)"),
    ("29_half.tg", 10, 1): (
        "tensor([0.333333]).half().float()",
        "tinygrad 0.14.0 folds a cast to float16 and back to float32 into no cast (it prints 0.333333); "
        "tinyrepl rounds to float16 first, as numpy does (0.33325195)"),
    ("62_scatter_reduce_pool_indices.tg", 16, 1): (
        'scatter_reduce(1, tensor([[2, 0, 1]]), inf, "amax")',
        "tinygrad 0.14.0's max reduce skips a nan that its compare meets second (here max(0, nan) is 0, "
        "while its max of [nan, 1.] is nan); tinyrepl's max reduce is nan wherever the nan lies, as numpy's "
        "and torch's are"),
    ("62_scatter_reduce_pool_indices.tg", 39, 2): (
        "a.lerp(b, 0.5)",
        "tinygrad 0.14.0 computes the uint8 difference end - self in C's int (its kernel casts (b - a) to "
        "float without wrapping: 0 - 200 is -200); tinyrepl wraps it to uint8 first, as numpy does (56)"),
    ("71_bfloat16.tg", 19, None): (
        "a.softmax(1)",
        "tinygrad 0.14.0 cannot compile a bfloat16 softmax on its CPU device with clang 14: the kernel it "
        "renders declares __bf16 values, which clang 14 rejects on x86 ('__bf16 is not supported on this target')"),
    ("41_realize_contiguous.tg", 13, 1): (
        "c.device",
        "tinygrad 0.14.0 gives device None for a tensor computed from Tensor.arange (no buffer of its own "
        "yet); tinyrepl names the device the tensor lives on"),
    ("18_sharding.tg", 12, None): (
        "s.device",
        "tinygrad 0.14.0 gives device None for a sharded tensor not realized yet; tinyrepl names its devices"),
    ("18_sharding.tg", 25, None): (
        "t.device",
        "tinygrad 0.14.0 gives device None for a sharded tensor not realized yet; tinyrepl names its devices"),
    ("18_sharding.tg", 46, None): (
        "loss.backward()",
        "tinygrad 0.14.0 fails to compile the backward pass of a sharded tensor on its CPU device (UOp "
        "verification failed on an INDEX of a bool PARAM)"),
    ("18_sharding.tg", 47, None): (
        "p.grad",
        "the gradient the line before computes, which tinygrad 0.14.0 cannot (see line 46)"),
}

# float tolerances by dtype: (rtol, atol)
TOLERANCE = {"float16": (2e-3, 2e-3), "bfloat16": (1e-2, 1e-2), "float32": (1e-5, 1e-6), "float64": (1e-9, 1e-12)}


def skip(reason):
    print(f"skipped: {reason}")
    sys.exit(SKIP)


def require_tinygrad():
    """Skips the check unless tinygrad WANTED and numpy are installed (read from their metadata: a cached
    result of TinygradSide needs nothing more)."""
    from importlib.metadata import PackageNotFoundError, version
    how = f"./scripts/test runs `python3 -m pip install tinygrad=={WANTED} numpy` when pip can reach PyPI"
    for package in ("tinygrad", "numpy"):
        try:
            version(package)
        except PackageNotFoundError:
            skip(f"{package} is not installed; {how}")
    if version("tinygrad") != WANTED:
        skip(f"tinygrad {version('tinygrad')} is installed, and this check is written against tinygrad {WANTED}")


def load_tinygrad():
    os.environ["DEV"] = "CPU"  # tinygrad's CPU device (clang); the PYTHON device is far slower
    for var in ("DEBUG", "NOOPT", "BEAM"):  # the user's tinyrepl settings are not tinygrad's business
        os.environ.pop(var, None)
    try:
        import tinygrad  # noqa: F401
        import numpy  # noqa: F401
    except Exception as e:  # noqa: BLE001 - any failure to import means the check cannot run
        skip(f"tinygrad {WANTED} or numpy cannot be imported ({type(e).__name__}: {e})")
    try:  # its CPU device compiles with clang: a machine without it cannot run tinygrad at all
        from tinygrad import Tensor
        (Tensor([1.0, 2.0]) + 1).numpy()
    except Exception as e:  # noqa: BLE001
        skip(f"tinygrad {WANTED} is installed but cannot run on its CPU device here ({type(e).__name__}: "
             f"{str(e).strip()[:200]})")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import prelude
    return prelude


# ---- tinyrepl's side ------------------------------------------------------------------------------

def tinyrepl_run(binary, path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "NOOPT", "BEAM", "DEV")}
    r = subprocess.run([binary, "run", "--json", path], capture_output=True, text=True, env=env, timeout=600)
    return r.returncode, r.stdout, r.stderr


def recorded_run(events):
    """A run that tests/example_run.cmake recorded: it exists only when the run exited 0."""
    with open(events) as f:
        return 0, f.read(), ""


def tinyrepl_prints(status, stdout, stderr):
    prints, errors = [], []
    for line in stdout.splitlines():
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            continue
        if ev.get("event") == "print":
            values = ev["values"] if "values" in ev else [{k: ev[k] for k in ("shape", "dtype", "data", "value") if k in ev}]
            values = nonfinite_read(values)
            prints.append({"line": ev.get("line"), "values": values, "text": ev.get("text", "")})
        elif ev.get("event") in ("error", "assert") and not ev.get("ok", False):
            errors.append(ev)
    return status, prints, errors, stderr


NONFINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def nonfinite_read(value):
    """--json writes nan and the infinities as the strings "NaN", "Infinity" and "-Infinity" (JSON has
    no numbers for them): read them back as floats, everywhere in a value."""
    if isinstance(value, str) and value in NONFINITE:
        return NONFINITE[value]
    if isinstance(value, list):
        return [nonfinite_read(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k in ("dtype", "shape") else nonfinite_read(v) for k, v in value.items()}
    return value


# ---- tinygrad's side ------------------------------------------------------------------------------

class Translate(ast.NodeTransformer):
    """x.numpy() -> _numpy(x): the realized tensor, as in tinyrepl (see prelude.numpy_)."""

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "numpy" and not node.args and not node.keywords:
            return ast.Call(func=ast.Name("_numpy", ast.Load()), args=[f.value], keywords=[])
        return node


def engine_count(node):
    """Why an assert on tinyrepl's own counts (kernels(), compiles()) is not evaluated; None for others."""
    names = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    if "kernels" in names:
        return "KERNELS_REASON"
    return "COMPILES_REASON" if "compiles" in names else None


def is_print(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id", None) == "print"


def call(name, *args):
    return ast.Expr(ast.Call(func=ast.Name(name, ast.Load()), args=list(args), keywords=[]))


def translate(source, notes, excluded_lines):
    """The .tg program as a Python module: meta lines out, asserts and numpy() as calls, and a
    _line(N) before each statement so that prints carry their line. A statement on a line of
    excluded_lines ({line: reason}) is replaced by a record that its print is excluded, or, when it
    prints nothing, by a note that it was not run and why."""
    lines = source.split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(":"):
            command = stripped.split()[0]
            if command == ":reset":
                lines[i] = "_reset()"
            elif command == ":run":
                raise ValueError(f"line {i + 1}: {stripped}: running another script is not translated")
            else:
                lines[i] = "pass"
                notes.append(f"line {i + 1}: `{stripped}` not run (a meta command shows the engine's views "
                             "or sets how kernels are built; it computes no value)")
    tree = ast.parse("\n".join(lines))
    body = []
    for stmt in tree.body:
        line = ast.Constant(stmt.lineno)
        body.append(call("_line", line))
        if stmt.lineno in excluded_lines and is_print(stmt):
            body.append(call("_excluded", line, ast.Constant(excluded_lines[stmt.lineno])))
        elif stmt.lineno in excluded_lines:
            body.append(call("_not_run", line, ast.Constant(ast.get_source_segment(source, stmt) or ""),
                             ast.Constant(excluded_lines[stmt.lineno])))
        elif isinstance(stmt, ast.Assert):
            if reason := engine_count(stmt.test):
                body.append(call("_skip_assert", line, ast.Constant(ast.get_source_segment(source, stmt) or ""),
                                 ast.Constant(reason)))
            else:
                body.append(call("_assert", line, Translate().visit(stmt.test), stmt.msg or ast.Constant(None)))
        else:
            body.append(Translate().visit(stmt))
    tree.body = body
    ast.fix_missing_locations(tree)
    return compile(tree, "<tg>", "exec")


def exclusions_for(path, source, problems):
    """This file's entries of EXCLUSIONS: {line: reason} for whole statements, {(line, k): reason} for values."""
    lines, values = {}, {}
    text = source.split("\n")
    for (name, line, k), (must_contain, reason) in EXCLUSIONS.items():
        if name != os.path.basename(path):
            continue
        if line > len(text) or must_contain not in text[line - 1]:
            problems.append(f"stale exclusion: line {line} no longer contains `{must_contain}`")
            continue
        if k is None:
            lines[line] = reason
        else:
            values[(line, k)] = reason
    return lines, values


def tinygrad_prints(prelude, source, notes, excluded_lines):
    code = translate(source, notes, excluded_lines)
    prelude.PRINTS.clear()
    prelude.FAILED_ASSERTS.clear()
    prelude.SKIPPED_ASSERTS.clear()
    prelude.EVALUATED_ASSERTS[0] = 0
    prelude.manual_seed(0)  # each program starts its generator afresh, as each tinyrepl run does
    names = {}

    def reset():
        names.clear()
        names.update(base)

    def line(n):
        prelude.current_line[0] = n

    base = dict(prelude.NAMES)
    base.update({"_line": line, "_assert": prelude.assert_, "_skip_assert": lambda n, text, reason: prelude.skip_assert(n, text, getattr(prelude, reason)),
                 "_not_run": prelude.skip_assert,
                 "_numpy": prelude.numpy_, "_reset": reset,
                 "_excluded": lambda n, why: prelude.PRINTS.append({"line": n, "excluded": why})})
    reset()
    shown = io.StringIO()
    stdout = sys.stdout
    sys.stdout = shown
    try:
        exec(code, names)  # noqa: S102 - running the translated program is the point
    finally:
        sys.stdout = stdout
    prints = [{**p, "values": [{"excluded": v.reason} if isinstance(v, prelude.Excluded) else v for v in p["values"]]}
              if "values" in p else p for p in prelude.PRINTS]
    skipped = list(prelude.SKIPPED_ASSERTS)
    return {"prints": prints, "failed": list(prelude.FAILED_ASSERTS), "skipped": skipped,
            "asserts": prelude.EVALUATED_ASSERTS[0], "shown": shown.getvalue(), "notes": notes}


class TinygradSide:
    """What tinygrad printed for a program, computed once per program text.

    ./scripts/test runs the suite twice (plain, then under sanitizers) and only tinyrepl changes between
    the two; tinygrad's side is most of a peer test's time. With a cache directory, a result is kept under
    a hash of everything it depends on (the program, this script, the prelude, tinygrad's and numpy's
    versions), so the second run checks the sanitized tinyrepl against the values the first run computed.
    A run that failed under tinygrad is never kept."""

    def __init__(self, cache):
        self.cache = cache
        self.prelude = None

    def key(self, source):
        from importlib.metadata import version
        h = hashlib.sha256()
        here = os.path.dirname(os.path.abspath(__file__))
        for name in ("run_peer.py", "prelude.py"):
            with open(os.path.join(here, name), "rb") as f:
                h.update(f.read())
        for part in (source, version("tinygrad"), version("numpy")):
            h.update(b"\0" + part.encode())
        return h.hexdigest()

    def prints(self, source, excluded_lines):
        path = os.path.join(self.cache, self.key(source) + ".json") if self.cache else None
        if path and os.path.exists(path):
            with open(path) as f:
                return json.load(f)
        if self.prelude is None:
            self.prelude = load_tinygrad()
        # tinygrad's opts change how its kernels loop, not what they compute; without them clang compiles
        # its kernels in less than half the time (61_cnn_backward: 23 s -> 10.5 s on the loaded 2-core VM).
        # A program that tinygrad cannot compile so (a bfloat16 reduce of 71_bfloat16) runs with them.
        from tinygrad.helpers import Context
        try:
            with Context(NOOPT=1):
                result = tinygrad_prints(self.prelude, source, [], excluded_lines)
        except Exception:  # noqa: BLE001 - whatever failed, the run with tinygrad's opts decides
            result = tinygrad_prints(self.prelude, source, [], excluded_lines)
        if path:
            os.makedirs(self.cache, exist_ok=True)
            with open(path + ".tmp", "w") as f:
                json.dump(result, f)
            os.replace(path + ".tmp", path)
        return result


# ---- comparing ------------------------------------------------------------------------------------

def close(a, b, rtol, atol):
    if a is None or b is None:
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= atol + rtol * abs(b)
    return a == b


def compare_plain(ours, theirs):
    """Python values: ints, bools and strings exactly, floats to 1e-9, sequences item by item."""
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(compare_plain(a, b) for a, b in zip(ours, theirs))
    if isinstance(ours, dict) or isinstance(theirs, dict):
        return False
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        if isinstance(ours, bool) != isinstance(theirs, bool):
            return False
        if isinstance(ours, float) != isinstance(theirs, float):
            return False
        return close(ours, theirs, 1e-9, 0.0)
    return ours == theirs


def compare_value(ours, theirs, text):
    """None when they agree, else why not."""
    if ours.get("shape") is None or theirs.get("shape") is None:
        if ours.get("shape") is not None or theirs.get("shape") is not None:
            return f"tinyrepl printed {ours}, tinygrad {theirs}"
        if not compare_plain(ours["value"], theirs["value"]):
            return f"tinyrepl printed {ours['value']!r}, tinygrad {theirs['value']!r}"
        return None
    if list(ours["shape"]) != list(theirs["shape"]):
        return f"shape {tuple(ours['shape'])} in tinyrepl, {tuple(theirs['shape'])} in tinygrad"
    if ours["dtype"] != theirs["dtype"]:
        return f"dtype {ours['dtype']} in tinyrepl, {theirs['dtype']} in tinygrad"
    data = ours["data"]
    rtol, atol = TOLERANCE.get(ours["dtype"], (0.0, 0.0))
    bad = []
    for i, (a, b) in enumerate(zip(data, theirs["data"])):
        if ours["dtype"] in TOLERANCE:
            ok = close(float(a), float(b), rtol, atol)
        else:
            ok = (bool(a) == bool(b)) if ours["dtype"] == "bool" else int(a) == int(b)
        if not ok:
            bad.append(f"[{i}] tinyrepl {a} tinygrad {b}")
    if len(data) != len(theirs["data"]):
        return f"{len(data)} values in tinyrepl, {len(theirs['data'])} in tinygrad"
    if bad:
        tol = f" (rtol {rtol}, atol {atol})" if ours["dtype"] in TOLERANCE else ""
        return f"{len(bad)} of {len(data)} {ours['dtype']} values differ{tol}: " + "; ".join(bad[:6])
    return None


def check_file(run, tinygrad, path, verbose):
    name = os.path.relpath(path)
    notes, problems = [], []
    with open(path) as f:
        source = f.read()
    excluded_lines, excluded_values = exclusions_for(path, source, problems)
    status, ours, errors, stderr = tinyrepl_prints(*run)
    if status != 0:
        problems.append(f"tinyrepl exited {status}: {stderr.strip() or errors}")
    ran = True
    try:
        side = tinygrad.prints(source, excluded_lines)
    except Exception:  # noqa: BLE001 - a translation or tinygrad failure is a finding to report
        problems.append("under tinygrad the program failed:\n" + traceback.format_exc(limit=4))
        side, ran = {"prints": [], "failed": [], "skipped": [], "asserts": 0, "shown": "", "notes": []}, False
    theirs, failed, skipped, asserts, shown = (side[k] for k in ("prints", "failed", "skipped", "asserts", "shown"))
    notes += side["notes"]
    for line, text, reason in skipped:
        notes.append(f"line {line}: `{text}` not evaluated: {reason}")
    for line, message in failed:
        problems.append(f"line {line}: an assert that holds in tinyrepl fails under tinygrad ({message})")
    compared = excluded = 0
    if ran:
        if len(ours) != len(theirs):
            problems.append(f"tinyrepl printed {len(ours)} times, tinygrad {len(theirs)} times "
                            f"(lines {[p['line'] for p in ours]} vs {[p['line'] for p in theirs]})")
        for a, b in zip(ours, theirs):
            if "excluded" in b and a["line"] == b["line"]:
                excluded += len(a["values"])
                notes.append(f"line {a['line']}: not run under tinygrad, its print not compared: {b['excluded']}")
                continue
            if a["line"] != b["line"] or len(a["values"]) != len(b["values"]):
                problems.append(f"line {a['line']}: {len(a['values'])} values in tinyrepl, line {b['line']}: "
                                f"{len(b.get('values', []))} in tinygrad")
                continue
            for k, (va, vb) in enumerate(zip(a["values"], b["values"])):
                reason = vb.get("excluded") or excluded_values.get((a["line"], k + 1))
                if reason:
                    excluded += 1
                    notes.append(f"line {a['line']}: value {k + 1} not compared: {reason}")
                    continue
                compared += 1
                why = compare_value(va, vb, a["text"] if len(a["values"]) == 1 else "")
                if why:
                    problems.append(f"line {a['line']}: value {k + 1} of print: {why}")
    if ran and compared + asserts == 0:
        problems.append("no printed value was compared and no assert evaluated: this check would prove nothing")
    print(f"{'DIFFERS' if problems else 'agrees '} {name}: {compared} printed values compared, {excluded} excluded; "
          f"{asserts} asserts hold under tinygrad too, {len(skipped)} asserts on tinyrepl's own counts not evaluated")
    for n in notes:
        print(f"  note: {n}")
    for p in problems:
        print(f"  DIFFERENCE: {p}")
    if verbose:
        print("  tinygrad printed:\n    " + shown.replace("\n", "\n    "))
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tinyrepl", help="the tinyrepl binary")
    ap.add_argument("--verbose", action="store_true", help="also show what tinygrad printed")
    ap.add_argument("--cache", help="a directory that keeps tinygrad's side of each program (see TinygradSide)")
    ap.add_argument("--events", help="tinyrepl's side of the one FILE.tg, recorded by tests/example_run.cmake, "
                                     "instead of running --tinyrepl")
    ap.add_argument("files", nargs="+", help="FILE.tg, or a folder: its *.tg files in order")
    args = ap.parse_args()
    args.files = [path for f in args.files for path in
                  ([os.path.join(f, n) for n in sorted(os.listdir(f)) if n.endswith(".tg")] if os.path.isdir(f) else [f])]
    if not args.tinyrepl and not args.events:
        ap.error("--tinyrepl or --events is required")
    if args.events and len(args.files) != 1:
        ap.error("--events holds the run of one FILE.tg")
    require_tinygrad()
    tinygrad = TinygradSide(args.cache)
    ok = True
    for f in args.files:
        run = recorded_run(args.events) if args.events else tinyrepl_run(args.tinyrepl, f)
        ok = check_file(run, tinygrad, f, args.verbose) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
