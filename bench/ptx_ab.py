# SPDX-License-Identifier: MIT
"""What the PTX A/B scripts (matmul_ptx_ab.py, attention_ptx_ab.py) share:
a PTX file assembled by one ptxas and loaded by the driver (ctypes), its
parameters read from the .entry, and a launch closure on torch's stream, so
that every PTX under comparison goes through the same launch path and a
speed difference between them is in the code."""
import ctypes
import json
import os
import re
import subprocess
import tempfile

import torch

SHARED_DEFAULT_LIMIT = 48 * 1024
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
CU_FUNC_CACHE_PREFER_SHARED = 1
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
# How a kernel above 48 KB of shared memory is set up before its launches
# (--settings): "exact" opts in to its own bytes only; "ttc" also asks for the
# largest carveout, as ttc's runtime does (lib/runtime/module.c); "triton"
# opts in to the device's whole opt-in limit and sets PREFER_SHARED, as
# Triton's launcher does (third_party/nvidia/backends/driver.c, loadBinary).
# "triton-ex" loads as "triton" and launches through cuLaunchKernelEx (no
# attributes), as Triton's launcher does.
SETTINGS = ("exact", "ttc", "triton", "triton-ex")
ASSEMBLE = ("plain", "lineinfo", "own")


class LaunchConfig(ctypes.Structure):  # cuda.h: CUlaunchConfig
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint), ("gridDimZ", ctypes.c_uint),
                ("blockDimX", ctypes.c_uint), ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p), ("attrs", ctypes.c_void_p),
                ("numAttrs", ctypes.c_uint)]


def driver():
    torch.zeros(1, device="cuda")  # torch's primary context, current on this thread
    return ctypes.CDLL("libcuda.so.1")


def default_ptxas():
    return os.environ.get("TTC_PTXAS", "/usr/local/cuda/bin/ptxas")


class Module:
    """PTX at path, assembled for sm_90a and loaded with one of SETTINGS;
    params lists each parameter's PTX type (u64, b64, u32, b32, f32) in
    order."""

    def __init__(self, cu, ptxas, path, shared, setting="exact", assemble="plain"):
        text = open(path).read()
        entry = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S)
        self.params = re.findall(r"\.param\s+\.(u64|u32|b64|b32|f32)", entry.group(2))
        if assemble == "own":  # the cubin its compiler made (its ptxas and flags), beside the PTX
            with open(path + ".cubin", "rb") as f:
                self.image = f.read()
        else:
            fd, cubin = tempfile.mkstemp(suffix=".cubin")
            os.close(fd)
            flags = ["-lineinfo"] if assemble == "lineinfo" else []
            try:
                subprocess.run([ptxas, "-arch=sm_90a", *flags, path, "-o", cubin], check=True)
                with open(cubin, "rb") as f:
                    self.image = f.read()
            finally:
                os.unlink(cubin)
        self.cu, self.mod, self.fn = cu, ctypes.c_void_p(), ctypes.c_void_p()
        if cu.cuModuleLoadData(ctypes.byref(self.mod), self.image) != 0:
            raise RuntimeError(f"cuModuleLoadData: {path}")
        if cu.cuModuleGetFunction(ctypes.byref(self.fn), self.mod, entry.group(1).encode()) != 0:
            raise RuntimeError(f"cuModuleGetFunction: {entry.group(1)} in {path}")
        if shared > SHARED_DEFAULT_LIMIT:
            optin = ctypes.c_int()
            dev = ctypes.c_int()
            if setting.startswith("triton") and (
                    cu.cuCtxGetDevice(ctypes.byref(dev)) != 0 or cu.cuDeviceGetAttribute(
                        ctypes.byref(optin), CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev) != 0):
                raise RuntimeError("cuDeviceGetAttribute: the shared-memory opt-in limit")
            want = optin.value if setting.startswith("triton") else shared
            if cu.cuFuncSetAttribute(self.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, want) != 0:
                raise RuntimeError(f"cuFuncSetAttribute: {want} bytes of shared memory")
            if setting == "ttc" and cu.cuFuncSetAttribute(
                    self.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100) != 0:
                raise RuntimeError("cuFuncSetAttribute: carveout")
            if setting.startswith("triton") and cu.cuFuncSetCacheConfig(self.fn, CU_FUNC_CACHE_PREFER_SHARED) != 0:
                raise RuntimeError("cuFuncSetCacheConfig")
        self.threads = int(re.search(r"\.(?:reqntid|maxntid)\s+(\d+)", text).group(1))
        self.shared = shared
        self.launch_ex = setting == "triton-ex"

    def launcher(self, grid, pointers, ints, floats=()):
        """A function that launches on grid (x, y, z): 64-bit parameters take
        pointers in order (then null: Triton's scratch buffers), 32-bit
        integer ones ints, f32 ones floats."""
        src = {"p": iter(pointers), "i": iter(ints), "f": iter(floats)}
        vals = []
        for p in self.params:
            if p in ("u64", "b64"):
                vals.append(ctypes.c_uint64(next(src["p"], 0)))
            elif p == "f32":
                vals.append(ctypes.c_float(next(src["f"])))
            else:
                vals.append(ctypes.c_int32(next(src["i"])))
        args = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
        cgrid = [int(g) for g in grid]

        config = LaunchConfig(cgrid[0], cgrid[1], cgrid[2], self.threads, 1, 1, self.shared, None, None, 0)

        def run():
            # the stream of each launch, as a pointer (a bare int would pass as a 32-bit C int)
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            if self.launch_ex:
                config.hStream = stream
                r = self.cu.cuLaunchKernelEx(ctypes.byref(config), self.fn, args, None)
            else:
                r = self.cu.cuLaunchKernel(self.fn, cgrid[0], cgrid[1], cgrid[2], self.threads, 1, 1, self.shared,
                                           stream, args, None)
            if r != 0:
                raise RuntimeError(f"{'cuLaunchKernelEx' if self.launch_ex else 'cuLaunchKernel'}: {r}")
        run.keep = (vals, args, config)
        return run


