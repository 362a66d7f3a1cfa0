# SPDX-License-Identifier: MIT
# Test-only stand-in for rknn.api: the generated toolkit2 classes import only rknn.api.custom_op.
