# SPDX-License-Identifier: MIT
# The Hostile test op's toolkit class: only for packing its container (tests/host/test_isolation.cpp's
# model mode); the op's outputs have its input's shape.
from rknn.api.rknn_base_op import RKNNCustomOP, IoMap, Shape


class Hostile(RKNNCustomOP):
    op = 'Hostile'
    def_input = [IoMap('in0', 'in', 'input port 0')]
    def_output = [IoMap('out0', 'out', 'output port 0')]

    def load_params_from_tf(self, node_def, tensor_data_map):
        return {'mode': 0}

    def compute_output_shape(self, inputs_shape, params):
        shape = Shape()
        shape.set_shape(shape=inputs_shape[0].format('nhwc'), fmt='nhwc')
        return [shape]

    def compute_output_tensor(self, const_tensor, inputs_tensor, params):
        return [inputs_tensor[0]]
