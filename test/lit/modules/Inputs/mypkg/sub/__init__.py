
# SPDX-License-Identifier: MIT
