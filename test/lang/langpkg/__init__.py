# langpkg - a package of kernel helpers: ops.py imports from util.py relatively.
# SPDX-License-Identifier: MIT
