"""A thin prelude that runs .tg programs under tinygrad 0.14.0.

The .tg language is Python-flavoured and names its functions after tinygrad's Tensor API, so a .tg
program runs as Python once these names exist: tensor(...) is Tensor(...), zeros/ones/arange/... are
Tensor.zeros/..., the dtype names (float32, half, bool, ...) are tinygrad's dtypes, and print(...)
records each printed value so that run_peer.py can compare it with tinyrepl's --json print events.

Where tinyrepl and tinygrad differ on purpose, the prelude says so instead of hiding it:
  - rand/randn: tinyrepl documents its own counter-based generator (core/tensor/random.h); the prelude
    computes the same numbers on the host (numpy, in float64, rounded once to the dtype) and hands
    them to tinygrad as data, so everything computed from them is still computed by tinygrad.
  - kernels(x): the count is tinyrepl's own fusion decision; tinygrad's scheduler is another one.
    kernels() returns a KernelCount placeholder; asserts that use it are not evaluated and a print
    of it is not compared (run_peer.py lists each such line as excluded, with this reason).
  - compiles(): the count of programs tinyrepl's process built; tinygrad keeps no such count. It is a
    KernelCount placeholder too, and asserts that use it are not evaluated.
  - Variable(name, lo, hi) is tinygrad's own Variable, and .bind(v) its bind.
  - x.lt/le/gt/ge: SPEC section 2 has them as methods; tinygrad 0.14.0 spells them < <= > >= only, so
    the prelude adds the four methods as those operators.
"""
import builtins
import math

import numpy as np
from tinygrad import Tensor as _T
from tinygrad import TinyJit as _TinyJit
from tinygrad import Variable as _Variable
from tinygrad import dtypes
from tinygrad import nn as _nn
from tinygrad.dtype import DType

# ---- dtypes ---------------------------------------------------------------------------------------

# tinygrad's DType.name ("float", "unsigned char") -> the name tinyrepl's --json uses
_CANONICAL = {
    "bool": "bool", "signed char": "int8", "char": "int8", "unsigned char": "uint8", "short": "int16",
    "unsigned short": "uint16", "int": "int32", "unsigned int": "uint32", "long": "int64",
    "unsigned long": "uint64", "half": "float16", "__bf16": "bfloat16", "float": "float32", "double": "float64",
    # tinygrad 0.14 marks a result made only of Python constants (cond.where(1.0, -1.0)) as "weak": it is
    # stored, and reads back, as the default float or int
    "weakfloat": "float32", "weakint": "int32",
}


def dtype_name(dt):
    return _CANONICAL.get(dt.name, dt.name)


_NP = {"bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
       "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64,
       "float16": np.float16, "float32": np.float32, "float64": np.float64}

# ---- what print() records -------------------------------------------------------------------------

PRINTS = []  # one entry per print(...) / x.numpy(): {"line": N, "values": [...]}
SKIPPED_ASSERTS = []  # (line, the assert, why it is not evaluated)
FAILED_ASSERTS = []  # (line, message)
EVALUATED_ASSERTS = [0]
current_line = [0]

COMPILES_REASON = ("compile counts are tinyrepl's own (compiles(): the programs its process built); tinygrad "
                   "0.14 keeps no such count")
KERNELS_REASON = ("kernel counts are tinyrepl's own fusion decisions (kernels()); tinygrad 0.14's scheduler "
                  "makes its own, so they are not compared")


class KernelCount:
    """What kernels(x) gives under tinygrad: not a number to compare."""

    def __repr__(self):
        return "<kernels: not compared>"


class Excluded:
    """A printed value that is not compared, and why."""

    def __init__(self, reason):
        self.reason = reason


def _flat(arr):
    return [v.item() if hasattr(v, "item") else v for v in arr.reshape(-1)]


