#!/usr/bin/python3
"""Writes the com.microsoft QLinearSoftmax tests: numpy values computed as onnxruntime computes
them. A table of float32(exp((d + shift) * X_scale)) for d = x - max(row) in [-255, 0], the
shift (max(0, logf(FLT_MAX / length) - 5) / X_scale) keeping a row's sum finite, logf in float and
the rest in double with C's exp; each row summed in float32 in axis order; then
round_half_even(float32(table * floor(1 / y_scale)) / sum) + y_zero_point, saturated. Where that
product overflows (a tiny y_scale) onnxruntime's result is undefined and the kernel divides in
double instead. Rows are the flattened [outer, rest] before opset 13, the one axis from 13; an
absent axis is -1 for every opset (the schema's default, which onnxruntime applies).

Usage: T=test/providers/cpu/contrib/quantization/qlinear_softmax_test.cc
       gen_qlinear_softmax.py $T && clang-format -i $T
"""
import math

import numpy as np

from quantized_cases import Case, f32, logf, main

rng = np.random.default_rng(43)


def exp_table(x_scale, length):
    largest = f32(np.finfo(f32).max / f32(length))
    shift = max(0.0, float(logf(largest)) - 5.0) / float(x_scale)
    return np.array([math.exp((d + shift) * float(x_scale)) for d in range(-255, 1)], f32)


def reference(x, x_scale, y_scale, y_zero, axis, opset):
    t = x.dtype.type
    axis %= x.ndim
    if opset < 13:
        rows = x.reshape(int(np.prod(x.shape[:axis])), -1)
    else:
        rows = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    table = exp_table(x_scale, rows.shape[1])
    y_factor = np.floor(f32(1) / f32(y_scale))
    values = rows.astype(np.int64)
    e = table[255 + values - values.max(axis=1, keepdims=True)]
    sums = np.add.accumulate(e, axis=1, dtype=f32)[:, -1:]
    with np.errstate(over='ignore'):
        product = (e * y_factor).astype(f32)
    share = np.where(np.isinf(product), (e.astype(np.float64) * y_factor / sums).astype(f32),
                     product / sums)
    info = np.iinfo(t)
    y = np.clip(np.rint(share) + y_zero, info.min, info.max).astype(t)
    if opset < 13:
        return y.reshape(x.shape)
    moved = list(x.shape)
    moved.append(moved.pop(axis))
    return np.moveaxis(y.reshape(moved), -1, axis)


def values(t, shape, spread=256):
    info = np.iinfo(t)
    low = int(rng.integers(info.min, info.max - spread + 2))
    return rng.integers(low, low + spread, size=shape).clip(info.min, info.max).astype(t)


def case(x, opset, axis=None, x_scale=0.03, y_scale=1 / 256, y_zero=None, comment='', threads=1,
         ort=True):
    t = x.dtype.type
    if y_zero is None:
        y_zero = 0 if t == np.uint8 else -128
    attrs = {'opset': opset}
    if axis is not None:
        attrs['axis'] = axis
    y = reference(x, f32(x_scale), f32(y_scale), y_zero, -1 if axis is None else axis, opset)
    return Case('QLinearSoftmax',
                [('X', x), ('X_scale', np.array(x_scale, f32)),
                 ('x_zero_point', np.array(int(rng.integers(-20, 20)) + (128 if t == np.uint8
                                                                          else 0), t)),
                 ('y_scale', np.array(y_scale, f32)), ('y_zero_point', np.array(y_zero, t))],
                y, attrs, comment=comment, threads=threads, ort=ort)


def failing(error, comment, attrs=None, **inputs):
    """Opset 13 over a uint8 [2, 3] with the attributes and inputs given replaced."""
    values_ = {'X': values(np.uint8, (2, 3)), 'X_scale': np.array(0.1, f32),
               'x_zero_point': np.array(128, np.uint8), 'y_scale': np.array(1 / 256, f32),
               'y_zero_point': np.array(0, np.uint8)}
    values_.update(inputs)
    return Case('QLinearSoftmax', list(values_.items()), attrs={'opset': 13, **(attrs or {})},
                error=error, comment=comment)


