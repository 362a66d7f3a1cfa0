# SPDX-License-Identifier: MIT
# Test-only stand-in for onnx: enough for the make_node snippet in a generated toolkit2 class.
from . import helper  # noqa: F401
