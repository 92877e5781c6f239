#!/usr/bin/env python3
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
True) goes through ptxas. The report gives the pass rate per project and the
remaining failures ranked by their first diagnostic, with the constructs
named.

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
                       r"^(causal|training|reverse|is_\w+|has_\w+|use_\w+)$", re.I)
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


def constexpr_value(name, default, config, flag):
    if name in config:
        v = config[name]
    elif default is not None:
        v = default
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
        v = 32  # a block size: a power of two, small enough to compile quickly
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
    ptrs = pointer_params(fn, params)
    config, warps = config_values(fn, tree)
    heur = heuristic_keys(fn)
    uses_dot = "tl.dot" in ast.get_source_segment(src_text, fn) if hasattr(ast, "get_source_segment") else False
    variants = []
    for elem, flag, int_names in (("fp16" if uses_dot else "fp32", False, True), ("fp16", False, True),
                                  ("fp32", True, True), ("fp32", False, False)):
        entries = []
        for p, d, cx in zip(params, defaults, is_cx):
            if cx or p in heur:
                entries.append(constexpr_value(p, d, config, flag))
            elif p in ptrs:
                entries.append("*i32" if int_names and INT_PTR_NAME.search(p) else "*" + elem)
            elif FLOAT_NAME.search(p):
                entries.append("fp32")
            else:
                entries.append("i32")
        sig = ",".join(entries)
        if sig not in [v[0] for v in variants]:
            variants.append((sig, warps or 4))
    return variants


# ---- compiling ------------------------------------------------------------------------------

def compile_one(ttc, path, kernel, variants, includes):
    first_err = None
    for sig, warps in variants:
        with tempfile.NamedTemporaryFile(suffix=".cubin") as out:
            cmd = [ttc, path, "-k", kernel, "-s", sig, "--arch", "sm_90a", "-w", str(warps),
                   "--emit", "cubin", "-o", out.name]
            for inc in includes:
                cmd += ["-I", inc]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)
            except subprocess.TimeoutExpired:
                return False, sig, "error: compile took more than 120 s"
            if p.returncode == 0:
                return True, sig, ""
            err = next((l for l in p.stderr.splitlines() if ": error: " in l or l.startswith("ttc: error")),
                       p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode)
            if p.returncode not in (0, 1) or "internal error" in p.stderr:
                err = "CRASH %d: %s" % (p.returncode, err)
            if first_err is None:
                first_err = (sig, err)
    return False, first_err[0], first_err[1]


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
                found.append((project, f, fn.name, signatures(fn, tree, text), includes))
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
        for project, f, k, variants, _ in jobs:
            print("%s %s -k %s -s '%s'" % (project, os.path.relpath(f, a.corpus), k, variants[0][0]))
        return 0
    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(compile_one, a.ttc, f, k, v, inc): (p, f, k) for p, f, k, v, inc in jobs}
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
