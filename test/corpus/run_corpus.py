#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile real Triton kernel files with ttc, as a new user would.

The corpus is a folder of projects, each in its own directory layout (the
modules its kernel files import included), collected from public
repositories and never committed:

    CORPUS/<project>/...py

For every @triton.jit function that is a kernel (launched with
`name[grid](...)` somewhere in its project, or not called by another jit
function of its file), this script makes a plausible signature from the
source -- pointers from how parameters reach tl.load / tl.store, floats from
their names, constexprs from autotune configs, defaults and names -- and
compiles the unchanged file to PTX for sm_90a through ptxas (--emit cubin),
with -I at the project root (and its src/). A kernel counts as compiled
when one of a few signature variants (fp32 or fp16 pointers, flags False or
True) goes through ptxas. When ttc's diagnostic shows a guessed parameter kind
wrong (a pointer used as an integer, an integer dereferenced), the driver
corrects that parameter and tries again, as a user fixing the signature
would (a few rounds; the file is never changed). The report gives the pass
rate per project and the remaining failures ranked by their diagnostic (the
last one of the first variant), with the constructs named.

The ttc given is copied (with its libttc.so) to a temporary folder first,
so that rebuilding during a run does not disturb it.

usage: run_corpus.py TTC CORPUS [--jobs N] [--project NAME] [--per-project N]
                     [--list] [--verbose] [--json OUT]

--per-project N keeps N kernels of each project, evenly spaced over its
files in path order (deterministic), so that one large project does not
dominate the figure.
"""
import argparse
import ast
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP_DIRS = {"test", "tests", "testing", "benchmark", "benchmarks", "bench", "docs", "examples",
             "__pycache__", "third_party", "3rdparty"}
MEMORY_OPS = {"load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_cas",
              "atomic_xchg", "atomic_and", "atomic_or", "atomic_xor", "make_block_ptr",
              "make_tensor_descriptor", "prefetch"}
FLOAT_NAME = re.compile(r"(^|_)(eps|epsilon|scale|sm_scale|alpha|beta|gamma|temperature|temp|p|"
                        r"dropout|dropout_p|momentum|lr|factor|softcap|theta|threshold|slope|"
                        r"negative_slope|clip|decay|weight_decay|logit_cap|base|rope_theta|"
                        r"min_val|max_val|lambd|delta|eta|margin|label_smoothing|inv_freq|"
                        r"qk_scale|sigma|mean|std|value|fill_value|lower|upper)($|_)", re.I)
INT_PTR_NAME = re.compile(r"(idx|index|indices|ids|offset|offsets|seqlen|seq_len|lens|lengths|"
                          r"table|loc|lock|count|counts|pos|positions|mapping|bin|expert|label|"
                          r"labels|target|targets|token|tokens|mask|perm|slot|page|block_tables)",
                          re.I)
BOOL_NAME = re.compile(r"^(HAS|IS|USE|ENABLE|EVEN|APPLY|RETURN|SAVE|STORE|LOAD|WITH|NEED|DO|"
                       r"CAUSAL|REVERSE|TRANS|FUSE|ADD|IGNORE|SKIP|INPLACE|OUTPUT|COMPUTE|"
                       r"BACKWARD|FORWARD|NORM|SCALE|DIVIDE|MASK|CHECK|PRE|POST|SPLIT|"
                       r"ALLOW|FLIP|SWAP|PACK|RESIDUAL|BIAS|DROPOUT|TRAINING)(_|$)|_(ON|FLAG)$|"
                       r"^(causal|training|reverse|invert|descending|ascending|stable|inplace|is_\w+|has_\w+|"
                       r"use_\w+)$", re.I)
DTYPE_NAME = re.compile(r"dtype|DTYPE|_ty$|TYPE$", re.I)
STR_NAME = re.compile(r"activation|ACTIVATION|ACT$|act_fn|MODE$|mode$|reduction|REDUCTION|op$|OP$|"
                      r"norm_type|LAYOUT|layout|kind|KIND|TYPE_STR|rounding|ROUNDING", re.I)


# ---- finding kernels ---------------------------------------------------------------------

def py_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py") and not f.startswith("test_"):
                yield os.path.join(d, f)


def dotted(e):
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        base = dotted(e.value)
        return base + "." + e.attr if base else None
    if isinstance(e, ast.Call):
        return dotted(e.func)
    return None


def is_jit_decorator(d):
    name = dotted(d) or ""
    return name.split(".")[-1] in ("jit",) or name.endswith("triton.jit")


def jit_functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
            and any(is_jit_decorator(d) for d in n.decorator_list)]


def regex_jit_functions(text):
    """For files Python's parser here cannot read: defs after @triton.jit."""
    out = []
    for m in re.finditer(r"@triton\.jit[^\n]*\n(?:\s*@[^\n]*\n)*\s*def\s+(\w+)\s*\(([^)]*)\)", text):
        out.append((m.group(1), m.group(2)))
    return out


