#!/usr/bin/python3
"""Writes the com.microsoft MatMulIntegerToFloat tests: numpy values computed as onnxruntime
computes them (the int32 product of A and B minus their zero points, wrapped to 32 bits; the
multiplier a_scale * b_scale[j] one float32 product; the sum converted to float32, multiplied,
then the bias added, each step rounded to float32), compared exactly.

Usage: T=test/providers/cpu/contrib/quantization/matmul_integer_to_float_test.cc
       gen_matmul_integer_to_float.py $T && clang-format -i $T
"""
import numpy as np

from quantized_cases import Case, f32, main

rng = np.random.default_rng(41)


def reference(a, b, a_scale, b_scale, a_zero, b_zero, bias):
    c = np.matmul(a.astype(np.int64) - int(a_zero), b.astype(np.int64) - b_zero.astype(np.int64))
    c = ((c + 2**31) % 2**32 - 2**31).astype(np.int32)
    y = c.astype(f32) * (f32(a_scale) * b_scale.astype(f32)).astype(f32)
    return y if bias is None else (y + bias).astype(f32)


def operand(t, shape):
    info = np.iinfo(t)
    return rng.integers(info.min, info.max + 1, size=shape).astype(t)


def case(ta, tb, a_shape, b_shape, per_column=False, zero_points=True, bias=True, constant_b=False,
         comment='', threads=1, ort=True):
    n = b_shape[-1]
    a, b = operand(ta, a_shape), operand(tb, b_shape)
    a_scale = np.array(rng.uniform(0.001, 0.05), f32)
    b_scale = rng.uniform(0.001, 0.05, n if per_column else ()).astype(f32)
    a_zero = operand(ta, ()) if zero_points else None
    b_zero = operand(tb, n if per_column else ()) if zero_points else None
    bias_values = (rng.standard_normal(n) * 4).astype(f32) if bias else None
    y = reference(a, b, a_scale, b_scale, a_zero if zero_points else 0,
                  b_zero if zero_points else np.zeros((), np.int64), bias_values)
    return Case('MatMulIntegerToFloat',
                [('A', a), ('B', b), ('a_scale', a_scale), ('b_scale', b_scale),
                 ('a_zero_point', a_zero), ('b_zero_point', b_zero), ('bias', bias_values)],
                y, constant=['B'] if constant_b else [], comment=comment, threads=threads, ort=ort)


def failing(error, comment, **inputs):
    """A uint8 x int8 [2, 3] x [3, 4] product with the inputs given replaced."""
    values = {'A': operand(np.uint8, (2, 3)), 'B': operand(np.int8, (3, 4)),
              'a_scale': np.array(0.02, f32), 'b_scale': np.array(0.03, f32),
              'a_zero_point': None, 'b_zero_point': None, 'bias': None}
    values.update(inputs)
    return Case('MatMulIntegerToFloat', list(values.items()), error=error, comment=comment)


u8, s8 = np.uint8, np.int8
sections = [
    ('MatMulIntegerToFloat with per-tensor scales and zero points', [
        case(u8, s8, (3, 5), (5, 4), comment='uint8 A, int8 B, bias.'),
        case(u8, s8, (3, 5), (5, 4), constant_b=True, comment='B constant: packed at Init.'),
        case(u8, u8, (4, 6), (6, 3), bias=False, comment='uint8 x uint8, no bias.'),
        case(s8, s8, (2, 7), (7, 5), zero_points=False, comment='int8 x int8, no zero points.'),
        case(s8, u8, (3, 4), (4, 2), ort=False,
             comment='int8 A by uint8 B: this engine only (onnxruntime has no kernel for it).'),
    ]),
    ('MatMulIntegerToFloat with per-column b_scale and b_zero_point', [
        case(u8, s8, (3, 6), (6, 5), per_column=True, comment='B given at run time.'),
        case(u8, u8, (3, 6), (6, 5), per_column=True, constant_b=True,
             comment='B constant: its zero points packed with it.'),
        case(s8, s8, (4, 9), (9, 7), per_column=True, bias=False, constant_b=True,
             comment='int8 x int8, no bias.'),
    ]),
    ('MatMulIntegerToFloat batches and broadcasts as numpy.matmul', [
        case(u8, s8, (2, 3, 5), (5, 4), per_column=True, constant_b=True,
             comment='Batched A by a constant B: one product over every batch\'s rows.'),
        case(u8, s8, (2, 1, 3, 5), (3, 5, 4), comment='[2, 1] x [3] batches broadcast to [2, 3].'),
        case(s8, s8, (3, 4, 6), (3, 6, 2), bias=False, comment='A batch of B matrices.'),
        case(u8, u8, (5,), (5, 3), comment='1-D A: a row vector, the added dim dropped.'),
        case(u8, s8, (2, 4, 5), (5,), bias=False, comment='1-D B: a column vector.'),
        case(u8, s8, (37, 40), (40, 41), per_column=True, constant_b=True, threads=4,
             comment='Several blocks and partial ones, over 4 threads.'),
        case(s8, s8, (2, 19, 12), (2, 12, 17), threads=4, comment='Batches over 4 threads.'),
    ]),
    ('MatMulIntegerToFloat rejects bad inputs', [
        failing('a_scale', 'a_scale per row of A: not supported.',
                a_scale=np.array([0.1, 0.2], f32)),
        failing('a_scale', 'a_scale of the wrong type.', a_scale=np.array(1, np.int32)),
        failing('b_scale', 'b_scale neither 1 nor N values.', b_scale=np.ones(3, f32)),
        failing('b_zero_point', 'b_zero_point of another type than B.',
                b_zero_point=np.array(0, np.uint8)),
        failing('b_zero_point', 'b_zero_point neither 1 nor N values.',
                b_zero_point=np.zeros(2, np.int8)),
        failing('a_zero_point', 'a_zero_point per row of A.',
                a_zero_point=np.zeros(2, np.uint8)),
        failing('bias', 'bias of the wrong length.', bias=np.zeros(3, f32)),
        failing('inner dimensions differ', 'A [2, 3] by B [4, 4].', B=operand(np.int8, (4, 4))),
    ]),
]

if __name__ == '__main__':
    main(__file__, 'numpy values as onnxruntime computes MatMulIntegerToFloat; see the script.',
         'MatMulIntegerToFloat', sections)
