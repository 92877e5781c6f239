#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stand-in for ptxas that needs 1 GiB and reports a failed allocation the
# way ptxas does ("ptxas fatal   : Memory allocation failure").
import sys

try:
    block = bytearray(1 << 30)
except MemoryError:
    sys.stderr.write("ptxas fatal   : Memory allocation failure\n")
    sys.exit(255)
sys.stderr.write("ptxas: allocated %d bytes, no bound\n" % len(block))
sys.exit(1)
