"""Random .tg sessions: statements built from every kind of tensor operation, with arguments that are
often out of range, of the wrong kind or of odd shapes (0-dim, empty, negative sizes), mixed with meta
commands, settings and moves between devices. The same seed gives the same session. The last line
prints 6."""
import random

UNARY = ("neg exp exp2 log log2 sqrt rsqrt sin cos tan relu sigmoid tanh gelu silu abs sign reciprocal square "
         "floor ceil trunc round logical_not float half double int long bool contiguous realize numpy item tolist "
         "numel").split()
BINARY = "add sub mul div pow maximum minimum eq ne lt le gt ge dot matmul cat".split()
REDUCE = "sum max min mean prod var std argmax argmin softmax log_softmax logsumexp".split()
MOVE = "reshape view permute expand pad shrink flip transpose flatten unsqueeze squeeze repeat".split()
DTYPES = "int8 uint8 int32 int64 float16 float32 float64 bool".split()
NAMES = ["a", "b", "c", "d", "e"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "@", "<", "==", ">=", "and", "or"]
INDICES = ["0", "-1", "1:", "::2", "::-1", "None", "...", "0, 1", ":, None", "5", "1:0", "::0", "-7"]
META = [":kernels", ":ast", ":uops", ":uops 0 all", ":src", ":time", ":explain a", ":opts", ":vars",
        ":opt 0 UPCAST 0 2", ":opt 0 LOCAL 0 2", ":opt 0 UNROLL 0 4", ":opt 0 none", ":graph a", ":step a", ":noopt on", ":noopt off",
        ":debug 2", ":debug 6", ":debug 0", ":beam 2", ":beam 0", ":device OPENCL", ":device LLVM", ":device METALSHIM",
        ":device CUDA", ":device CPU"]
START = ["a = tensor([1.0, 2.0, 3.0, 4.0])", "b = arange(12).reshape(3, 4)", "c = rand(2, 3, 4)",
         "d = tensor([[1, 2], [3, 4]])", "e = tensor(3)"]


class Session:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def number(self):
        return self.r.choice(["0", "1", "-1", "2", "3", "-2", "0.5", "1e30", "-1e30", "100000", "99999999999", "4",
                              "-4", "True", "None", "1.5"])

    def sizes(self, count=None):
        count = self.r.randint(0, 4) if count is None else count
        return ", ".join(self.r.choice(["1", "2", "3", "4", "-1", "0", "6", "12", "-3"]) for _ in range(count))

    def creation(self):
        r = self.r
        return r.choice([
            "tensor([%s])" % ", ".join(self.number() for _ in range(r.randint(0, 5))),
            "tensor([[1,2],[3,4]])",
            "arange(%s)" % self.sizes(r.randint(1, 3)),
            "zeros(%s)" % self.sizes(),
            "ones(%s, dtype=dtypes.%s)" % (self.sizes(), r.choice(DTYPES)),
            "rand(%s)" % self.sizes(),
            "eye(%s)" % self.sizes(r.randint(1, 2)),
            "linspace(%s)" % self.sizes(3),
            "full((%s), %s)" % (self.sizes(), self.number()),
        ])

    def atom(self, depth):
        x = self.r.random()
        if x < 0.3:
            return self.r.choice(NAMES)
        if x < 0.4:
            return self.number()
        if x < 0.55:
            return self.creation()
        return self.expr(depth + 1)

    def movement(self, x):
        r = self.r
        op = r.choice(MOVE)
        if op == "pad":
            arg = r.choice(["((1,1),)", "((0,2),(1,0))", "((-1,1),)", "((1,1),(1,1),(1,1))", "None"])
        elif op == "shrink":
            arg = r.choice(["((0,1),)", "((1,0),)", "(None,(0,1))", "((0,5),)"])
        else:
            arg = self.sizes()
        return "%s.%s(%s)" % (x, op, arg)

    def expr(self, depth=0):
        r = self.r
        if depth > 4:
            return r.choice(NAMES)
        x, kind = self.atom(depth), r.random()
        if kind < 0.22:
            return "%s.%s()" % (x, r.choice(UNARY))
        if kind < 0.25:
            return '%s.to("%s")' % (x, r.choice(["CPU", "LLVM", "OPENCL", "METALSHIM", "CUDA", "TPU"]))
        if kind < 0.45:
            return "%s.%s(%s)" % (x, r.choice(BINARY), self.atom(depth))
        if kind < 0.6:
            axis = r.choice(["", "0", "1", "-1", "axis=2", "keepdim=True", "(0, 1)", "5", "-3"])
            return "%s.%s(%s)" % (x, r.choice(REDUCE), axis)
        if kind < 0.75:
            return self.movement(x)
        if kind < 0.85:
            return "(%s %s %s)" % (x, r.choice(OPERATORS), self.atom(depth))
        if kind < 0.95:
            return "%s[%s]" % (x, r.choice(INDICES))
        return "where(%s, %s, %s)" % (self.atom(depth), self.atom(depth), self.atom(depth))

    def statement(self):
        kind = self.r.random()
        if kind < 0.5:
            return "%s = %s" % (self.r.choice(NAMES), self.expr())
        if kind < 0.9:
            return "print(%s)" % self.expr()
        return self.r.choice(META)


def session(seed, statements):
    s = Session(seed)
    return "\n".join(START + [s.statement() for _ in range(statements)] + ["print(tensor([6]).sum())"]) + "\n"