# ---- signatures ----------------------------------------------------------------------------

def pointer_roots(e):
    """Names that may be the pointer operand of an address expression."""
    if isinstance(e, ast.Name):
        return {e.id}
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
        return pointer_roots(e.left) | pointer_roots(e.right)
    if isinstance(e, ast.Subscript):
        return pointer_roots(e.value)
    if isinstance(e, ast.IfExp):
        return pointer_roots(e.body) | pointer_roots(e.orelse)
    if isinstance(e, ast.Call) and e.args:
        name = (dotted(e.func) or "").split(".")[-1]
        if name in ("multiple_of", "max_contiguous", "where", "broadcast_to", "reshape",
                    "expand_dims", "advance", "cast", "to"):
            return pointer_roots(e.args[1] if name == "where" and len(e.args) > 1 else e.args[0])
        if isinstance(e.func, ast.Attribute) and e.func.attr == "to":
            return pointer_roots(e.func.value)
    return set()


SCALAR_OPS = (ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift,
              ast.BitAnd, ast.BitOr, ast.BitXor)


def names_in(e):
    return {n.id for n in ast.walk(e) if isinstance(n, ast.Name)}


def scalar_uses(fn):
    """Names used where pointers never are: in products, comparisons, shifts,
    range bounds, tl.arange / cdiv / min / max arguments."""
    out = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, SCALAR_OPS):
            out |= names_in(node)
        elif isinstance(node, ast.Compare) and not any(isinstance(op, (ast.Is, ast.IsNot))
                                                       for op in node.ops):
            out |= names_in(node)
        elif isinstance(node, ast.Call):
            name = (dotted(node.func) or "").split(".")[-1]
            if name in ("range", "static_range", "arange", "cdiv", "min", "max", "minimum",
                        "maximum", "program_id", "full"):
                for a in node.args:
                    out |= names_in(a)
    return out


def pointer_params(fn, params):
    ptrs = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = (dotted(node.func) or "").split(".")[-1]
            if name in MEMORY_OPS:
                first = node.args[0] if node.args else None
                for kw in node.keywords:
                    if kw.arg in ("pointer", "base", "ptr"):
                        first = kw.value
                if first is not None:
                    ptrs |= pointer_roots(first)
    changed = True
    while changed:  # through assignments: x_ptrs = X + offs, Y += row * stride
        changed = False
        for node in ast.walk(fn):
            targets, value = [], None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets, value = [node.target], node.value
            for t in targets:
                if isinstance(t, ast.Name) and t.id in ptrs:
                    new = pointer_roots(value) - ptrs
                    if new:
                        ptrs |= new
                        changed = True
    scalar = scalar_uses(fn)
    named = {p for p in params if re.search(r"ptr|Ptr|PTR", p)}
    return named | {p for p in params if p in ptrs and p not in scalar and
                    not re.search(r"stride|size|len|num|dim|^n_|_n$|count", p, re.I)}


def literal(e):
    try:
        return ast.literal_eval(e)
    except Exception:
        return None


