# SPDX-License-Identifier: MIT
"""constexpr_diff.py - differential tester of ttc's compile-time evaluator against CPython.

ttc evaluates constant expressions (literals, constexprs, module-level host code,
@triton.constexpr_function helpers) at compile time and claims Python's semantics: exact
64-bit ints (overflow is a located error), IEEE doubles with Python's repr, floor division,
exact int/float comparisons, round/min/max/abs/int/float/bool, math.*, f-strings and
format specs, tuples, strings. This script generates random constant expressions from a
grammar, evaluates each with CPython (eval) and with ttc, and classifies every case:

  match       ttc's value equals CPython's (repr and ==), or both raise
  mismatch    ttc compiled and its value differs (a silently wrong value)
  accepted    ttc gave a value where CPython raises
  crash       ttc died on a signal, timed out or printed "internal error"
  ttc-error   ttc reported an error where CPython gives a value that fits 64 bits
  overflow    CPython's value (or an intermediate) needs more than 64 bits and ttc
              reports a located overflow error: expected, not a finding
  big-other   as overflow, but ttc's error does not name the overflow

Each case becomes two lines of one kernel, with E written in the kernel, as a module
constant `C_N = E`, or returned by a @triton.constexpr_function `f_N()` (rotating per batch):
    tl.static_assert(repr(E) == '<CPython repr>', "@N r")
    tl.static_assert((E) == <exact literal>, "@N v")
Both are silent when they hold, so many cases share one compile; ttc reports errors at
file:line:col and goes on (up to 100 diagnostics; the cases after the last one reported
are compiled again). Failed cases are compiled again with tl.static_print(repr(E)) for
ttc's value; a batch that crashes is split into single cases. Reproducers of every
non-match go to --out.

  python3 test/fuzz/constexpr_diff.py [--ttc PATH] [-n N] [--seed S] [--jobs J] [--out DIR]
Exit status 1 when there is a mismatch, an accepted case or a crash.
"""
import argparse
import ast
import concurrent.futures as cf
import math
import os
import random
import re
import signal
import subprocess
import sys
import warnings

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
HEADER = "import triton\nimport triton.language as tl\nimport math\n"
DIAG = re.compile(r"^(?:[^:\n]*?):(\d+):(\d+): (error|remark|warning|note): (.*)$")
MODES = ["kernel", "module", "cfunc"]
CLASSES = ["match", "mismatch", "accepted", "crash", "ttc-error", "overflow", "big-other"]

# ---- the grammar --------------------------------------------------------------------
INTS = [0, 1, 2, 3, 5, 7, 10, 16, 100, 255, 256, 1000, 12345, 2**31 - 1, 2**31, 2**32, 2**32 + 1,
        2**53, 2**53 + 1, 2**53 - 1, 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64, 3**39, 10**18]
FLOATS = ["0.0", "0.1", "0.5", "1.0", "1.5", "2.5", "3.5", "0.125", "2.675", "123.456", "1e300",
          "1e-300", "5e-324", "1.7976931348623157e308", "9007199254740992.0", "9007199254740993.0",
          "9.223372036854776e18", "1e16", "1e22", "0.3", "1e-7", "1.", ".5", "1E5", "2.5e-3", "1e400",
          "1_0.5", "4503599627370496.5", "2.2250738585072014e-308", "0.1e1"]
SPECIAL_F = ["float('inf')", "float('-inf')", "float('nan')", "math.inf", "math.nan", "math.pi",
             "math.e", "float('1e5')", "float(' -2.5 ')", "float('-0')", "float('infinity')"]
STRS = ["ab", "", "x y", "Hello", "3", "-12", "1.5", " 7 ", "0x10", "nan", "1e3", "aBc"]
MATH1 = ["floor", "ceil", "trunc", "sqrt", "isqrt", "log", "log2", "log10", "log1p", "exp", "exp2",
         "fabs", "sin", "cos", "tanh", "erf", "isinf", "isnan", "isfinite", "factorial"]
MATH2 = ["pow", "gcd", "lcm", "copysign", "comb", "log"]
PREC = {"or": 2, "and": 3, "not": 4, "cmp": 5, "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "+": 10,
        "-": 10, "*": 11, "/": 11, "//": 11, "%": 11, "u": 12, "**": 13}


