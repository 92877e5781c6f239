#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stand-in for ptxas that writes its pid to $SLOW_PTXAS_PIDFILE, sleeps
# $SLOW_PTXAS_SECONDS and then fails with a message naming the time it slept.
import os
import sys
import time

with open(os.environ["SLOW_PTXAS_PIDFILE"], "w") as f:
    f.write(str(os.getpid()))
seconds = float(os.environ.get("SLOW_PTXAS_SECONDS", "60"))
time.sleep(seconds)
sys.stderr.write("ptxas: slept %g s, no bound\n" % seconds)
sys.exit(1)
