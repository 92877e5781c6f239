#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Exits 0 when the process whose pid the file holds no longer exists.
import os
import sys

pid = int(open(sys.argv[1]).read())
try:
    os.kill(pid, 0)
except ProcessLookupError:
    sys.exit(0)
sys.stderr.write("process %d is still running\n" % pid)
sys.exit(1)