u8, s8 = np.uint8, np.int8
dominant = np.array([[127, -128, 0, -50], [20, 21, 22, 23]], s8)
sections = [
    ('QLinearSoftmax along the last axis (opset 13)', [
        case(values(u8, (2, 5)), 13,
             comment='uint8, y_scale 1/256: the quantizer\'s output range; axis absent: -1.'),
        case(values(s8, (3, 7)), 13, axis=-1, x_scale=0.05, comment='int8, y_zero_point -128.'),
        case(dominant, 13, x_scale=0.5,
             comment='A row of one dominant value: its 256 - 128 saturates to 127.'),
        case(values(u8, (2, 300), spread=40), 13, x_scale=0.1, y_scale=1 / 255,
             comment='Long rows; floor(1 / y_scale) is 254 for y_scale 1/255 in float.'),
        case(values(s8, (1, 9)), 13, x_scale=0.03, y_scale=0.01, y_zero=-100,
             comment='Another y_scale and zero point.'),
        case(values(u8, (24, 40)), 13, threads=4, comment='Rows over 4 threads.'),
        case(values(u8, (2, 3)), 13, x_scale=0.02, y_scale=0.001,
             comment='table x floor(1 / y_scale) overflows float: onnxruntime\'s result is\n'
                     'undefined (0 for the largest); the kernel divides in double.', ort=False),
    ]),
    ('QLinearSoftmax along another axis (opset 13)', [
        case(values(u8, (2, 3, 4)), 13, axis=1, comment='Axis 1 of [2, 3, 4].'),
        case(values(s8, (3, 4, 2)), 13, axis=0, x_scale=0.2, comment='Axis 0.'),
        case(values(u8, (2, 5, 70)), 13, axis=-2, threads=4,
             comment='70 positions after the axis: one full block of lanes and a partial one.'),
    ]),
    ('QLinearSoftmax flattened at the axis (opset < 13)', [
        case(values(u8, (2, 3, 4)), 12, axis=1, comment='Opset 12, axis 1: rows of 12.'),
        case(values(s8, (2, 2, 3)), 11,
             comment='Opset 11, axis absent: -1 (the schema\'s), not the old Softmax\'s 1.'),
        case(values(u8, (3, 2, 2)), 1, axis=-1, x_scale=0.3,
             comment='Opset 1, axis -1: rows of 2.'),
        case(values(s8, (2, 3)), 12, axis=0, x_scale=0.02, comment='Axis 0: one row of all 6.'),
    ]),
    ('QLinearSoftmax rejects bad inputs', [
        Case('QLinearSoftmax', [('X', values(u8, (2, 3))), ('X_scale', np.array(0.1, f32)),
                                ('x_zero_point', None), ('y_scale', np.array(1 / 256, f32))],
             error="'opset'", comment='No opset attribute.'),
        failing('X_scale', 'X_scale of two values.', X_scale=np.array([0.1, 0.2], f32)),
        failing('X_scale', 'X_scale of zero.', X_scale=np.array(0, f32)),
        failing('y_scale', 'y_scale negative.', y_scale=np.array(-0.5, f32)),
        failing('y_scale', 'y_scale whose reciprocal overflows.', y_scale=np.array(1e-39, f32)),
        failing('y_zero_point', 'y_zero_point int8 for uint8 X.',
                y_zero_point=np.array(0, np.int8)),
        failing('x_zero_point', 'x_zero_point of two values.',
                x_zero_point=np.array([1, 2], np.uint8)),
        failing('axis', 'axis out of range.', attrs={'axis': 2}),
    ]),
]

if __name__ == '__main__':
    main(__file__, 'numpy values as onnxruntime computes QLinearSoftmax; see the script.',
         'QLinearSoftmax', sections)
