#!/usr/bin/python3
"""Writes the com.microsoft QLinearAveragePool tests: numpy values computed as onnxruntime
computes them. Each window's dequantized values (float32(x_scale * (x - x_zero_point))) summed
in float32 in row-major order, divided by the taps inside the input or, with count_include_pad,
by the kernel size (even where a ceil_mode window reaches past the end padding), then
round_half_even(float32(mean / y_scale) + y_zero_point), saturated. A ceil_mode window that would
start past the input and its begin padding is dropped. SAME padding keeps onnxruntime's negative
pads for a kernel narrower than its stride. A window covering the whole unpadded image takes
onnxruntime's global average: round_half_even(float32(sum - size x_zero_point) *
float32(x_scale / float32(y_scale * size))) + y_zero_point.

Usage: T=test/providers/cpu/contrib/quantization/qlinear_average_pool_test.cc
       gen_qlinear_average_pool.py $T && clang-format -i $T
"""
import itertools

import numpy as np

from quantized_cases import Case, f32, main

rng = np.random.default_rng(47)


def geometry(spatial, kernel, strides, pads, ceil_mode, auto_pad):
    """Per axis: (begin pad, end pad, output size), as onnxruntime works them out."""
    result = []
    r = len(spatial)
    for i, (n, k, s) in enumerate(zip(spatial, kernel, strides)):
        begin, end = pads[i], pads[i + r]
        if auto_pad in ('SAME_UPPER', 'SAME_LOWER'):
            total = (-(-n // s) - 1) * s + k - n
            # C++ halves toward zero, also when a kernel narrower than its stride makes it < 0.
            half = total + (1 if auto_pad == 'SAME_LOWER' else 0)
            begin = int(half / 2)
            end = total - begin
        elif auto_pad == 'VALID':
            begin = end = 0
        span = n + begin + end - k
        out = span // s + 1
        if ceil_mode and span % s:
            out += 1
            if (out - 1) * s >= n + begin:
                out -= 1
        result.append((begin, end, out))
    return result


def reference(x, x_scale, x_zero, y_scale, y_zero, kernel, strides, pads, ceil_mode,
              count_include_pad, channels_last, auto_pad):
    t = x.dtype.type
    info = np.iinfo(t)
    if channels_last:
        x = np.moveaxis(x, -1, 1)
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    axes = geometry(spatial, kernel, strides, pads, ceil_mode, auto_pad)
    outs = [out for _, _, out in axes]
    if list(spatial) == list(kernel) and not any(begin or end for begin, end, _ in axes):
        size = int(np.prod(spatial))
        factor = f32(f32(x_scale) / f32(f32(y_scale) * f32(size)))
        centered = x.reshape(n, c, -1).astype(np.int64).sum(axis=2) - size * x_zero
        y = np.rint((centered.astype(f32) * factor).astype(f32)) + y_zero
        y = np.clip(y, info.min, info.max).astype(t).reshape(n, c, *outs)
    else:
        dequantized = (f32(x_scale) * (x.astype(np.int64) - x_zero).astype(f32)).astype(f32)
        y = np.zeros((n, c, *outs), t)
        for position in itertools.product(*(range(o) for o in outs)):
            window, count = [], 1
            for o, (begin, _, _), k, s, size in zip(position, axes, kernel, strides, spatial):
                start = o * s - begin
                first, last = max(start, 0), min(start + k, size)
                window.append(slice(first, last))
                count *= last - first
            if count_include_pad:
                count = int(np.prod(kernel))
            taps = dequantized[(slice(None), slice(None), *window)].reshape(n, c, -1)
            total = np.zeros((n, c), f32)
            for j in range(taps.shape[2]):
                total = (total + taps[:, :, j]).astype(f32)
            mean = (total / f32(count)).astype(f32)
            q = np.rint(((mean / f32(y_scale)).astype(f32) + f32(y_zero)).astype(f32))
            y[(slice(None), slice(None), *position)] = np.clip(q, info.min, info.max).astype(t)
    return np.moveaxis(y, 1, -1) if channels_last else y


def case(t, shape, kernel, strides=None, pads=None, ceil_mode=0, count_include_pad=0,
         channels_last=0, auto_pad=None, comment='', threads=1):
    info = np.iinfo(t)
    x = rng.integers(info.min, info.max + 1, size=shape).astype(t)
    rank = len(kernel)
    strides = strides or [1] * rank
    x_scale, y_scale = f32(rng.uniform(0.01, 0.05)), f32(rng.uniform(0.01, 0.05))
    x_zero, y_zero = (int(v) + (128 if t == np.uint8 else 0) for v in rng.integers(-40, 40, 2))
    attrs = {'kernel_shape': kernel, 'strides': strides}
    if pads is not None:
        attrs['pads'] = pads
    if auto_pad is not None:
        attrs['auto_pad'] = auto_pad
    for name, value in (('ceil_mode', ceil_mode), ('count_include_pad', count_include_pad),
                        ('channels_last', channels_last)):
        if value:
            attrs[name] = value
    y = reference(x, x_scale, x_zero, y_scale, y_zero, kernel, strides, pads or [0] * (2 * rank),
                  ceil_mode, count_include_pad, channels_last, auto_pad or 'NOTSET')
    return Case('QLinearAveragePool',
                [('X', x), ('x_scale', np.array(x_scale, f32)),
                 ('x_zero_point', np.array(x_zero, t)), ('y_scale', np.array(y_scale, f32)),
                 ('y_zero_point', np.array(y_zero, t))],
                y, attrs, comment=comment, threads=threads)


def failing(error, comment, attrs=None, **inputs):
    """A 2x2 pool of a uint8 [1, 2, 4, 4] with the attributes and inputs given replaced."""
    values = {'X': rng.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8),
              'x_scale': np.array(0.02, f32), 'x_zero_point': np.array(128, np.uint8),
              'y_scale': np.array(0.02, f32), 'y_zero_point': np.array(128, np.uint8)}
    values.update(inputs)
    return Case('QLinearAveragePool', list(values.items()),
                attrs={'kernel_shape': [2, 2], **(attrs or {})}, error=error, comment=comment)


u8, s8 = np.uint8, np.int8
sections = [
    ('QLinearAveragePool channels first', [
        case(u8, (1, 2, 4, 5), [2, 2], comment='2x2 windows, stride 1, no padding.'),
        case(s8, (2, 3, 5, 5), [3, 3], pads=[1, 1, 1, 1],
             comment='Padded, count_include_pad 0: edges divide by their taps.'),
        case(s8, (2, 3, 5, 5), [3, 3], pads=[1, 1, 1, 1], count_include_pad=1,
             comment='count_include_pad 1: every window divides by 9.'),
        case(u8, (1, 2, 6, 7), [3, 2], strides=[2, 3], pads=[1, 0, 0, 1],
             comment='Strides and uneven padding.'),
        case(u8, (1, 2, 6, 6), [3, 3], strides=[2, 2], ceil_mode=1, count_include_pad=1,
             comment='ceil_mode: a last window past the input, divided by 9 all the same.'),
        case(s8, (1, 1, 5, 5), [2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
             comment='ceil_mode: the window that would start in the end padding is dropped.'),
        case(s8, (2, 3, 9), [3], strides=[2], pads=[1, 0], comment='1-D.'),
        case(u8, (1, 2, 4, 5, 3), [2, 3, 2], strides=[2, 1, 1], pads=[1, 0, 1, 0, 1, 1],
             ceil_mode=1, count_include_pad=1, comment='3-D.'),
        case(u8, (2, 4, 11, 11), [3, 3], strides=[2, 2], pads=[1, 1, 1, 1], threads=4,
             comment='Over 4 threads.'),
    ]),
    ('QLinearAveragePool channels last', [
        case(u8, (2, 5, 5, 3), [3, 3], strides=[2, 2], pads=[1, 1, 1, 1], channels_last=1,
             comment='NHWC, padded and strided.'),
        case(s8, (1, 4, 6, 2), [2, 3], pads=[0, 1, 1, 1], count_include_pad=1, channels_last=1,
             comment='count_include_pad 1.'),
        case(s8, (2, 9, 4), [4], strides=[3], ceil_mode=1, channels_last=1, comment='1-D.'),
        case(u8, (1, 3, 4, 4, 5), [2, 2, 3], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1],
             channels_last=1, comment='3-D.'),
        case(u8, (3, 6, 6, 21), [2, 2], strides=[2, 2], channels_last=1, threads=4,
             comment='21 channels over 4 threads.'),
    ]),
    ('QLinearAveragePool auto_pad', [
        case(u8, (1, 2, 5, 6), [3, 2], strides=[2, 2], auto_pad='SAME_UPPER',
             comment='SAME_UPPER: the odd pad at the end.'),
        case(s8, (1, 2, 5, 6), [3, 2], strides=[2, 2], auto_pad='SAME_LOWER', count_include_pad=1,
             comment='SAME_LOWER: the odd pad at the start.'),
        case(u8, (1, 2, 7, 8), [1, 2], strides=[3, 3], auto_pad='SAME_UPPER', channels_last=1,
             comment='Kernel narrower than its stride: onnxruntime\'s negative pads shift\n'
                     'the windows right.'),
        case(s8, (1, 2, 8, 7), [1, 1], strides=[3, 3], auto_pad='SAME_LOWER',
             comment='Negative SAME_LOWER pads.'),
        case(u8, (1, 2, 5, 5), [2, 2], strides=[2, 2], pads=[1, 1, 1, 1], auto_pad='VALID',
             comment='VALID ignores pads.'),
    ]),
    ('QLinearAveragePool of a window covering the image', [
        case(u8, (2, 3, 4, 5), [4, 5], comment='onnxruntime\'s global average, channels first.'),
        case(s8, (2, 3, 3, 4), [3, 3], channels_last=1, comment='Channels last.'),
        case(s8, (1, 2, 6), [6], strides=[2], auto_pad='VALID', comment='1-D, VALID.'),
        case(u8, (1, 2, 3, 3), [3, 3], strides=[3, 3], auto_pad='SAME_UPPER',
             comment='SAME with strides as wide as the kernel pads nothing: global.'),
        case(u8, (2, 2, 3, 3), [3, 3], pads=[1, 0, 0, 0], comment='Padded: not global.'),
    ]),
    ('QLinearAveragePool rejects bad inputs', [
        failing('pads must be smaller', 'A pad as wide as the kernel.',
                attrs={'pads': [2, 0, 0, 0]}),
        failing('1 to 3 spatial dims', 'Four spatial dims.', attrs={'kernel_shape': [1, 1, 1, 1]}),
        failing('spatial dims', 'X of rank 3 for a 2-D kernel.',
                X=rng.integers(0, 256, (1, 2, 4)).astype(np.uint8)),
        failing('x_scale', 'x_scale of two values.', x_scale=np.array([0.1, 0.2], f32)),
        failing('y_scale', 'y_scale of zero.', y_scale=np.array(0, f32)),
        failing('y_zero_point', 'y_zero_point int8 for uint8 X.',
                y_zero_point=np.array(0, np.int8)),
        failing('exceeds', 'A kernel larger than the padded input.',
                attrs={'kernel_shape': [5, 5]}),
        failing('dilations', 'Dilations.', attrs={'dilations': [2, 2]}),
    ]),
]

if __name__ == '__main__':
    main(__file__, 'numpy values as onnxruntime computes QLinearAveragePool; see the script.',
         'QLinearAveragePool', sections)