def ttc_ptx(kernel, name, sig, warps, stages, out):
    """ttc's PTX of kernel's function name at out (and its cubin beside);
    returns the shared bytes from the cubin's metadata."""
    ttc = os.path.join(os.environ.get("TTC_BUILD", os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build")), "bin", "ttc")
    common = [ttc, kernel, "-k", name, "-s", sig, "-w", str(warps), "--num-stages", str(stages),
              "--arch", "sm_90a", "--no-cache"]
    subprocess.run(common + ["--emit", "ptx", "-o", out], check=True)
    subprocess.run(common + ["--emit", "cubin", "-o", out + ".cubin"], check=True)
    with open(out + ".cubin.json") as f:
        return json.load(f)["shared"]


def add_arguments(ap):
    """The options every A/B script takes: --dump DIR, --ptxas PATH,
    --settings S,..., --assemble A,..., --copies N and the NAME=FILE.ptx
    variants."""
    ap.add_argument("--dump")
    ap.add_argument("--ptxas", default=default_ptxas())
    ap.add_argument("--settings", default="exact",
                    help="comma-separated launch settings (exact, ttc, triton, triton-ex); each PTX is loaded "
                         "once per setting")
    ap.add_argument("--assemble", default="plain",
                    help="comma-separated: plain (--ptxas, no flags), lineinfo (--ptxas -lineinfo), own "
                         "(ttc's and Triton's own cubins: their ptxas and flags); each PTX is loaded once per choice")
    ap.add_argument("--copies", type=int, default=1,
                    help="load each kernel this many times (names NAME#K), each with its own output: "
                         "two loads of one cubin can time 1%% apart")
    ap.add_argument("variants", nargs="*")


def load(opt, ttc_fn, triton_fn):
    """ttc's and Triton's PTX, written by ttc_fn(path) and triton_fn(path)
    (each returns its kernel's shared bytes) into --dump or a temporary
    folder, and the variants, each assembled and loaded: returns
    ([(name, Module)], {compiler: shared bytes}). A hand-edited variant gets
    the larger of the compilers' shared bytes."""
    cu = driver()
    work = opt.dump or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    files = [("ttc", os.path.join(work, "ttc.ptx")), ("triton", os.path.join(work, "triton.ptx"))]
    shared = {"ttc": ttc_fn(files[0][1]), "triton": triton_fn(files[1][1])}
    files += [tuple(v.split("=", 1)) for v in opt.variants]
    names = [name for name, _ in files]
    if len(set(names)) != len(names) or any("#" in n or "/" in n for n in names):
        raise SystemExit("variants: each NAME must be new (not ttc or triton) and without '#' or '/'")
    if "own" in opt.assemble.split(",") and opt.variants:
        print("# --assemble own: the variants have no cubin of their own; they run only in the other choices")
    settings = list(dict.fromkeys(opt.settings.split(",")))  # each once, in order
    assembles = list(dict.fromkeys(opt.assemble.split(",")))
    for x in settings:
        if x not in SETTINGS:
            raise SystemExit(f"--settings: unknown setting '{x}' (know {', '.join(SETTINGS)})")
    for x in assembles:
        if x not in ASSEMBLE:
            raise SystemExit(f"--assemble: unknown choice '{x}' (know {', '.join(ASSEMBLE)})")
    mods = []
    for a in assembles:
        for x in settings:
            for name, path in files:
                if a == "own" and name not in shared:
                    continue  # a hand-edited variant has no cubin of its own
                label = "/".join([name] + ([a] if len(assembles) > 1 else []) + ([x] if len(settings) > 1 else []))
                for k in range(opt.copies):
                    mods.append((label + (f"#{k}" if opt.copies > 1 else ""),
                                 Module(cu, opt.ptxas, path, shared.get(name, max(shared.values())), x, a)))
    return mods, shared
