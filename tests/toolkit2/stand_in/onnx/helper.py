# SPDX-License-Identifier: MIT
"""Test-only stand-in for onnx.helper.make_node: records what the snippet asks for."""


class Node(object):
    def __init__(self, op_type, inputs, outputs, attributes):
        self.op_type, self.input, self.output, self.attributes = op_type, list(inputs), list(outputs), attributes


def make_node(op_type, inputs, outputs, name=None, doc_string=None, domain=None, **kwargs):
    return Node(op_type, inputs, outputs, kwargs)