def config_values(fn, tree):
    """constexpr values of the first triton.Config in the kernel's autotune
    decorator (or in a helper of the file returning configs), and its num_warps."""
    calls = []
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and (dotted(d.func) or "").endswith("autotune"):
            calls += [n for n in ast.walk(d) if isinstance(n, ast.Call)
                      and (dotted(n.func) or "").endswith("Config")]
            if not calls:  # configs=some_helper(): the file's first Config
                calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                         and (dotted(n.func) or "").endswith("Config")]
    for c in calls:
        if c.args and isinstance(c.args[0], ast.Dict):
            vals = {}
            for k, v in zip(c.args[0].keys, c.args[0].values):
                kk, vv = literal(k), literal(v)
                if isinstance(kk, str) and vv is not None:
                    vals[kk] = vv
            warps = next((literal(k.value) for k in c.keywords if k.arg == "num_warps"), None)
            return vals, warps if isinstance(warps, int) else None
    return {}, None


def heuristic_keys(fn):
    keys = set()
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and (dotted(d.func) or "").endswith("heuristics") and d.args:
            if isinstance(d.args[0], ast.Dict):
                keys |= {literal(k) for k in d.args[0].keys}
    return keys


def compared_values(fn):
    """constexpr name -> the first literal it is compared with (`if MODE == 2`)."""
    out = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.NotEq)):
            a, b = n.left, n.comparators[0]
            if isinstance(b, ast.Name) and isinstance(a, ast.Constant):
                a, b = b, a
            if isinstance(a, ast.Name) and isinstance(b, ast.Constant) and \
                    isinstance(b.value, (int, str)) and not isinstance(b.value, bool):
                out.setdefault(a.id, b.value)
    return out


def constexpr_value(name, default, config, flag, compared):
    if name in config:
        v = config[name]
    elif default is not None:
        v = default
    elif name in compared:
        v = compared[name] if not isinstance(compared[name], str) else "'%s'" % compared[name]
    elif DTYPE_NAME.search(name):
        v = "tl.float32"
    elif BOOL_NAME.search(name):
        v = flag
    elif STR_NAME.search(name):
        v = "''"
    elif re.search(r"STAGES|stages", name):
        v = 2
    elif re.search(r"GROUP", name):
        v = 8
    elif re.search(r"^(num_|NUM_)", name):
        v = 4
    else:
        v = 16  # a block size: a power of two, small enough to compile quickly
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, str) and not v.startswith(("tl.", "'")):
        return repr(v)
    if v is None:
        return "None"
    return str(v)


def signatures(fn, tree, src_text):
    """A few plausible signatures (and num_warps) for kernel fn."""
    args = fn.args
    params = [a.arg for a in args.args]
    defaults = [None] * (len(params) - len(args.defaults)) + [literal(d) for d in args.defaults]
    is_cx = [a.annotation is not None and "constexpr" in ast.unparse(a.annotation) for a in args.args]
    annotations = [ast.unparse(a.annotation) if a.annotation is not None else "" for a in args.args]
    ptrs = pointer_params(fn, params)
    config, warps = config_values(fn, tree)
    heur = heuristic_keys(fn)
    compared = compared_values(fn)
    uses_dot = "tl.dot" in ast.get_source_segment(src_text, fn) if hasattr(ast, "get_source_segment") else False
    variants = []
    for elem, flag, int_names in (("fp16" if uses_dot else "fp32", False, True), ("fp16", False, True),
                                  ("fp32", True, True), ("fp32", False, False)):
        entries = []
        for p, d, cx, ann in zip(params, defaults, is_cx, annotations):
            if cx or p in heur:
                entries.append(constexpr_value(p, d, config, flag, compared))
            elif ann in ("int", "float", "bool"):  # `n: int`: a scalar, whatever its uses
                entries.append("fp32" if ann == "float" else "i32")
            elif p in ptrs:
                entries.append("*i32" if int_names and INT_PTR_NAME.search(p) else "*" + elem)
            elif FLOAT_NAME.search(p):
                entries.append("fp32")
            else:
                entries.append("i32")
        if entries not in [v[0] for v in variants]:
            variants.append((entries, warps or 4))
    return variants


