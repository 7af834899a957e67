#!/usr/bin/python3
"""Writes the QLinearConv tests (numpy reference values: an int64 convolution of the
zero-point-shifted integers, the int32 bias, then float32 requantization rounded half to even).

Usage: gen_qlinear_conv.py test/providers/cpu/nn/qlinear_conv_test.cc && clang-format -i ...
"""
import sys
import numpy as np

rng = np.random.default_rng(11)
C_TYPES = {np.uint8: 'uint8_t', np.int8: 'int8_t', np.int32: 'int32_t'}


def ints(shape, dtype):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)


def conv(x, w, pads, strides, dil, group):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, m, oh, ow), dtype=np.int64)
    mg = m // group
    for b in range(n):
        for f in range(m):
            g = f // mg
            for i in range(oh):
                for j in range(ow):
                    patch = xp[b, g * cg:(g + 1) * cg,
                               i * strides[0]:i * strides[0] + dil[0] * (kh - 1) + 1:dil[0],
                               j * strides[1]:j * strides[1] + dil[1] * (kw - 1) + 1:dil[1]]
                    y[b, f, i, j] = np.sum(patch * w[f])
    return y


def literal(a):
    return '{' + ', '.join(str(int(v)) for v in np.asarray(a).ravel()) + '}'


def floats(a):
    return '{' + ', '.join('%.9gf' % np.float32(v) for v in np.asarray(a).ravel()) + '}'


def dims(a):
    return '{' + ', '.join(str(d) for d in np.shape(a)) + '}'


def near_middle(shape, dtype):
    """Zero points near the middle of the range, as calibration gives for centred data."""
    middle = 128 if dtype == np.uint8 else 0
    return (middle + rng.integers(-20, 21, size=shape)).astype(dtype)


def case(title, xs, ws, xt, wt, yt, pads=(0, 0, 0, 0), strides=(1, 1), dil=(1, 1), group=1,
         per_channel=True, bias=True, constant_w=True, threads=0, channels_last=False,
         symmetric=False):
    x = ints(xs, xt)
    w = ints(ws, wt)
    m = ws[0]
    x_zero = near_middle((), xt)
    w_zero = near_middle((m,) if per_channel else (), wt)
    if symmetric:
        w_zero = np.zeros_like(w_zero)
    x_scale = np.float32(rng.uniform(0.01, 0.05))
    w_scale = rng.uniform(0.002, 0.02, size=(m,) if per_channel else ()).astype(np.float32)
    b = rng.integers(-40000, 40000, size=(m,)).astype(np.int32) if bias else None
    wz = w_zero.astype(np.int64).reshape(-1, 1, 1, 1) if per_channel else np.int64(w_zero)
    acc = conv(x.astype(np.int64) - np.int64(x_zero), w.astype(np.int64) - wz, pads, strides,
               dil, group)
    if b is not None:
        acc = acc + b.astype(np.int64).reshape(1, -1, 1, 1)
    # Outputs spread over about +-100 steps around the zero point, a few saturating.
    y_scale = np.float32(x_scale * np.float32(np.max(w_scale)) * np.float32(np.std(acc) / 50))
    y_zero = near_middle((), yt)
    multiplier = (x_scale * np.asarray(w_scale, dtype=np.float32)) / y_scale
    multiplier = np.asarray(multiplier, dtype=np.float32).reshape(-1, 1, 1) if per_channel \
        else np.float32(multiplier)
    scaled = acc.astype(np.int32).astype(np.float32) * multiplier
    info = np.iinfo(yt)
    y = np.clip(np.rint(np.clip(scaled, info.min - int(y_zero), info.max - int(y_zero))) +
                int(y_zero), info.min, info.max).astype(yt)
    xc, wc, yc = C_TYPES[xt], C_TYPES[wt], C_TYPES[yt]
    if channels_last:
        # com.microsoft QLinearConv reads X and writes Y as [N, H, W, C].
        x, y = x.transpose(0, 2, 3, 1), y.transpose(0, 2, 3, 1)
        s = f'\n  // {title}\n  OpTester("QLinearConv", 1, "com.microsoft")'
        s += '\n      .AttrInt("channels_last", 1)'
    else:
        s = f'\n  // {title}\n  OpTester("QLinearConv", 10)'
    if any(pads): s += f'\n      .AttrInts("pads", {literal(pads)})'
    if strides != (1, 1): s += f'\n      .AttrInts("strides", {literal(strides)})'
    if dil != (1, 1): s += f'\n      .AttrInts("dilations", {literal(dil)})'
    if group != 1: s += f'\n      .AttrInt("group", {group})'
    if threads: s += f'\n      .Threads({threads})'
    kind = 'ConstantInput' if constant_w else 'Input'
    s += f'\n      .Input<{xc}>("x", {dims(x)}, {literal(x)})'
    s += f'\n      .Input<float>("x_scale", {{}}, {floats([x_scale])})'
    s += f'\n      .Input<{xc}>("x_zero_point", {{}}, {literal([x_zero])})'
    s += f'\n      .{kind}<{wc}>("w", {dims(w)}, {literal(w)})'
    s += f'\n      .Input<float>("w_scale", {dims(w_scale)}, {floats(w_scale)})'
    s += f'\n      .{kind}<{wc}>("w_zero_point", {dims(w_zero)}, {literal(np.ravel(w_zero))})'
    s += f'\n      .Input<float>("y_scale", {{}}, {floats([y_scale])})'
    s += f'\n      .Input<{yc}>("y_zero_point", {{}}, {literal([y_zero])})'
    if b is not None: s += f'\n      .Input<int32_t>("b", {dims(b)}, {literal(b)})'
    s += f'\n      .Output<{yc}>("y", {dims(y)}, {literal(y)})\n      .Run();'
    return s


