#!/usr/bin/python3
"""Runs one-node models of com.microsoft QAttention and DynamicQuantizeLSTM on random inputs
through onnxruntime-node (tools/suite/ort_reference.js), the numpy references of common.py (which
gen_qattention.py and gen_dynamic_quantize_lstm.py write the tests from) and, given its path,
`ort run`, and prints the largest absolute difference of every output from onnxruntime's. For
DynamicQuantizeLSTM it adds lstm_ref's emulation of onnxruntime's uint8 quantization of X and H,
which accounts for the float reference's (and this engine's) difference.

Usage: crosscheck_quantized.py [BUILD/apps/ort/ort] [WORK_DIR]
       (ORT_NODE_MODULES may name the node_modules holding onnxruntime-node; suite/ is the default)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

from common import dequantize_lstm_weights, lstm_ref, qattention_ref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORT = sys.argv[1] if len(sys.argv) > 1 else None
WORK = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix='crosscheck_quantized_')
TYPES = {np.dtype('float32'): TensorProto.FLOAT, np.dtype('int32'): TensorProto.INT32,
         np.dtype('uint8'): TensorProto.UINT8, np.dtype('int8'): TensorProto.INT8}
rng = np.random.default_rng(2027)


def run_case(name, op, inputs, expected, emulated=None, **attrs):
    """inputs: [(name, array or None)] in the op's input order; expected: {output: numpy array};
    emulated: the same for a numpy emulation of onnxruntime's arithmetic, when not `expected`."""
    folder = os.path.join(WORK, ''.join(c if c.isalnum() else '_' for c in name))
    os.makedirs(folder, exist_ok=True)
    feeds, infos = [], []
    for input_name, array in inputs:
        if array is None:
            continue
        path = os.path.join(folder, input_name + '.npy')
        np.save(path, array)
        feeds += ['--input', f'{input_name}={path}']
        infos.append(helper.make_tensor_value_info(input_name, TYPES[array.dtype], array.shape))
    outputs = list(expected)
    node = helper.make_node(op, [n if a is not None else '' for n, a in inputs], outputs,
                            domain='com.microsoft', **attrs)
    graph = helper.make_graph([node], name, infos,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                               for o in outputs if o])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17),
                                                    helper.make_opsetid('com.microsoft', 1)])
    model.ir_version = 8
    model_path = os.path.join(folder, 'model.onnx')
    onnx.save(model, model_path)
    theirs = os.path.join(folder, 'reference')
    env = dict(os.environ)
    env.setdefault('ORT_NODE_MODULES', os.path.join(ROOT, 'suite', 'node_modules'))
    subprocess.run(['node', os.path.join(ROOT, 'tools', 'suite', 'ort_reference.js'), model_path,
                    *feeds, '--output-dir', theirs], check=True, capture_output=True, env=env)
    ours = os.path.join(folder, 'ort')
    if ORT:
        subprocess.run([ORT, 'run', model_path, *feeds, '--output-dir', ours, '--output-format',
                        'npy'], check=True, capture_output=True)
    for output in filter(None, outputs):
        b = np.load(os.path.join(theirs, output + '.npy')).astype(np.float64)
        line = f'{name:<44} {output:<8} {str(list(b.shape)):<18}'
        line += f' numpy {np.abs(expected[output] - b).max():.3g}'
        if emulated:
            line += f'  numpy-emulated {np.abs(emulated[output] - b).max():.3g}'
        if ORT:
            a = np.load(os.path.join(ours, output + '.npy'))
            line += f'  ort {np.abs(a - b).max() if a.shape == b.shape else float("inf"):.3g}'
        print(line)


def qattention(name, x, w, bias, x_scale, w_scale, heads, x_zero=None, w_zero=None, mask=None,
               past=None, present=False, **attrs):
    out, pres = qattention_ref(x, w, bias, x_scale, w_scale, heads,
                               0 if x_zero is None else x_zero, 0 if w_zero is None else w_zero,
                               mask, past, attrs.get('unidirectional', 0), attrs.get('scale', 0.0),
                               attrs.get('mask_filter_value', -10000.0))
    expected = {'output': out}
    if present:
        expected['present'] = pres
    run_case(name, 'QAttention',
             [('input', x), ('weight', w), ('bias', bias), ('input_scale', x_scale),
              ('weight_scale', w_scale), ('mask_index', mask), ('input_zero_point', x_zero),
              ('weight_zero_point', w_zero), ('past', past)], expected, num_heads=heads, **attrs)


def u8(*shape):
    return rng.integers(0, 256, shape).astype(np.uint8)


def s8(*shape):
    return rng.integers(-127, 128, shape).astype(np.int8)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


B, S, D, N, H, P = 2, 5, 16, 4, 4, 3
hidden = N * H
x, bias = u8(B, S, D), f32(3 * hidden)
xs, xz = np.array(0.02, np.float32), np.array(120, np.uint8)
ws = np.array(0.01, np.float32)
ws_col = rng.uniform(0.005, 0.02, 3 * hidden).astype(np.float32)
w8, wu = s8(D, 3 * hidden), u8(D, 3 * hidden)
qattention('u8/s8 per tensor', x, w8, bias, xs, ws, N, x_zero=xz)
qattention('u8/s8 per column', x, w8, bias, xs, ws_col, N, x_zero=xz)
qattention('u8/u8 zero point 128', x, wu, bias, xs, ws, N, x_zero=xz,
           w_zero=np.array(128, np.uint8))
