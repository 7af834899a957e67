#!/usr/bin/python3
"""Writes the com.microsoft.nchwc kernel tests (numpy reference values in NCHW; the tests block
them for the CPU's block size through test/providers/cpu/contrib/nchwc/nchwc_test_util.h).

Usage: gen_nchwc.py test/providers/cpu/contrib/nchwc && clang-format -i test/providers/cpu/contrib/nchwc/*_test.cc
"""
import sys
from common import *

def conv2d(x, w, b=None, pads=(0, 0, 0, 0), strides=(1, 1), dil=(1, 1), group=1):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // group
    for g in range(group):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * dil[0]: i * dil[0] + strides[0] * (oh - 1) + 1: strides[0],
                           j * dil[1]: j * dil[1] + strides[1] * (ow - 1) + 1: strides[1]]
                y[:, g * mg:(g + 1) * mg] += np.einsum('nchw,mc->nmhw', patch, w[g * mg:(g + 1) * mg, :, i, j])
    if b is not None: y += b.reshape(1, -1, 1, 1)
    return y

acts = {
    '': (lambda y, p: y, 0.0),
    'Relu': (lambda y, p: np.maximum(y, 0), 0.0),
    'Sigmoid': (lambda y, p: sigmoid(y), 0.5),
    'Clip': (lambda y, p: np.clip(y, p[0], p[1]), None),
    'LeakyRelu': (lambda y, p: np.where(y < 0, p[0] * y, y), 0.0),
}

def ints(v): return '{' + ', '.join(map(str, v)) + '}'

def vec(name, a): return f'  c.{name} = {arr(a)};\n'

def conv_case(form, xs, ws, act='', params=(), bias=True, z=False, pads=(0, 0, 0, 0),
              strides=(1, 1), dil=(1, 1), threads=0, group=1, atol=None):
    x = vals(xs); w = vals(ws, scale=4, lo=-4, hi=5); b = vals((ws[0],)) if bias else None
    group = xs[1] if form == 'kDepthwise' else group
    y = conv2d(x, w, b, pads, strides, dil, group)
    zt = vals(y.shape) if z else None
    if z: y = y + zt
    fn, pad = acts[act]
    y = fn(y, params)
    if pad is None: pad = float(np.clip(0.0, params[0], params[1]))
    attrs = []
    if act: attrs.append(f'.AttrString("activation", "{act}")')
    if params: attrs.append(f'.AttrFloats("activation_params", {arr(params)})')
    if any(pads): attrs.append(f'.AttrInts("pads", {ints(pads)})')
    if strides != (1, 1): attrs.append(f'.AttrInts("strides", {ints(strides)})')
    if dil != (1, 1): attrs.append(f'.AttrInts("dilations", {ints(dil)})')
    if form != 'kDepthwise' and group > 1: attrs.append(f'.AttrInt("group", {group})')
    s = '  {\n    NchwcConvCase c;\n'
    s += f'    c.form = ConvForm::{form};\n'
    s += f'    c.x_dims = {dims(x)};\n  ' + vec('x', x)
    s += f'    c.w_dims = {dims(w)};\n  ' + vec('w', w)
    if bias: s += '  ' + vec('b', b)
    if z: s += '  ' + vec('z', zt)
    s += f'    c.y_dims = {dims(y)};\n  ' + vec('y', y)
    s += f'    c.y_pad = {f(pad)};\n'
    if attrs: s += '    c.attributes = [](OpTester& t) { t' + ''.join(attrs) + '; };\n'
    if threads: s += f'    c.threads = {threads};\n'
    if atol: s += f'    c.atol = {atol};\n'
    s += '    RunNchwcConv(c);\n  }\n'
    return s

