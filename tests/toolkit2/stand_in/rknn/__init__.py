# SPDX-License-Identifier: MIT
# Test-only stand-in for the RKNN-Toolkit2 package (its wheel is not available to rknnop's tests).