def describe(v):
    """A printed value in the shape of tinyrepl's --json: tensors with shape, dtype and flat data."""
    if isinstance(v, _T):
        arr = v.numpy()
        return {"shape": list(v.shape), "dtype": dtype_name(v.dtype), "data": _flat(arr)}
    if isinstance(v, KernelCount):
        return Excluded(KERNELS_REASON)
    if isinstance(v, DType):
        return {"shape": None, "value": dtype_name(v)}
    if isinstance(v, (tuple, list)):
        items = [describe(x) for x in v]
        for x in items:
            if isinstance(x, Excluded):
                return x
        return {"shape": None, "value": [x["value"] if x.get("shape", None) is None else x for x in items]}
    if isinstance(v, np.generic):
        v = v.item()
    return {"shape": None, "value": v}


def print_(*values):
    """The .tg print: records the values, and shows them (numpy's format) for a person reading the log."""
    PRINTS.append({"line": current_line[0], "values": [describe(v) for v in values]})
    text = [str(v.numpy()) if isinstance(v, _T) else dtype_name(v) if isinstance(v, DType) else str(v) for v in values]
    builtins.print(*text)


def numpy_(x):
    """x.numpy() is the values as a realized tensor in tinyrepl, which prints as numpy prints the array:
    the same here, so that print() of it records a tensor with its dtype."""
    return x.realize()


# ---- asserts --------------------------------------------------------------------------------------

def assert_(line, value, message=None):
    EVALUATED_ASSERTS[0] += 1
    if isinstance(value, _T):
        ok = bool(np.all(value.numpy()))
    else:
        ok = bool(value)
    if not ok:
        FAILED_ASSERTS.append((line, message or "assertion failed"))


def skip_assert(line, text, reason):
    SKIPPED_ASSERTS.append((line, text, reason))


# ---- creation -------------------------------------------------------------------------------------

def tensor(data, dtype=None, device=None):
    return _T(data, dtype=dtype)


def zeros(*shape, dtype=None, device=None):
    return _T.zeros(*shape, dtype=dtype)


def ones(*shape, dtype=None, device=None):
    return _T.ones(*shape, dtype=dtype)


def full(shape, fill_value=None, dtype=None, device=None, value=None):
    v = fill_value if fill_value is not None else value
    return _T.full(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), v, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None, device=None):
    return _T.arange(start, stop, step, dtype=dtype)


def linspace(start, stop, steps, dtype=None, device=None):
    return _T.linspace(start, stop, steps, dtype=dtype)


def eye(n, m=None, dtype=None, device=None):
    return _T.eye(n, m, dtype=dtype)


# tinyrepl's counter-based generator (core/tensor/random.h), in numpy's uint64 arithmetic (which wraps).
_M64 = (1 << 64) - 1


def _mix(z):
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(_M64)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(_M64)
    return z ^ (z >> np.uint64(31))


def _uniform(seed, counters):
    with np.errstate(over="ignore"):
        c = counters.astype(np.uint64) + np.uint64(0xD1B54A32D192ED03)
        bits = _mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + _mix(c))
    return (bits >> np.uint64(40)).astype(np.float64) / 16777216.0


def _shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


# The session's generator: seed and the count of uniforms drawn (core/tensor/random.h), for calls without seed=.
_GENERATOR = {"seed": 0, "counter": 0}


def manual_seed(seed):
    _GENERATOR.update(seed=seed, counter=0)