# ---- compiling ------------------------------------------------------------------------------

def run_ttc(ttc, path, kernel, sig, warps, includes):
    """(ok, first error line) of one compile to cubin."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as out:
        cmd = [ttc, path, "-k", kernel, "-s", sig, "--arch", "sm_90a", "-w", str(warps),
               "--emit", "cubin", "-o", out.name]
        for inc in includes:
            cmd += ["-I", inc]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)
        except subprocess.TimeoutExpired:
            return False, "error: compile took more than 120 s"
    if p.returncode == 0:
        return True, ""
    err = next((l for l in p.stderr.splitlines() if ": error: " in l or l.startswith("ttc: error")),
               p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode)
    if p.returncode not in (0, 1) or "internal error" in p.stderr:
        err = "CRASH %d: %s" % (p.returncode, err)
    return False, err


# ---- signature feedback ----------------------------------------------------------------------
#
# A user whose guessed signature is wrong reads ttc's diagnostic and fixes the
# parameter it names; so does this driver, a few times per kernel: the
# diagnostic's location gives an expression of the kernel, its names (through
# the kernel's assignments) give the parameters, and the message what they
# should be. Only parameter kinds change (pointer / integer / pointer element);
# the file is never touched.

ERR_LOC = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")


def expr_at(fn, line, col):
    """The largest expression of fn starting at line:col (1-based col), else
    the smallest one around that place (an operator's or a method's)."""
    best = None
    for n in ast.walk(fn):
        if isinstance(n, ast.expr) and n.lineno == line and n.col_offset == col - 1:
            if best is None or (n.end_lineno, n.end_col_offset) > (best.end_lineno, best.end_col_offset):
                best = n
    if best is None:
        size = lambda n: (n.end_lineno - n.lineno, n.end_col_offset - n.col_offset)
        for n in ast.walk(fn):
            if isinstance(n, ast.expr) and not isinstance(n, ast.Name) and \
                    (n.lineno, n.col_offset) <= (line, col - 1) <= (n.end_lineno, n.end_col_offset):
                if best is None or size(n) < size(best):
                    best = n
    return best


def assignments(fn):
    """name -> the values fn assigns to it."""
    assigns = collections.defaultdict(list)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    assigns[t.id].append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None \
                and isinstance(node.target, ast.Name):
            assigns[node.target.id].append(node.value)
    return assigns


def reaching_params(fn, e, params, roots_only):
    """Parameters whose values reach expression e through the kernel's
    assignments (through + / - and pointer-preserving calls only when
    roots_only)."""
    get = pointer_roots if roots_only else names_in
    assigns = assignments(fn)
    seen, todo = set(), list(get(e))
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        for v in assigns.get(n, []):
            todo += list(get(v))
    return [p for p in params if p in seen]


def value_names(e):
    """Names whose values make e, not those only giving a type (x.to(y.dtype))."""
    if isinstance(e, ast.Name):
        return {e.id}
    if isinstance(e, ast.Call):
        name = (dotted(e.func) or "").split(".")[-1]
        if name in ("to", "cast") and isinstance(e.func, ast.Attribute):
            return value_names(e.func.value)
        if name == "load":  # a loaded value does not derive from its address's values
            return set()
        out = value_names(e.func.value) if isinstance(e.func, ast.Attribute) else set()
        for a in e.args:
            out |= value_names(a)
        return out
    if isinstance(e, ast.Attribute):
        return set() if e.attr in ("dtype", "element_ty", "type") else value_names(e.value)
    out = set()
    for c in ast.iter_child_nodes(e):
        if isinstance(c, ast.expr):
            out |= value_names(c)
    return out


def loaded_from(fn, e, params):
    """Pointer parameters whose loads make e's value (x = tl.load(p + o),
    y = x - 1, then e uses y)."""
    assigns = assignments(fn)
    out, seen, todo = [], set(), [e]
    while todo:
        v = todo.pop()
        for n in ast.walk(v):
            if isinstance(n, ast.Call) and (dotted(n.func) or "").split(".")[-1] == "load" and n.args:
                out += [p for p in reaching_params(fn, n.args[0], params, True) if p not in out]
        for n in value_names(v) - seen:
            seen.add(n)
            todo += assigns.get(n, [])
    return out


def enclosing_function(tree, line):
    best = None
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef) and n.lineno <= line <= n.end_lineno:
            if best is None or n.lineno > best.lineno:
                best = n
    return best


def calls_of(caller, callee):
    """For each call of callee in caller: callee parameter -> argument expression."""
    names = [a.arg for a in callee.args.args]
    out = []
    for n in ast.walk(caller):
        if isinstance(n, ast.Call) and (dotted(n.func) or "").split(".")[-1] == callee.name:
            m = {}
            for i, a in enumerate(n.args):
                if i < len(names) and not isinstance(a, ast.Starred):
                    m[names[i]] = a
            for kw in n.keywords:
                if kw.arg in names:
                    m[kw.arg] = kw.value
            out.append(m)
    return out


def lift(kernel, tree, g, names, roots_only, depth=0):
    """The kernel parameters that the parameters `names` of jit function g
    receive, through the calls between them in the file."""
    if g is kernel:
        return set(names)
    if depth > 3:
        return set()
    out = set()
    for f in ast.walk(tree):
        if not isinstance(f, ast.FunctionDef) or f is g:
            continue
        fparams = [a.arg for a in f.args.args]
        for m in calls_of(f, g):
            got = set()
            for name in names:
                if name in m:
                    got |= set(reaching_params(f, m[name], fparams, roots_only))
            if got:
                out |= lift(kernel, tree, f, got, roots_only, depth + 1)
    return out


def feedback(fn, tree, path, params, entries, err, elem):
    """A corrected copy of entries for error err, or None."""
    m = ERR_LOC.match(err)
    if not m or os.path.abspath(m.group(1)) != os.path.abspath(path):
        return None
    line, col, msg = int(m.group(2)), int(m.group(3)), m.group(4)
    g = fn if fn.lineno <= line <= fn.end_lineno else enclosing_function(tree, line)
    if g is None:
        return None
    e = expr_at(g, line, col)
    if e is None and "loop-carried" not in msg:
        return None
    gparams = [a.arg for a in g.args.args]

    def find(first, roots_only):  # kernel parameters behind expression e of g
        got = lift(fn, tree, g, first(g, e, gparams), roots_only)
        return [p for p in params if p in got]

    new = list(entries)
    is_ptr = lambda x: x.startswith("*")
    is_cx = lambda x: not re.match(r"^\*?(i|u|fp|bf)\d+$", x)
    changed = False

    def set_kind(p, kind, when):
        nonlocal changed
        i = params.index(p)
        if when(new[i]) and new[i] != kind:
            new[i] = kind
            changed = True

    if re.search(r"must be a (scalar )?pointer|non-pointer dtype", msg):
        for p in find(lambda f, x, ps: reaching_params(f, x, ps, True) or
                      reaching_params(f, x, ps, False), True):
            kind = "*" + (elem if "non-pointer" in msg or not INT_PTR_NAME.search(p) else "i32")
            set_kind(p, kind, lambda k: not is_ptr(k) and not is_cx(k))
    elif re.search(r"cannot convert '\w+' to 'pointer", msg):  # a table of addresses
        for c in ast.walk(g):  # the located dtype argument: its x.to(...) call's receiver
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and \
                    any(a is e for a in c.args + [k.value for k in c.keywords]):
                e = c.func.value
        for p in find(loaded_from, True):
            set_kind(p, "*i64", lambda k: True)
    elif re.search(r"invalid operands to '\+': '(pointer<\w+>|tensor<[^']*!tt.ptr[^']*)' and "
                   r"'(tensor<[0-9x]*)?(fp|bf)\d+>?'", msg):
        # pointer + a float: the offset is an integer (a loaded index, or a
        # parameter guessed as a float)
        right = e.right if isinstance(e, ast.BinOp) else e
        for p in find(lambda f, x, ps: loaded_from(f, right if x is e else x, ps), True):
            set_kind(p, "*i32", is_ptr)
        if not changed:
            for p in find(lambda f, x, ps: reaching_params(f, x, ps, False), False):
                set_kind(p, "i32", lambda k: k.startswith(("fp", "bf")))
    elif re.search(r"invalid operands to '[^']+': .*pointer", msg):
        # a pointer where an integer is meant: the parameters named in the
        # expression itself first
        for p in find(lambda f, x, ps: [q for q in ps if q in names_in(x)] or
                      reaching_params(f, x, ps, False), False):
            if not re.search(r"ptr|Ptr|PTR", p):
                set_kind(p, "i32", is_ptr)
    elif re.search(r"requires integer operands|Unknown dtype|must be integer scalars, found 'fp|"
                   r"floor division '//' is not supported on '(fp|bf)|"
                   r"dot operands must have the same", msg):
        for p in find(loaded_from, True):
            set_kind(p, "*i32", is_ptr)
    elif re.search(r"value of constexpr '\w+' must be a constant", msg):
        # a runtime parameter that the launch passes as 1 (Triton specializes it)
        for p in find(lambda f, x, ps: reaching_params(f, x, ps, False), False):
            set_kind(p, "1", lambda k: k in ("i32", "i64"))
    elif re.search(r"unsupported in codegen: 'tt.dot'$", msg):  # integer operands guessed
        for p in find(loaded_from, True):
            set_kind(p, "*" + elem, lambda k: k == "*i32")
    elif re.search(r"cannot bitcast '[^']*' to '[a-z]+(\d+)': sizes differ", msg):
        width = re.search(r"to '[a-z]+(\d+)'", msg).group(1)
        for p in find(loaded_from, True):
            set_kind(p, "*i" + width, is_ptr)
    else:
        lp = re.search(r"variable '(\w+)' has type '[^']*i\d+>?' before and '[^']*pointer[^']*' after", msg)
        lc = re.search(r"variable '(\w+)' has type '[^']*' before and '[^']*(fp|bf)\d+>?' after", msg)
        if lp:  # an integer counter stepped by a parameter guessed as a pointer
            for value in assignments(g).get(lp.group(1), []):
                for p in lift(fn, tree, g, [q for q in gparams if q in names_in(value)], False):
                    if p in params and not re.search(r"ptr|Ptr|PTR", p):
                        set_kind(p, "i32", is_ptr)
        elif lc:  # an integer accumulator fed by a load guessed as floats
            for value in assignments(g).get(lc.group(1), []):
                for p in lift(fn, tree, g, loaded_from(g, value, gparams), True):
                    if p in params:
                        set_kind(p, "*i32", is_ptr)
    return new if changed else None


def compile_one(ttc, path, kernel, fn, tree, variants, includes):
    """Tries the variants (each corrected by feedback); on failure reports the
    first variant's last diagnostic."""
    params = [a.arg for a in fn.args.args]
    report = None
    for entries, warps in variants:
        elem = next((x[1:] for x in entries if x.startswith("*") and x != "*i32"), "fp32")
        for _ in range(8):
            sig = ",".join(entries)
            ok, err = run_ttc(ttc, path, kernel, sig, warps, includes)
            if ok:
                return True, sig, ""
            fixed = feedback(fn, tree, path, params, entries, err, elem)
            if fixed is None:
                break
            entries = fixed
        if report is None:
            report = (sig, err)
    return False, report[0], report[1]


