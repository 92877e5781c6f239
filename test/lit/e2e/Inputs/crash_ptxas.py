#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stand-in for ptxas that writes $CRASH_PTXAS_BYTES bytes to stderr (none
# by default) and then dies of SIGSEGV, as ptxas does under a tiny
# address-space bound.
import os
import signal
import sys

sys.stderr.write("x" * int(os.environ.get("CRASH_PTXAS_BYTES", "0")))
sys.stderr.flush()
os.kill(os.getpid(), signal.SIGSEGV)
