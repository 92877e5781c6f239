# mypkg - kernel helpers in a package (test/lit/modules/imports.py).
from .helpers import twice as twice_alias  # noqa: F401
# SPDX-License-Identifier: MIT