def construct(err):
    """The failure's message with names and numbers elided, to rank constructs."""
    msg = err.split(": error: ", 1)[-1]
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:140]


def sample(items, n):
    """n items evenly spaced over the list (all of them when n is 0 or more)."""
    if not n or len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def collect(corpus, only, per_project):
    jobs = []
    for project in sorted(os.listdir(corpus)):
        root = os.path.join(corpus, project)
        if not os.path.isdir(root) or (only and project != only):
            continue
        includes = [root] + [os.path.join(root, "src")] * os.path.isdir(os.path.join(root, "src"))
        files = list(py_files(root))
        texts = {}
        for f in files:
            try:
                texts[f] = open(f, encoding="utf-8", errors="replace").read()
            except OSError:
                pass
        launched = set()
        for t in texts.values():
            launched |= set(re.findall(r"\b(\w+)\s*\[", t))
        found = []
        for f, text in texts.items():
            if "triton.jit" not in text and "@jit" not in text:
                continue
            try:
                tree = ast.parse(text)
            except SyntaxError:
                tree = None
            if tree is None:
                continue
            fns = jit_functions(tree)
            called = set()
            for fn in fns:
                for n in ast.walk(fn):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                        called.add(n.func.id)
            for fn in fns:
                returns = any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))
                is_kernel = fn.name in launched or (fn.name not in called and not returns)
                if not is_kernel or returns:
                    continue
                found.append((project, f, (fn, tree), signatures(fn, tree, text), includes))
        jobs += sample(found, per_project)
    return jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ttc")
    ap.add_argument("corpus")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--project")
    ap.add_argument("--per-project", type=int, default=0, help="kernels per project (0: all)")
    ap.add_argument("--list", action="store_true", help="list the kernels and signatures only")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--json", help="write every result here")
    a = ap.parse_args()
    jobs = collect(a.corpus, a.project, a.per_project)
    snap = tempfile.mkdtemp(prefix="ttc-corpus-")
    os.makedirs(os.path.join(snap, "bin"))
    shutil.copy2(a.ttc, os.path.join(snap, "bin", "ttc"))
    lib = os.path.join(os.path.dirname(os.path.abspath(a.ttc)), "..", "lib", "libttc.so")
    if os.path.exists(lib):
        shutil.copytree(os.path.dirname(lib), os.path.join(snap, "lib"))
    a.ttc = os.path.join(snap, "bin", "ttc")
    if a.list:
        for project, f, (fn, _), variants, _ in jobs:
            print("%s %s -k %s -s '%s'" % (project, os.path.relpath(f, a.corpus), fn.name,
                                           ",".join(variants[0][0])))
        return 0
    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(compile_one, a.ttc, f, fn.name, fn, tree, v, inc): (p, f, fn.name)
                for p, f, (fn, tree), v, inc in jobs}
        for fut in concurrent.futures.as_completed(futs):
            p, f, k = futs[fut]
            ok, sig, err = fut.result()
            results.append({"project": p, "file": os.path.relpath(f, a.corpus), "kernel": k,
                            "ok": ok, "signature": sig, "error": err})
            if len(results) % 25 == 0:
                print("... %d of %d" % (len(results), len(jobs)), file=sys.stderr, flush=True)
            if a.verbose and not ok:
                print("FAIL %s:%s: %s" % (os.path.relpath(f, a.corpus), k, err), file=sys.stderr)
    per = collections.defaultdict(lambda: [0, 0])
    for r in results:
        per[r["project"]][0] += r["ok"]
        per[r["project"]][1] += 1
    total_ok = sum(v[0] for v in per.values())
    total = sum(v[1] for v in per.values())
    print("ttc corpus: %d of %d kernels compile to PTX accepted by ptxas (sm_90a): %.1f%%"
          % (total_ok, total, 100.0 * total_ok / max(total, 1)))
    for p in sorted(per):
        ok, n = per[p]
        print("  %-28s %4d / %4d  %5.1f%%" % (p, ok, n, 100.0 * ok / max(n, 1)))
    ranked = collections.Counter(construct(r["error"]) for r in results if not r["ok"])
    print("remaining failures, by first diagnostic:")
    for msg, n in ranked.most_common(40):
        print("  %4d  %s" % (n, msg))
    if a.json:
        with open(a.json, "w") as out:
            json.dump(sorted(results, key=lambda r: (r["file"], r["kernel"])), out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