def pool2d(x, kind, k, pads=(0, 0, 0, 0), strides=(1, 1), dil=(1, 1), ceil=False, include_pad=False):
    n, c, h, wd = x.shape
    def out_dim(i, kk, pb, pe, s, d):
        span = i + pb + pe - d * (kk - 1) - 1
        o = (-(-span // s) if ceil else span // s) + 1
        if ceil and (o - 1) * s >= i + pb: o -= 1
        return o
    oh = out_dim(h, k[0], pads[0], pads[2], strides[0], dil[0])
    ow = out_dim(wd, k[1], pads[1], pads[3], strides[1], dil[1])
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            vals_, count, padded = [], 0, 0
            for a in range(k[0]):
                for b_ in range(k[1]):
                    ih = i * strides[0] - pads[0] + a * dil[0]
                    iw = j * strides[1] - pads[1] + b_ * dil[1]
                    if ih < h + pads[2] and iw < wd + pads[3]: padded += 1
                    if 0 <= ih < h and 0 <= iw < wd: vals_.append(x[:, :, ih, iw])
            st = np.stack(vals_)
            if kind == 'max': y[:, :, i, j] = st.max(0)
            else: y[:, :, i, j] = st.sum(0) / (padded if include_pad else len(vals_))
    return y

def unary_case(op, x, y, attrs=''):
    lam = f'[](OpTester& t) {{ t{attrs}; }}' if attrs else '{}'
    return (f'  RunNchwcUnary("{op}", {lam}, {dims(x)},\n                {arr(x)},\n'
            f'                {dims(y)},\n                {arr(y)});\n')

def pool_case(op, xs, k, **kw):
    x = vals(xs)
    y = pool2d(x, 'max' if op == 'MaxPool' else 'avg', k, **kw)
    attrs = f'.AttrInts("kernel_shape", {ints(k)})'
    if any(kw.get('pads', (0,))): attrs += f'.AttrInts("pads", {ints(kw["pads"])})'
    if kw.get('strides', (1, 1)) != (1, 1): attrs += f'.AttrInts("strides", {ints(kw["strides"])})'
    if kw.get('dil', (1, 1)) != (1, 1): attrs += f'.AttrInts("dilations", {ints(kw["dil"])})'
    if kw.get('ceil'): attrs += '.AttrInt("ceil_mode", 1)'
    if kw.get('include_pad'): attrs += '.AttrInt("count_include_pad", 1)'
    return unary_case(op, x, y, attrs)

def upsample(x, sh, sw, mode, coords='asymmetric'):
    n, c, h, w = x.shape
    oh, ow = h * sh, w * sw
    if mode == 'nearest':
        return x[:, :, np.arange(oh) // sh][:, :, :, np.arange(ow) // sw]
    def taps(i, o, s):
        r = np.arange(o, dtype=np.float64)
        if coords == 'half_pixel': p = (r + 0.5) / s - 0.5
        elif coords == 'align_corners': p = r * (i - 1) / (o - 1)
        else: p = r / s
        p = np.clip(p, 0, i - 1); lo = np.floor(p).astype(int)
        return lo, np.minimum(lo + 1, i - 1), p - lo
    rl, rh, rw = taps(h, oh, sh); cl, ch, cw = taps(w, ow, sw)
    top = x[:, :, rl][:, :, :, cl] * (1 - cw) + x[:, :, rl][:, :, :, ch] * cw
    bot = x[:, :, rh][:, :, :, cl] * (1 - cw) + x[:, :, rh][:, :, :, ch] * cw
    return top * (1 - rw)[:, None] + bot * rw[:, None]

def upsample_case(xs, sh, sw, mode, coords=None):
    x = vals(xs)
    y = upsample(x, sh, sw, mode, coords or 'asymmetric')
    attrs = f'.AttrInts("scales", {{1, 1, {sh}, {sw}}}).AttrString("mode", "{mode}")'
    if coords: attrs += f'.AttrString("coordinate_transformation_mode", "{coords}")'
    return unary_case('Upsample', x, y, attrs)

def test(name, tag, body):
    return f'\nTEST_CASE("{name}", "[contrib][nchwc][{tag}]") {{\n{body}}}\n'

HEADER = """// Generated by tools/contrib_kernel_tests/gen_nchwc.py. Expected values are numpy's (%s), in
// NCHW; nchwc_test_util.h blocks them for this CPU.
#include <catch2/catch.hpp>

#include "test/providers/cpu/contrib/nchwc/nchwc_test_util.h"

namespace ort::test {
"""
FOOTER = "\n}  // namespace ort::test\n"

files = {}
files['conv_test.cc'] = ('a direct float64 convolution followed by the activation', [
    test('nchwc Conv on blocked input: padding, strides, dilations, filter-block tails', 'Conv',
         conv_case('kBlocked', (1, 20, 3, 13), (8, 20, 3, 3), 'Relu', pads=(1, 1, 1, 1))
         + conv_case('kBlocked', (2, 8, 5, 9), (40, 8, 2, 3), pads=(0, 1, 2, 1), strides=(2, 1), dil=(1, 2))
         + conv_case('kBlocked', (1, 32, 2, 14), (20, 32, 1, 1), bias=False)
         + conv_case('kBlocked', (1, 8, 6, 6), (12, 8, 2, 2), 'Clip', params=(-1.0, 2.0), strides=(2, 2), threads=3)),
    test('nchwc Conv adds Sum before the activation', 'Conv',
         conv_case('kBlocked', (1, 20, 4, 8), (8, 20, 3, 3), 'Relu', z=True, pads=(1, 1, 1, 1))
         + conv_case('kBlocked', (1, 16, 3, 5), (16, 16, 1, 1), 'Sigmoid', bias=False, z=True)),
    test('nchwc Conv on plain NCHW input of few channels', 'Conv',
         conv_case('kPlain', (1, 3, 9, 15), (8, 3, 5, 5), 'Relu', pads=(2, 2, 2, 2), strides=(2, 2))
         + conv_case('kPlain', (1, 4, 5, 10), (20, 4, 3, 3), 'LeakyRelu', params=(0.125,), threads=2)),
    test('nchwc Conv depthwise', 'Conv',
         conv_case('kDepthwise', (1, 20, 3, 17), (20, 1, 3, 3), 'Clip', params=(0.0, 6.0), pads=(1, 1, 1, 1))
         + conv_case('kDepthwise', (2, 8, 8, 8), (8, 1, 5, 5), pads=(2, 2, 2, 2), strides=(2, 2), z=True)
         + conv_case('kDepthwise', (1, 8, 5, 5), (8, 1, 3, 3), bias=False, dil=(2, 2), pads=(2, 2, 2, 2))),
])
pools = (
    pool_case('MaxPool', (1, 20, 5, 7), (3, 3), pads=(1, 1, 1, 1), strides=(2, 2))
    + pool_case('MaxPool', (1, 8, 7, 8), (3, 3), strides=(2, 2), ceil=True)
    + pool_case('MaxPool', (2, 8, 6, 6), (2, 2), dil=(2, 2))
    + pool_case('AveragePool', (1, 20, 4, 5), (3, 3), pads=(1, 1, 1, 1))
    + pool_case('AveragePool', (1, 8, 7, 7), (3, 3), pads=(1, 1, 1, 1), strides=(2, 2), include_pad=True, ceil=True))
x = vals((2, 20, 3, 4))
gmax = x.max((2, 3), keepdims=True); gavg = x.mean((2, 3), keepdims=True)
files['pool_test.cc'] = ('windowed max and mean loops', [
    test('nchwc MaxPool and AveragePool', 'Pool', pools),
    test('nchwc GlobalMaxPool and GlobalAveragePool', 'Pool',
         unary_case('GlobalMaxPool', x, gmax) + unary_case('GlobalAveragePool', x, gavg)),
])
files['upsample_test.cc'] = ('index and interpolation arithmetic', [
    test('nchwc Upsample nearest and linear', 'Upsample',
         upsample_case((1, 20, 2, 3), 2, 2, 'nearest')
         + upsample_case((1, 8, 2, 3), 3, 2, 'nearest')
         + upsample_case((1, 20, 2, 3), 2, 2, 'linear')
         + upsample_case((1, 8, 3, 3), 2, 3, 'linear', 'half_pixel')
         + upsample_case((1, 8, 3, 4), 2, 2, 'linear', 'align_corners')),
])
x = vals((2, 20, 3, 5))
xt = x.transpose(0, 2, 3, 1)
reorder = f'''  const std::vector<float> x = {arr(x)};
  const std::vector<float> nhwc = {arr(xt)};
  OpTester("ReorderInput", 1, "com.microsoft.nchwc")
      .AttrInt("channels_last", 0)
      .Input<float>("x", {dims(x)}, x)
      .TensorOutput("y", Blocked({dims(x)}, x))
      .Run();
  OpTester("ReorderInput", 1, "com.microsoft.nchwc")
      .AttrInt("channels_last", 1)
      .Input<float>("x", {dims(xt)}, nhwc)
      .TensorOutput("y", Blocked({dims(x)}, x))
      .Threads(2)
      .Run();
  OpTester("ReorderOutput", 1, "com.microsoft.nchwc")
      .AttrInt("channels", 20)
      .TensorInput("x", Blocked({dims(x)}, x))
      .Output<float>("y", {dims(x)}, x)
      .Run();
  OpTester("ReorderOutput", 1, "com.microsoft.nchwc")
      .AttrInt("channels", 20)
      .AttrInt("channels_last", 1)
      .TensorInput("x", Blocked({dims(x)}, x))
      .Output<float>("y", {dims(xt)}, nhwc)
      .Threads(2)
      .Run();
'''
files['reorder_test.cc'] = ('numpy transposes', [
    test('nchwc ReorderInput and ReorderOutput, channels first and last', 'Reorder', reorder)])

# Last, so that the cases above keep their random values: 3x3 stride-1 convolutions large enough
# (17 or more 4x4 output tiles, the most any instruction set asks for) to run as Winograd
# F(4x4, 3x3). Winograd's float32 rounding scales with the transformed tiles (outputs of rms ~9
# here), not with each output, so an output near zero may be off by a few 1e-5: atol 1e-4 is
# ~1e-5 of the outputs' scale.
files['winograd_conv_test.cc'] = ('a direct float64 convolution followed by the activation', [
    test('nchwc Conv 3x3 through Winograd: padding, tile tails, Sum, activations', 'Conv',
         conv_case('kBlocked', (1, 9, 13, 18), (10, 9, 3, 3), 'Relu', z=True, pads=(1, 1, 1, 1), atol=1e-4)
         + conv_case('kBlocked', (2, 16, 10, 11), (16, 16, 3, 3), 'LeakyRelu', params=(0.125,), pads=(0, 1, 1, 0), threads=2, atol=1e-4)),
])

# Last, so that the cases above keep their random values: groups of 16 channels fill whole blocks
# at every block size, so each group is a blocked convolution of its own.
files['conv_test.cc'][1].append(test('nchwc Conv in groups of whole blocks', 'Conv',
    conv_case('kBlocked', (1, 32, 3, 4), (32, 16, 2, 2), 'Relu', pads=(1, 0, 0, 1), group=2)
    + conv_case('kBlocked', (2, 48, 3, 3), (48, 16, 1, 1), z=True, strides=(2, 2), group=3,
                threads=2)))

# Last, so that the cases above keep their random values: depthwise 1x1 convolutions (a
# BatchNorm's per-channel affine), which run each plane as one row of pixels.
files['conv_test.cc'][1].append(test('nchwc Conv depthwise 1x1 over whole planes', 'Conv',
    conv_case('kDepthwise', (2, 20, 5, 7), (20, 1, 1, 1), 'Relu', z=True, threads=2)
    + conv_case('kDepthwise', (1, 24, 9, 9), (24, 1, 1, 1), bias=False)))

out_dir = sys.argv[1]
for name, (what, cases) in files.items():
    with open(f'{out_dir}/{name}', 'w') as fh:
        fh.write(HEADER % what + ''.join(cases) + FOOTER)