class G:
    """A random expression writer; each method returns (source text, precedence)."""

    def __init__(self, rng):
        self.r = rng

    def par(self, e, need, force=False):
        t, p = e
        return f"({t})" if p < need or force or self.r.random() < 0.15 else t

    def int_lit(self, small=False):
        r = self.r
        v = r.choice([0, 1, 2, 3, -1, -2, 4, 7, 8, 31, 32, 33, 63, 64, -64]) if small else (
            r.choice(INTS) if r.random() < 0.6 else r.randint(-300, 300) if r.random() < .6
            else r.getrandbits(r.randint(1, 64)))
        if not small and r.random() < 0.25:
            v = -v
        a = abs(v)
        k = r.random()
        t = (hex(a) if k < .08 else oct(a) if k < .12 else bin(a) if k < .15 else
             f"{a:_}" if k < .2 else str(a))
        if v == I64_MIN and r.random() < 0.7:
            return "(-9223372036854775807 - 1)", 14
        return (f"-{t}", 12) if v < 0 else (t, 14)

    def float_lit(self, fq=False):
        r = self.r
        k = r.random()
        if k < .15:
            t = r.choice(SPECIAL_F)
            return (t.replace("'", '"') if fq else t), 14
        if k < .55:
            t = r.choice(FLOATS)
        elif k < .8:
            t = repr(r.uniform(0, 10) * 10.0 ** r.randint(-20, 20))
        else:
            x = float.fromhex("0x1.%013xp%d" % (r.getrandbits(52), r.randint(-1074, 1023)))
            t = repr(x)
        return (f"-{t}", 12) if r.random() < 0.3 else (t, 14)

    def str_lit(self, fq):
        s = self.r.choice(STRS + ([] if fq else ["a'b", 'q"r']))
        return (f'"{s}"' if fq or "'" in s else f"'{s}'"), 14

    def leaf(self, ty, fq):
        r = self.r
        ty = r.choice(["int", "int", "float", "float", "bool", "none", "str", "tuple"]) if ty == "any" else (
            r.choice(["int", "int", "float", "float", "bool"]) if ty == "num" else ty)
        if ty in ("int", "float", "str"):
            return self.int_lit() if ty == "int" else self.float_lit(fq) if ty == "float" else self.str_lit(fq)
        if ty in ("bool", "none"):
            return r.choice(["True", "False"] if ty == "bool" else ["None"]), 14
        items = [self.leaf(r.choice(["int", "float", "bool"]), fq)[0] for _ in range(r.randint(0, 3))]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")", 14

    def gen(self, d, ty="num", fq=False):
        """An expression of (mostly) type ty; fq: inside an f-string field."""
        r = self.r
        if d <= 0 or r.random() < 0.2:
            return self.leaf(ty if r.random() < 0.95 else "any", fq)
        if ty in ("str", "tuple"):
            return self.gen_str(d, fq) if ty == "str" else self.gen_tuple(d, fq)
        k = r.random()
        sub = lambda t="num": self.gen(d - 1, t if r.random() < 0.93 else "any", fq)
        if k < 0.35:
            op = r.choice(["+", "-", "*", "/", "//", "%", "+", "-", "*", "//", "%", "/"])
            p = PREC[op]
            return f"{self.par(sub(), p)} {op} {self.par(sub(), p + 1)}", p
        if k < 0.42:
            base = self.par(sub(), 14)
            ex = self.par(self.gen(1, "int", fq) if r.random() < .3 else self.int_lit(small=True), 12)
            if r.random() < 0.3:
                ex = self.par(self.float_lit(fq), 12)
            return f"{base} ** {ex}", 13
        if k < 0.52:
            op = r.choice(["&", "|", "^", "<<", ">>"])
            p = PREC[op]
            rhs = self.int_lit(small=True) if op in ("<<", ">>") and r.random() < .8 else sub("int")
            if op == "<<" and not re.fullmatch(r"-?\d+", rhs[0].replace("_", "")):
                rhs = self.int_lit(small=True)
            return f"{self.par(sub('int'), p)} {op} {self.par(rhs, p + 1)}", p
        if k < 0.58:
            op = r.choice(["-", "+", "~", "not ", "-"])
            if op == "not ":
                return f"not {self.par(sub(), 4)}", 4
            return f"{op}{self.par(sub('int' if op == '~' else 'num'), 12)}", 12
        if k < 0.66:
            n = r.choice([2, 2, 2, 3])
            ops = [r.choice(["<", "<=", ">", ">=", "==", "!="]) for _ in range(n - 1)]
            if r.random() < 0.1:
                ops[0] = r.choice(["is", "is not"])
                parts = [self.par(sub("any"), 6), "None"]
                return f"{parts[0]} {ops[0]} None", 5
            parts = [self.par(sub(r.choice(["num", "num", "str", "tuple"])), 6) for _ in range(n)]
            return " ".join(x for pair in zip(parts, ops + [""]) for x in pair).strip(), 5
        if k < 0.70:
            op = r.choice(["and", "or"])
            return f"{self.par(sub(), PREC[op])} {op} {self.par(sub(), PREC[op] + 1)}", PREC[op]
        if k < 0.74:
            return f"{self.par(sub(), 2)} if {self.par(sub('any'), 2)} else {self.par(sub(), 1)}", 1
        if k < 0.90:
            return self.call(d, fq, sub)
        if k < 0.95:
            t = self.gen_tuple(d - 1, fq)
            return f"{self.par(t, 14, True)}[{self.int_lit(small=True)[0]}]", 14
        return self.gen_str(d - 1, fq) if r.random() < .5 else self.gen_tuple(d - 1, fq)

    def call(self, d, fq, sub):
        r, k = self.r, self.r.randint(0, 14)
        small = lambda: self.int_lit(small=True)[0]
        if k == 0:
            return f"{r.choice(['min', 'max'])}({', '.join(sub()[0] for _ in range(r.choice([2, 2, 3])))})", 14
        if k == 1:
            return f"abs({sub()[0]})", 14
        if k == 2 and r.random() < 0.05:
            return f"int({self.str_lit(fq)[0]}, {r.choice([0, 2, 8, 16, 36])})", 14
        if k == 2:
            return f"{r.choice(['int', 'float', 'bool', 'int', 'float'])}({sub('str' if r.random() < .2 else 'num')[0]})", 14
        if k in (3, 4):
            n = small() if r.random() < .7 else sub("int")[0]
            return (f"round({sub()[0]}, {n})" if k == 4 and r.random() < 0.9 else
                    f"round({sub()[0]}{', None' if r.random() < .1 else ''})"), 14
        if k == 5:
            return f"divmod({sub()[0]}, {sub()[0]})", 14
        if k in (6, 7, 8):
            f = r.choice(MATH1)  # factorial's argument stays small: CPython would take ages
            return f"math.{f}({small() if f == 'factorial' else sub()[0]})", 14
        if k == 9:
            f = r.choice(MATH2)
            a, b = (small(), small()) if f == "comb" else (sub()[0], small() if f == "pow" else sub()[0])
            return f"math.{f}({a}, {b})", 14
        if k == 10:
            return f"{r.choice(['len', 'min', 'max', 'sum', 'any', 'all'])}({self.gen_tuple(d - 1, fq)[0]})", 14
        if k == 11:
            return f"len({self.gen_str(d - 1, fq)[0]})", 14
        if k == 12:
            return f"tl.constexpr({sub()[0]}).value", 14
        if k == 13:
            return f"pow({sub()[0]}, {small()}{', ' + r.choice(['1', '2', '7', '-5', '0']) if r.random() < .3 else ''})", 14
        return f"{r.choice(['min', 'max'])}({sub()[0]}, {sub()[0]})", 14

    def spec(self, kind):
        """[[fill]align][sign][z][#][0][width][grouping][.precision][type], often invalid."""
        r = self.r
        parts = [((r.choice("*_0x ") if r.random() < .4 else "") + r.choice("<>^="), .3),
                 (r.choice("+- "), .3), ("z", .08), ("#", .15), ("0", .2), (str(r.randint(0, 25)), .5),
                 (r.choice(",_"), .2), ("." + str(r.randint(0, 20)), .5),
                 (r.choice({"int": "dbxXoeEfFgG%n", "float": "eEfFgG%n", "str": "s"}.get(kind, "dfegs")
                           + "dfeg" * (kind != "str")), .8)]
        return "".join(t for t, p in parts if r.random() < p)

    def gen_str(self, d, fq):
        r = self.r
        k = r.randint(0, 9)
        if d <= 0 or k == 0:
            return self.str_lit(fq)
        kind = r.choice(["int", "float", "str", "any"])
        x = self.gen(d - 1, kind if kind != "any" else "num", True)[0]
        sp = self.spec(kind)
        if k in (1, 2, 3) and not fq:
            conv = r.choice(["", "", "", "!r", "!s"])
            pre = r.choice(["", "v=", "<", "a b "])
            return f"f'{pre}{{({x}){conv}{':' + sp if sp else ''}}}|'", 14
        if k == 5 and r.random() < .3:
            q = '"' if fq else "'"
            t = r.choice("dsrfexgi")
            return f"{q}%{sp.lstrip('<>^=*_x')[:4].rstrip('.')}{t}{q} % {self.par(self.gen(d - 1, kind, fq), 12)}", 11
        if k in (4, 5):
            q = '"' if fq else r.choice("'\"")
            return f"{q}{{:{sp}}}{q}.format({x})" if sp else f"{q}{{}}-{{}}{q}.format({x}, {x})", 14
        if k in (6, 7):
            return f"{r.choice(['str', 'repr'])}({self.gen(d - 1, 'any', fq)[0]})", 14
        if k == 8:
            s = self.gen_str(d - 1, fq)
            return (f"{self.par(s, 11)} * {r.randint(-1, 3)}" if r.random() < .3 else
                    f"{self.par(s, 10)} + {self.par(self.gen_str(d - 1, fq), 11)}"), 10
        s = self.par(self.gen_str(d - 1, fq), 14, True)
        m = r.choice(["upper()", "lower()", "strip()", f"startswith({self.str_lit(fq)[0]})", "[0]",
                      "[1:]", "[-1]"])
        return f"{s}{'' if m[0] == '[' else '.'}{m}", 14

    def gen_tuple(self, d, fq):
        r = self.r
        k = r.randint(0, 4)
        if d <= 0 or k == 0:
            return self.leaf("tuple", fq)
        if k == 1:
            return f"{self.par(self.gen_tuple(d - 1, fq), 10)} + {self.par(self.gen_tuple(d - 1, fq), 11)}", 10
        if k == 2:
            return f"divmod({self.gen(d - 1, 'num', fq)[0]}, {self.gen(d - 1, 'num', fq)[0]})", 14
        if k == 3:
            return f"{self.par(self.gen_tuple(d - 1, fq), 14, True)}[{r.choice(['1:', ':-1', '::2', ':'])}]", 14
        items = [self.gen(d - 1, r.choice(["num", "num", "str"]), fq)[0] for _ in range(r.randint(1, 3))]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")", 14


