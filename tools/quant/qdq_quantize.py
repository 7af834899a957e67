#!/usr/bin/python3
"""Quantizes a float ONNX model to static QDQ in onnxruntime's format, independently of
`ort quantize` (a cross-check of it, and of the engine's QDQ fusions on models it did not write):
uint8 activations, asymmetric, from min/max calibration (range widened to hold 0); int8 weights,
symmetric, per output channel; int32 biases in units of x_scale * w_scale. A Relu or Clip after
a quantized op is kept and its output quantized instead, as the QuantizeLinear then makes it
redundant. Calibration runs the float model on onnxruntime-node 1.30 (calibrate_ranges.js).

Usage: qdq_quantize.py MODEL OUT --calibrate DIR [DIR ...] [--node-modules DIR]
  each DIR holds NAME.npy per model input (the zoo's inputs/ folders).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# Ops whose activation inputs and outputs get Q/DQ pairs; the first three also their weights.
WEIGHTED = {'Conv', 'Gemm', 'MatMul'}
QUANTIZED = WEIGHTED | {'Add', 'MaxPool', 'AveragePool', 'GlobalAveragePool', 'Concat'}
CLIPPING = {'Relu', 'Clip'}


def activation_scale(low, high):
    low, high = min(low, 0.0), max(high, 0.0)
    scale = (high - low) / 255.0 if high > low else 1.0
    zero = int(np.clip(np.rint(-low / scale), 0, 255))
    return np.float32(scale), np.uint8(zero)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('model')
    parser.add_argument('out')
    parser.add_argument('--calibrate', nargs='+', required=True)
    parser.add_argument('--node-modules', default=os.path.join(REPO, 'suite', 'node_modules'))
    args = parser.parse_args()

    model = onnx.load(args.model)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    graph_outputs = {o.name for o in graph.output}

    def quantized_output(node):
        """The tensor a quantized node's output is quantized at: past a sole Relu/Clip reader."""
        out = node.output[0]
        readers = consumers.get(out, [])
        if len(readers) == 1 and readers[0].op_type in CLIPPING and out not in graph_outputs:
            return readers[0].output[0]
        return out

    tensors = set()
    for node in graph.node:
        if node.op_type not in QUANTIZED:
            continue
        if node.op_type == 'MatMul' and node.input[1] not in inits:
            continue
        for name in node.input[:1] if node.op_type in WEIGHTED else node.input:
            if name and name not in inits:
                tensors.add(name)
        tensors.add(quantized_output(node))
    tensors -= graph_outputs
    # Only float tensors: the calibration run sees their types.
    with tempfile.TemporaryDirectory() as tmp:
        probe = onnx.load(args.model)
        del probe.graph.output[:]
        for name in sorted(tensors):
            probe.graph.output.append(helper.make_empty_tensor_value_info(name))
        probe_path = os.path.join(tmp, 'probe.onnx')
        onnx.save(probe, probe_path)
        ranges = json.loads(subprocess.run(
            ['node', os.path.join(HERE, 'calibrate_ranges.js'), probe_path, args.node_modules,
             *args.calibrate], check=True, capture_output=True, text=True).stdout)

    params = {}
    new_inits = []
    for name in sorted(ranges):
        scale, zero = activation_scale(*ranges[name])
        params[name] = (scale, zero)
        new_inits += [numpy_helper.from_array(np.array(scale), name + '_scale'),
                      numpy_helper.from_array(np.array(zero), name + '_zero_point')]

    nodes = []
    renamed = {}  # float tensor -> its dequantized twin
    for name in params:
        renamed[name] = name + '_dequantized'

    def weight_dq(node, index, axis, channels_first):
        w = numpy_helper.to_array(inits[node.input[index]]).astype(np.float32)
        moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        scale = (np.abs(moved).max(axis=1) / 127.0).astype(np.float32)
        scale[scale == 0] = 1.0
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        base = node.input[index]
        new_inits.extend([numpy_helper.from_array(q, base + '_quantized'),
                          numpy_helper.from_array(scale, base + '_scale'),
                          numpy_helper.from_array(np.zeros(len(scale), np.int8),
                                                  base + '_zero_point')])
        nodes.append(helper.make_node('DequantizeLinear', [base + '_quantized', base + '_scale',
                                                           base + '_zero_point'],
                                      [base + '_dequantized'], axis=axis))
        return base + '_dequantized', scale

    def bias_dq(node, index, input_scale, weight_scale):
        b = numpy_helper.to_array(inits[node.input[index]]).astype(np.float64)
        scale = (np.float64(input_scale) * weight_scale.astype(np.float64)).astype(np.float32)
        q = np.clip(np.rint(b / scale), -2**31, 2**31 - 1).astype(np.int32)
        base = node.input[index]
        new_inits.extend([numpy_helper.from_array(q, base + '_quantized'),
                          numpy_helper.from_array(scale, base + '_scale')])
        nodes.append(helper.make_node('DequantizeLinear', [base + '_quantized', base + '_scale'],
                                      [base + '_dequantized'], axis=0))
        return base + '_dequantized'

    for node in graph.node:
        inputs = list(node.input)
        for i, name in enumerate(inputs):
            if name in renamed:
                inputs[i] = renamed[name]
        x = node.input[0] if node.input else ''
        if node.op_type in WEIGHTED and x in params and len(node.input) > 1 and \
                node.input[1] in inits:
            if node.op_type == 'Conv':
                axis = 0
            elif node.op_type == 'Gemm':
                trans_b = next((a.i for a in node.attribute if a.name == 'transB'), 0)
                axis = 0 if trans_b else 1
            else:
                axis = 1
            inputs[1], weight_scale = weight_dq(node, 1, axis, node.op_type == 'Conv')
            bias_index = 2
            if len(node.input) > bias_index and node.input[bias_index] in inits and \
                    numpy_helper.to_array(inits[node.input[bias_index]]).ndim == 1:
                inputs[bias_index] = bias_dq(node, bias_index, params[x][0], weight_scale)
        rewritten = helper.make_node(node.op_type, inputs, list(node.output), name=node.name,
                                     domain=node.domain)
        rewritten.attribute.extend(node.attribute)
        nodes.append(rewritten)
        for out in node.output:
            if out in params:
                nodes.append(helper.make_node('QuantizeLinear',
                                              [out, out + '_scale', out + '_zero_point'],
                                              [out + '_quantized']))
                nodes.append(helper.make_node('DequantizeLinear', [out + '_quantized',
                                                                   out + '_scale',
                                                                   out + '_zero_point'],
                                              [renamed[out]]))
    # Graph inputs that are quantized: their pair goes first.
    head = []
    for value in graph.input:
        if value.name in params:
            name = value.name
            head += [helper.make_node('QuantizeLinear', [name, name + '_scale',
                                                         name + '_zero_point'],
                                      [name + '_quantized']),
                     helper.make_node('DequantizeLinear', [name + '_quantized', name + '_scale',
                                                           name + '_zero_point'], [renamed[name]])]
    used = {name for n in head + nodes for name in n.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.node[:]
    graph.node.extend(head + nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept + [i for i in new_inits if i.name in used])
    if all(o.domain not in ('', 'ai.onnx') or o.version >= 13 for o in model.opset_import):
        pass
    else:
        sys.exit('the model imports ai.onnx below opset 13 (per-axis DequantizeLinear needs 13)')
    onnx.checker.check_model(model)
    onnx.save(model, args.out)


if __name__ == '__main__':
    main()
