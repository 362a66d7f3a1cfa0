# SPDX-License-Identifier: MIT
# The Python op class in the layout RKNN-Toolkit v1's `custom_op --action create` generates, filled
# in as the toolkit's ResizeArea demo fills it (custom op guide §3.2): the output shape is
# [h, w, c] (no batch), so the model's output tensor has rank 3.
import tensorflow as tf
from rknn.api.rknn_base_op import RKNNCustomOP, IoMap, Shape


class ResizeAreaToolkit(RKNNCustomOP):
    op = 'ResizeAreaToolkit'
    def_input = [IoMap('in0', 'in', 'input port 0')]
    def_output = [IoMap('out0', 'out', 'output port 0')]

    def load_params_from_tf(self, node_def, tensor_data_map):
        p = dict()
        # set params dict
        p['size'] = tensor_data_map['C:out0'].tolist()
        p['align_corners'] = node_def.attr['align_corners'].b
        return p

    def compute_output_shape(self, inputs_shape, params):
        outputs_shape = [Shape() for i in range(len(self.def_output))]
        # set outputs shape by set_shape()
        in_shape = inputs_shape[0].format('nhwc')
        in_channel = in_shape[-1]
        out_shape = []
        out_shape.extend(params['size'])
        out_shape.append(in_channel)
        outputs_shape[0].set_shape(shape=out_shape, fmt='nhwc')
        return outputs_shape

    def compute_output_tensor(self, const_tensor, inputs_tensor, params):
        outputs_tensor = list()
        # compute outputs tensor
        out = tf.image.resize_area(inputs_tensor[0],
                                   size=params['size'],
                                   align_corners=params['align_corners'])
        outputs_tensor.append(out)
        return outputs_tensor
