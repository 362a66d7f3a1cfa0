# SPDX-License-Identifier: MIT
"""Test-only stand-in for rknn.api.custom_op: get_node_attr over FakeNode, an ONNX-like node whose
attributes hold the Python values onnx.helper.get_attribute_value would give (float for FLOAT, int for
INT, lists for FLOATS/INTS, bytes for STRING). An absent attribute reads as None."""


class FakeAttribute(object):
    def __init__(self, name, value):
        self.name, self.value = name, value


class FakeNode(object):
    def __init__(self, op_type, attributes):
        self.op_type = op_type
        self.attribute = [FakeAttribute(k, v) for k, v in attributes.items()]


def get_node_attr(node, name):
    for attribute in node.attribute:
        if attribute.name == name:
            return attribute.value
    return None
