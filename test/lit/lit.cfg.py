# SPDX-License-Identifier: MIT
# lit configuration: every .py/.ttir/.ttgir/.test file under test/lit is a test.
import os
import shutil
import lit.formats

config.name = "ttc"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".py", ".ttir", ".ttgir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.ttc_obj_root
config.environment["PATH"] = os.pathsep.join(
    [config.ttc_bin_dir, config.llvm_bin_dir, os.path.join(config.cuda_home, "bin"),
     config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TTC_PTXAS", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The tests check the compiler, not ~/.cache: the cache is off unless a test
# turns it on (env TTC_CACHE=1 ... --cache-dir %t/cache).
config.environment["TTC_CACHE"] = "0"
config.substitutions.append(("%ttc", os.path.join(config.ttc_bin_dir, "ttc")))
config.substitutions.append(("%ptxas", os.path.join(config.cuda_home, "bin", "ptxas")))
config.substitutions.append(("%examples", os.path.join(config.ttc_src_dir, "examples")))
config.substitutions.append(("%cuda_include", os.path.join(config.cuda_home, "include")))
if shutil.which("ptxas", path=config.environment["PATH"]):
    config.available_features.add("ptxas")