u8, s8 = np.uint8, np.int8
cases = [
    ('3x3, padding 1, per-channel weights, two images: packed filters, channels-last',
     dict(xs=(2, 5, 6, 7), ws=(7, 5, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1))),
    ('the same filters as a non-constant input: the im2col path',
     dict(xs=(2, 5, 6, 7), ws=(7, 5, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          constant_w=False)),
    ('stride 2, dilation 2, uneven padding, two groups, int8 X and output, uint8 weights',
     dict(xs=(1, 6, 9, 8), ws=(4, 3, 2, 3), xt=s8, wt=u8, yt=s8, pads=(2, 1, 0, 3),
          strides=(2, 2), dil=(2, 2), group=2)),
    ('1x1 over 33 channels to 20 filters (a column tail), per-tensor weights, no bias',
     dict(xs=(1, 33, 5, 3), ws=(20, 33, 1, 1), xt=u8, wt=s8, yt=s8, per_channel=False,
          bias=False)),
    ('3x3 at two threads, 40 filters over 12 x 11',
     dict(xs=(1, 8, 12, 11), ws=(40, 8, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          threads=2)),
    ('depthwise 3x3, stride 2, padding 1',
     dict(xs=(2, 4, 7, 6), ws=(4, 1, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          strides=(2, 2), group=4)),
    ('depthwise 5x5 with int8 X and per-tensor uint8 weights',
     dict(xs=(1, 3, 6, 6), ws=(3, 1, 5, 5), xt=s8, wt=u8, yt=s8, pads=(2, 2, 2, 2), group=3,
          per_channel=False)),
    ('depthwise 3x3 at unit strides, dilation 2, uneven padding',
     dict(xs=(2, 5, 9, 7), ws=(5, 1, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 0, 3, 2),
          dil=(2, 2), group=5)),
    ('depthwise 3x3 over 83 channels: a block of 64 and a partial one, int8 X and output',
     dict(xs=(1, 83, 5, 6), ws=(83, 1, 3, 3), xt=s8, wt=s8, yt=s8, pads=(1, 1, 1, 1),
          group=83)),
]

channels_last_cases = [
    ('channels-last 3x3, padding 1, two images: packed filters, no transposes',
     dict(xs=(2, 5, 6, 7), ws=(7, 5, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1))),
    ('channels-last with non-constant filters: im2col between transposes',
     dict(xs=(2, 5, 6, 7), ws=(7, 5, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          constant_w=False)),
    ('channels-last, two groups writing interleaved filter columns, int8 X and output',
     dict(xs=(1, 6, 9, 8), ws=(4, 3, 2, 3), xt=s8, wt=u8, yt=s8, pads=(2, 1, 0, 3),
          strides=(2, 2), dil=(2, 2), group=2)),
    ('channels-last depthwise 3x3, stride 2, padding 1',
     dict(xs=(2, 4, 7, 6), ws=(4, 1, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          strides=(2, 2), group=4)),
    ('channels-last depthwise 5x5 over 70 channels, stride 2, a window wider than the image',
     dict(xs=(1, 70, 4, 3), ws=(70, 1, 5, 5), xt=u8, wt=s8, yt=u8, pads=(2, 2, 2, 2),
          strides=(2, 2), group=70)),
    ('channels-last 1x1 over two images at two threads: the batch as one product of many tasks',
     dict(xs=(2, 72, 4, 5), ws=(80, 72, 1, 1), xt=u8, wt=s8, yt=u8, threads=2)),
    ('channels-last depthwise over three images at two threads: 130 channels in chunks',
     dict(xs=(3, 130, 3, 4), ws=(130, 1, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          group=130, threads=2)),
    ('channels-last depthwise over 100 channels with symmetric int8 weights: byte products',
     dict(xs=(2, 100, 4, 9), ws=(100, 1, 3, 3), xt=u8, wt=s8, yt=u8, pads=(1, 1, 1, 1),
          group=100, symmetric=True)),
    ('channels-last depthwise, symmetric weights, stride 2 into int8 outputs',
     dict(xs=(1, 64, 6, 11), ws=(64, 1, 3, 3), xt=u8, wt=s8, yt=s8, pads=(1, 1, 1, 1),
          strides=(2, 2), group=64, symmetric=True)),
]

body = ''.join(case(title, **kw) for title, kw in cases)
channels_last_body = ''.join(case(title, channels_last=True, **kw)
                             for title, kw in channels_last_cases)
text = f'''// Generated by tools/contrib_kernel_tests/gen_qlinear_conv.py: numpy int64 convolutions of
// the zero-point-shifted integers, plus the bias, requantized in float32 (round half to even).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {{

TEST_CASE("QLinearConv over every path: packed channels-last, im2col and depthwise",
          "[nn][QLinearConv]") {{{body}
}}

TEST_CASE("com.microsoft QLinearConv reads and writes channels-last", "[nn][QLinearConv]") {{{channels_last_body}
}}

}}  // namespace ort::test
'''
open(sys.argv[1], 'w').write(text)