# ---- CPython's side -----------------------------------------------------------------
class Timeout(Exception):
    pass


def _alarm(*_):
    raise Timeout()  # SIGALRM: CPython took too long


def is_big(v):
    if isinstance(v, (tuple, list)):
        return any(is_big(x) for x in v)
    return isinstance(v, int) and not isinstance(v, bool) and not I64_MIN <= v <= I64_MAX


def py_eval(src):
    """('ok', value, big) or ('exc', name, big); big: some subexpression needs > 64 bits."""
    env = {"math": math, "tl": type("tl", (), {"constexpr": type("cx", (), {
        "__init__": lambda s, v: setattr(s, "value", v)})})}
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(2)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tree = ast.parse(src, mode="eval")
            except SyntaxError:
                return None
            big = False
            for node in ast.walk(tree):
                if isinstance(node, ast.expr) and not isinstance(node, ast.Constant):
                    try:
                        big = big or is_big(eval(compile(ast.Expression(node), "<e>", "eval"), env))
                    except Timeout:
                        raise
                    except Exception:
                        pass
                elif isinstance(node, ast.Constant) and is_big(node.value):
                    big = True
            try:
                v = eval(src, env)
            except (MemoryError, RecursionError):
                return None
            except Exception as e:
                return ("exc", type(e).__name__, big)
            try:
                if len(repr(v)) > 2000:
                    return None
            except ValueError:  # an int past 4300 digits
                return None
            return ("ok", v, big or is_big(v))
    except Timeout:
        return None
    finally:
        signal.alarm(0)