def _stream(n, seed, per_element):
    """The seed and the first element index of a draw of n elements (core/tensor/random.h)."""
    if seed is not None:
        return seed, 0
    first = -(-_GENERATOR["counter"] // per_element)
    _GENERATOR["counter"] = (first + n) * per_element
    return _GENERATOR["seed"], first


def rand(*shape, seed=None, dtype=None, device=None):
    shape = _shape(shape)
    n = math.prod(shape)
    s, first = _stream(n, seed, 1)
    u = _uniform(s, np.arange(first, first + n, dtype=np.uint64))
    dt = dtype or dtypes.float32
    return _T(u.astype(_NP[dtype_name(dt)]).reshape(shape), dtype=dt)


def randn(*shape, seed=None, dtype=None, device=None):
    shape = _shape(shape)
    n = math.prod(shape)
    s, first = _stream(n, seed, 2)
    i = np.arange(first, first + n, dtype=np.uint64)
    u1 = _uniform(s, 2 * i)
    u2 = _uniform(s, 2 * i + np.uint64(1))
    z = np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(2.0 * np.pi * u2)
    dt = dtype or dtypes.float32
    return _T(z.astype(_NP[dtype_name(dt)]).reshape(shape), dtype=dt)


# tinygrad's dropout and randn_like draw with rand_like (mixin/rand.py): from the same generator here, so
# that dropout under Context(TRAINING=1) keeps and scales the elements tinyrepl's does, and rand_like and
# randn_like (tinygrad's own Box-Muller over it) give tinyrepl's numbers.
def _rand_like(self, dtype=None, contiguous=True, seed=None, **kwargs):
    return rand(*self.shape, seed=seed, dtype=dtype or (self.dtype if dtypes.is_float(self.dtype) else dtypes.float32))


_T.rand_like = _rand_like
# tinygrad's multinomial draws with Tensor.rand: the same stream, so that its samples are tinyrepl's.
_T.rand = classmethod(lambda cls, *shape, dtype=None, **kwargs: rand(*shape, dtype=dtype))


# tinygrad's initialisers are rand/randn scaled (mixin/rand.py): the same arithmetic on the streams above.
def uniform(*shape, low=0.0, high=1.0, seed=0, dtype=None, device=None):
    return ((high - low) * rand(*shape, seed=seed)).cast(dtype or dtypes.float32) + low


def normal(*shape, mean=0.0, std=1.0, seed=0, dtype=None, device=None):
    return std * randn(*shape, seed=seed, dtype=dtype) + mean


def randint(*shape, low=0, high=10, seed=0, dtype=None, device=None):
    return uniform(*shape, low=low, high=high, seed=seed, dtype=dtype or dtypes.int32)


def glorot_uniform(*shape, seed=0, dtype=None, device=None):
    shape = _shape(shape)
    bound = (6 / (shape[0] + math.prod(shape[1:]))) ** 0.5
    return uniform(*shape, low=-bound, high=bound, seed=seed, dtype=dtype)


def kaiming_uniform(*shape, a=0.01, seed=0, dtype=None, device=None):
    shape = _shape(shape)
    bound = (6 / (1 + a ** 2) / math.prod(shape[1:])) ** 0.5
    return uniform(*shape, low=-bound, high=bound, seed=seed, dtype=dtype)


def kaiming_normal(*shape, a=0.01, seed=None, dtype=None, device=None):
    shape = _shape(shape)
    std = (2 / (1 + a ** 2) / math.prod(shape[1:])) ** 0.5
    return normal(*shape, mean=0.0, std=std, seed=seed, dtype=dtype)


def scaled_uniform(*shape, seed=None, dtype=None, device=None):
    shape = _shape(shape)
    return uniform(*shape, low=-1.0, high=1.0, seed=seed, dtype=dtype).mul(math.prod(shape) ** -0.5)


def randperm(n, dtype=None, seed=None, device=None):
    return rand(n, seed=seed).argsort().cast(dtype or dtypes.int32)


# empty's values are unspecified in both: programs print its shape and dtype only.
def empty(*shape, dtype=None, device=None):
    return _T.empty(*shape, dtype=dtype or dtypes.float32)


def zeros_like(x, dtype=None):
    return x.full_like(0, dtype=dtype)


def ones_like(x, dtype=None):
    return x.full_like(1, dtype=dtype)


def full_like(x, fill_value=None, dtype=None, value=None):
    return x.full_like(fill_value if fill_value is not None else value, dtype=dtype)


# ---- functions ------------------------------------------------------------------------------------

def where(condition, x, y):
    return condition.where(x, y)


def _pair(x, y, name):
    if isinstance(x, _T):
        return getattr(x, name)(y)
    if isinstance(y, _T):
        return getattr(y, name)(x)
    return _T(x).__getattribute__(name)(y)


def maximum(x, y):
    return _pair(x, y, "maximum")


def minimum(x, y):
    return _pair(x, y, "minimum")


def allclose(a, b, rtol=1e-5, atol=1e-8):
    an = a.numpy() if isinstance(a, _T) else np.asarray(a)
    bn = b.numpy() if isinstance(b, _T) else np.asarray(b)
    return bool(np.allclose(an.astype(np.float64), bn.astype(np.float64), rtol=rtol, atol=atol))


def kernels(*xs):
    return KernelCount()


def compiles():
    return KernelCount()


def realize(*xs):
    """Returns its tensors, as tinyrepl's realize does: one, or a tuple of several."""
    xs[0].realize(*xs[1:])
    return xs[0] if len(xs) == 1 else xs


# ---- @jit ----------------------------------------------------------------------------------------
# .tg spells tinygrad's TinyJit decorator @jit. tinygrad's replay hands back the same output tensors
# each call (tinyrepl's are new each call), so a program that compares them prints each result right
# after its call.
jit = _TinyJit


# ---- functions of several tensors: tinygrad spells them Tensor.stack(...), Tensor.einsum(...), x.meshgrid(...)

def _tensors(xs):
    return list(xs[0]) if len(xs) == 1 and isinstance(xs[0], (list, tuple)) else list(xs)


def stack(*xs, dim=0):
    ts = _tensors(xs)
    return ts[0].stack(*ts[1:], dim=dim)


def einsum(formula, *operands):
    return _T.einsum(formula, *_tensors(operands))


def meshgrid(*xs, indexing="ij"):
    ts = _tensors(xs)
    return ts[0].meshgrid(*ts[1:], indexing=indexing)


# ---- comparison methods ---------------------------------------------------------------------------
# SPEC section 2 lists eq ne lt le gt ge as methods; tinygrad 0.14.0 has eq and ne only. The other four
# are its operators under a method's name.
for _name, _op in (("lt", "__lt__"), ("le", "__le__"), ("gt", "__gt__"), ("ge", "__ge__")):
    if not hasattr(_T, _name):
        setattr(_T, _name, getattr(_T, _op))

# ---- training: tinygrad's own nn and TRAINING context ----------------------------------------------
# Context(TRAINING=1) is tinygrad's own, so a training program's optimizer runs as tinygrad runs it.
from tinygrad.helpers import Context as _Context  # noqa: E402

# ---- the names a .tg program sees ---------------------------------------------------------------

NAMES = {
    "print": print_, "tensor": tensor, "Tensor": tensor, "zeros": zeros, "ones": ones, "full": full,
    "arange": arange, "linspace": linspace, "eye": eye, "rand": rand, "randn": randn, "manual_seed": manual_seed,
    "zeros_like": zeros_like, "ones_like": ones_like, "full_like": full_like, "where": where,
    "maximum": maximum, "minimum": minimum, "allclose": allclose, "kernels": kernels, "compiles": compiles, "realize": realize,
    "dtypes": dtypes, "nn": _nn, "jit": jit, "TinyJit": jit, "Context": _Context, "Variable": _Variable,
    "uniform": uniform, "normal": normal, "randint": randint, "glorot_uniform": glorot_uniform,
    "kaiming_uniform": kaiming_uniform, "kaiming_normal": kaiming_normal, "scaled_uniform": scaled_uniform,
    "empty": empty, "randperm": randperm,
    "stack": stack, "einsum": einsum, "meshgrid": meshgrid,
    # the dtype names shadow Python's bool, int and float, as they do in the language
    "bool": dtypes.bool, "int8": dtypes.int8, "uint8": dtypes.uint8, "int16": dtypes.int16,
    "uint16": dtypes.uint16, "int32": dtypes.int32, "int": dtypes.int32, "uint32": dtypes.uint32,
    "int64": dtypes.int64, "long": dtypes.int64, "uint64": dtypes.uint64, "float16": dtypes.float16,
    "half": dtypes.float16, "float32": dtypes.float32, "float": dtypes.float32, "float64": dtypes.float64,
    "double": dtypes.float64, "bfloat16": dtypes.bfloat16,
}