qattention('u8/u8 per-column scales and zero points', x, wu, bias, xs, ws_col, N, x_zero=xz,
           w_zero=rng.integers(100, 156, 3 * hidden).astype(np.uint8))
qattention('key lengths [B]', x, w8, bias, xs, ws, N, x_zero=xz, mask=np.array([3, 5], np.int32))
qattention('end/start [2B]', x, w8, bias, xs, ws, N, x_zero=xz,
           mask=np.array([4, 5, 1, 2], np.int32))
raw = (rng.random((B, S)) > 0.3).astype(np.int32)
qattention('raw [B,S], unidirectional', x, w8, bias, xs, ws, N, x_zero=xz, mask=raw,
           unidirectional=1)
qattention('raw [B,S,S], scale, filter -1', x, w8, bias, xs, ws, N, x_zero=xz,
           mask=(rng.random((B, S, S)) > 0.3).astype(np.int32), scale=0.3, mask_filter_value=-1.0)
qattention('dummy [B,1]', x, w8, bias, xs, ws, N, x_zero=xz, mask=np.ones((B, 1), np.int32))
past = f32(2, B, N, P, H)
qattention('past, present, unidirectional', x, w8, bias, xs, ws, N, x_zero=xz, past=past,
           present=True, unidirectional=1)
qattention('past, raw [B,P+S]', x, w8, bias, xs, ws, N, x_zero=xz, past=past, present=True,
           mask=(rng.random((B, P + S)) > 0.3).astype(np.int32))
qattention('past, key lengths', x, w8, bias, xs, ws, N, x_zero=xz, past=past, present=True,
           mask=np.array([6, 8], np.int32))
qattention('past, decode S=1', x[:, :1], w8, bias, xs, ws, N, x_zero=xz, past=past,
           present=True, unidirectional=1)
qattention('present without past', x, w8, bias, xs, ws, N, x_zero=xz, present=True)
# Long enough for blocks of query rows and untiled heads, wide enough for several GEMM blocks.
B, S, D, N, H = 2, 70, 96, 6, 16
qattention('S=70, D=96, 6 heads of 16, unidirectional, lengths', u8(B, S, D), s8(D, 3 * N * H),
           f32(3 * N * H), np.array(0.01, np.float32), np.array(0.004, np.float32), N,
           x_zero=xz, mask=np.array([70, 41], np.int32), unidirectional=1)


def dq_lstm(name, x, w, r, w_scale, w_zero, r_scale, r_zero, b=None, lengths=None, h0=None,
            c0=None, p=None, direction='forward'):
    wf = dequantize_lstm_weights(w, w_scale, w_zero)
    rf = dequantize_lstm_weights(r, r_scale, r_zero)
    y, yh, yc = lstm_ref(x, wf, rf, b, lengths, h0, c0, p, direction)
    qy, qyh, qyc = lstm_ref(x, wf, rf, b, lengths, h0, c0, p, direction, quantized=True)
    run_case(name, 'DynamicQuantizeLSTM',
             [('X', x), ('W', w), ('R', r), ('B', b), ('sequence_lens', lengths),
              ('initial_h', h0), ('initial_c', c0), ('P', p), ('W_scale', w_scale),
              ('W_zero_point', w_zero), ('R_scale', r_scale), ('R_zero_point', r_zero)],
             {'Y': y, 'Y_h': yh, 'Y_c': yc}, {'Y': qy, 'Y_h': qyh, 'Y_c': qyc},
             hidden_size=r.shape[1], direction=direction)


S, B, I, H = 6, 3, 10, 8
for d, direction in ((1, 'forward'), (1, 'reverse'), (2, 'bidirectional')):
    x = f32(S, B, I)
    w, r = s8(d, I, 4 * H), s8(d, H, 4 * H)
    ws, rs = np.full(d, 0.01, np.float32), np.full(d, 0.015, np.float32)
    zero = np.zeros(d, np.int8)
    dq_lstm(f'{direction} s8 per tensor', x, w, r, ws, zero, rs, zero, direction=direction)
    dq_lstm(f'{direction} s8 per channel, B, states, lengths', x, w, r,
            rng.uniform(0.005, 0.015, (d, 4 * H)).astype(np.float32), np.zeros((d, 4 * H), np.int8),
            rng.uniform(0.01, 0.02, (d, 4 * H)).astype(np.float32), np.zeros((d, 4 * H), np.int8),
            b=f32(d, 8 * H, scale=0.5), lengths=np.array([6, 3, 1], np.int32),
            h0=f32(d, B, H, scale=0.5), c0=f32(d, B, H, scale=0.5), direction=direction)
    wu, ru = u8(d, I, 4 * H), u8(d, H, 4 * H)
    dq_lstm(f'{direction} u8 zero point 128, peepholes', x, wu, ru, ws, np.full(d, 128, np.uint8),
            rs, np.full((d, 4 * H), 128, np.uint8), b=f32(d, 8 * H, scale=0.5),
            p=f32(d, 3 * H, scale=0.5), direction=direction)