def literal(v):
    """An exact ttc-readable literal of v, or None."""
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return None if is_big(v) else "(-9223372036854775807 - 1)" if v == I64_MIN else str(v)
    if isinstance(v, float) and math.isinf(v):
        return "float('inf')" if v > 0 else "(-float('inf'))"
    if isinstance(v, float):
        return None if math.isnan(v) or v == 0 else repr(v)
    parts = [literal(x) for x in v] if isinstance(v, tuple) else [None]
    return None if None in parts else "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def value_check(src, res):
    """A second, independent check of the value: == with an exact literal (NaN: x != x;
    zeros: their sign through math.copysign)."""
    v = res[1]
    if res[0] != "ok":
        return None
    if isinstance(v, float) and math.isnan(v):
        return f"({src}) != ({src})"
    if isinstance(v, float) and v == 0:
        return f"({src}) == 0.0 and math.copysign(1.0, {src}) == {math.copysign(1.0, v)}"
    lit = literal(v)
    return None if lit is None else f"({src}) is None" if v is None else f"({src}) == {lit}"


# ---- ttc's side ---------------------------------------------------------------------
def run_ttc(ttc, path, timeout=10):
    try:
        p = subprocess.run([ttc, path, "-k", "k", "-s", "*fp32", "--emit", "ttir", "-o", os.devnull],
                           capture_output=True, text=True, errors="replace", timeout=timeout,
                           env=dict(os.environ, TTC_CACHE="0", NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        return "timeout", ""
    out = p.stdout + p.stderr
    if p.returncode not in (0, 1) or "internal error" in out.lower():
        return f"rc={p.returncode}", out
    return None, out


def write_batch(path, cases, mode, lines_of):
    """mode: kernel (E inline), module (C_N = E at module level) or cfunc (E returned by a
    @triton.constexpr_function); lines_of(case, src) -> [(tag, kernel line)].
    Returns {file line: (case index, tag)}."""
    head, body, where = [HEADER], [], {}
    n = HEADER.count("\n")
    for i, c in enumerate(cases):
        if mode == "module":
            head.append(f"C_{c['id']} = {c['src']}\n")
        elif mode == "cfunc":
            head.append(f"@triton.constexpr_function\ndef f_{c['id']}():\n    return {c['src']}\n")
        if mode != "kernel":
            n += 1 if mode == "module" else 3
            where[n] = (i, "m")
    n += 2
    for i, c in enumerate(cases):
        src = {"module": f"C_{c['id']}", "cfunc": f"f_{c['id']}()"}.get(mode, c["src"])
        for tag, ln in lines_of(c, src):
            n += 1
            body.append("    " + ln + "\n")
            where[n] = (i, tag)
    with open(path, "w") as f:
        f.write("".join(head) + "@triton.jit\ndef k(x_ptr):\n" + "".join(body) + "    pass\n")
    return where


def run_batch(ttc, path, cases, mode, lines_of):
    """Diagnostics per case: {case id: [(tag, kind, message)]}, or 'crash' entries."""
    res, pending = {}, list(cases)
    while pending:
        where = write_batch(path, pending, mode, lines_of)
        crash, out = run_ttc(ttc, path)
        if crash:
            if len(pending) == 1:
                res[pending[0]["id"]] = [("c", "crash", crash + ": " + out.strip()[-300:])]
                return res
            for c in pending:
                res.update(run_batch(ttc, path, [c], mode, lines_of))
            return res
        last = -1
        for line in out.splitlines():
            m = DIAG.match(line)
            if m and int(m.group(1)) in where and m.group(3) != "note":
                i, tag = where[int(m.group(1))]
                res.setdefault(pending[i]["id"], []).append((tag, m.group(3), m.group(4)))
                last = max(last, i)
        if "too many diagnostics" in out and last >= 0:
            last = max(last, 1)
            for c in pending[last:]:
                res.pop(c["id"], None)
            pending = pending[last:]
        else:
            pending = []
    return res


def check_lines(c, src):
    res = c["py"]
    want = repr(res[1]) if res[0] == "ok" else f"<raises {res[1]}>"
    out = [("r", f"tl.static_assert(repr({src}) == {want!r}, \"@{c['id']} r\")")]
    vc = value_check(src, res)
    if vc:
        out.append(("v", f"tl.static_assert({vc}, \"@{c['id']} v\")"))
    return out


def print_lines(c, src):
    return [("p", f"tl.static_print(\"@{c['id']}\", repr({src}))")]


def classify(c):
    py, d = c["py"], c["diags"]
    if any(k == "crash" for t, k, m in d):
        return "crash", d[0][2]
    real = lambda tags: [m for t, k, m in d if k == "error" and t in tags
                         and not m.startswith("static assertion failed: @")]
    failed = lambda tag: any(k == "error" and m == f"static assertion failed: @{c['id']} {tag}"
                             for t, k, m in d)
    got = c.get("ttc")
    errs = real("rm")
    if errs and py[0] == "exc":
        return "match", errs[0]
    if errs:
        if not py[2]:
            return "ttc-error", errs[0]
        ov = any(s in errs[0] for s in ("64 bits", "2**63", "overflow", "too large"))
        return ("overflow" if ov else "big-other"), errs[0]
    if failed("r"):
        return ("accepted" if py[0] == "exc" else "mismatch"), got
    if real("v"):
        return "ttc-error", "in the == check: " + real("v")[0]
    if failed("v"):
        return "mismatch", f"{got} (repr agrees; == with the exact literal is False)"
    return "match", None


def evaluate(args, batch_no, cases):
    os.makedirs(args.work, exist_ok=True)
    path = os.path.join(args.work, f"batch{batch_no % 1000}_{os.getpid()}.py")
    mode = MODES[batch_no % len(MODES)]
    diags = run_batch(args.ttc, path, cases, mode, check_lines)
    again = []
    for c in cases:
        c["mode"] = mode
        c["diags"] = diags.get(c["id"], [])
        errs = [m for t, k, m in c["diags"] if k in ("error", "crash")]
        if errs and all(m.startswith("static assertion failed: @") for m in errs):
            again.append(c)
    if again:
        got = run_batch(args.ttc, path, again, mode, print_lines)
        for c in again:
            for t, k, m in got.get(c["id"], []):
                if k == "remark" and m.startswith(f"static_print: @{c['id']} "):
                    c["ttc"] = m[len(f"static_print: @{c['id']} "):]
    return cases


def reproducer(c, cls, detail):
    py, src = c["py"], c["src"]
    want = repr(py[1]) if py[0] == "ok" else f"raises {py[1]}"
    body = {"module": f"C = {src}\n\n", "cfunc": f"@triton.constexpr_function\ndef f():\n    return {src}\n\n"
            }.get(c["mode"], "")
    use = {"module": "C", "cfunc": "f()"}.get(c["mode"], src)
    return (f"# constexpr_diff: {cls} (case {c['id']}, evaluated in a {c['mode']})\n# expression: {src}\n"
            f"# CPython: {want}{' (needs more than 64 bits)' if py[2] else ''}\n# ttc:     {detail}\n"
            f"# run: TTC_CACHE=0 ttc THIS.py -k k -s '*fp32' --emit ttir -o /dev/null\n{HEADER}\n"
            f"{body}@triton.jit\ndef k(x_ptr):\n    tl.static_print(repr({use}))\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ttc", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "../../build/bin/ttc"))
    ap.add_argument("-n", type=int, default=2000, help="number of cases")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--batch", type=int, default=150)
    ap.add_argument("--out", default="/tmp/cdiff/repro", help="reproducers of non-matches")
    ap.add_argument("--work", default="/tmp/cdiff/work")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    try:  # CPython's (1,) * 2**31 fails with MemoryError instead of filling the machine
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (ImportError, ValueError, OSError):
        pass
    rng, gen = random.Random(args.seed), G(random.Random(args.seed))
    cases, seen = [], set()
    while len(cases) < args.n:
        src = gen.gen(rng.randint(1, args.depth), rng.choice(["num", "num", "num", "str", "tuple", "any"]))[0]
        if src in seen or len(src) > 600:
            continue
        seen.add(src)
        py = py_eval(src)
        if py is not None:
            cases.append({"id": len(cases), "src": src, "py": py})
    batches = [cases[i:i + args.batch] for i in range(0, len(cases), args.batch)]
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        list(ex.map(lambda ib: evaluate(args, *ib), enumerate(batches)))
    counts = dict.fromkeys(CLASSES, 0)
    os.makedirs(args.out, exist_ok=True)
    for c in cases:
        cls, detail = classify(c)
        counts[cls] += 1
        if cls not in ("match", "overflow"):
            with open(os.path.join(args.out, f"s{args.seed}_{c['id']}_{cls}.py"), "w") as f:
                f.write(reproducer(c, cls, detail))
            if args.verbose or cls in ("mismatch", "accepted", "crash"):
                py = c["py"]
                print(f"{cls}: {c['src']}\n    CPython: {repr(py[1]) if py[0] == 'ok' else 'raises ' + py[1]}"
                      f"\n    ttc:     {detail}")
    print(f"constexpr_diff: {len(cases)} cases, " + ", ".join(f"{counts[k]} {k}" for k in CLASSES)
          + f" (seed {args.seed}; reproducers in {args.out})")
    return 1 if counts["mismatch"] or counts["accepted"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
