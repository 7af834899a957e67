#!/usr/bin/python3
"""Writes the FusedConv and SkipLayerNormalization tests (numpy reference values).

Usage: gen_nn.py test/providers/cpu/contrib/nn/fused_conv_test.cc \
           test/providers/cpu/contrib/nn/skip_layer_norm_test.cc && clang-format -i ...
"""
from common import *
ms = '1, "com.microsoft"'

def conv2d(x, w, b=None, pads=(0, 0, 0, 0), strides=(1, 1), dil=(1, 1), group=1):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // group
    for nn in range(n):
        for f in range(m):
            g = f // mg
            for i in range(oh):
                for j in range(ow):
                    patch = xp[nn, g * cg:(g + 1) * cg, i * strides[0]: i * strides[0] + dil[0] * (kh - 1) + 1: dil[0],
                               j * strides[1]: j * strides[1] + dil[1] * (kw - 1) + 1: dil[1]]
                    y[nn, f, i, j] = np.sum(patch * w[f])
    if b is not None: y += b.reshape(1, -1, 1, 1)
    return y

acts = {
    'Relu': (lambda y, p: np.maximum(y, 0)),
    'Tanh': (lambda y, p: np.tanh(y)),
    'Sigmoid': (lambda y, p: sigmoid(y)),
    'LeakyRelu': (lambda y, p: np.where(y < 0, p[0] * y, y)),
    'Clip': (lambda y, p: np.clip(y, p[0], p[1])),
    'HardSigmoid': (lambda y, p: np.clip(p[0] * y + p[1], 0, 1)),
    '': (lambda y, p: y),
}

def conv_case(act, params, xs, ws, bias=True, z=False, pads=(0, 0, 0, 0), strides=(1, 1), dil=(1, 1), group=1, threads=0, ref=None):
    x = vals(xs); w = vals(ws, scale=4, lo=-4, hi=5); b = vals((ws[0],)) if bias else None
    y = conv2d(x, w, b, pads, strides, dil, group)
    zt = vals(y.shape) if z else None
    if z: y = y + zt
    y = acts[act](y, ref if ref is not None else params)
    s = f'\n  OpTester("FusedConv", {ms})'
    if act: s += f'\n      .AttrString("activation", "{act}")'
    if params: s += f'\n      .AttrFloats("activation_params", {arr(params)})'
    if any(pads): s += f'\n      .AttrInts("pads", {{{", ".join(map(str, pads))}}})'
    if strides != (1, 1): s += f'\n      .AttrInts("strides", {{{", ".join(map(str, strides))}}})'
    if dil != (1, 1): s += f'\n      .AttrInts("dilations", {{{", ".join(map(str, dil))}}})'
    if group != 1: s += f'\n      .AttrInt("group", {group})'
    if threads: s += f'\n      .Threads({threads})'
    s += f'\n      {inp("x", x)}\n      {inp("w", w, "ConstantInput")}'
    if bias: s += f'\n      {inp("b", b)}'
    elif z: s += '\n      .OmittedInput()'
    if z: s += f'\n      {inp("z", zt)}'
    s += f'\n      {out("y", y)}\n      .Run();'
    return s

cases = []
cases.append(('FusedConv applies each activation after the bias', '[contrib][FusedConv]',
    conv_case('Relu', [], (1, 2, 5, 5), (3, 2, 3, 3), pads=(1, 1, 1, 1), strides=(2, 2))
    + conv_case('Tanh', [], (1, 2, 4, 4), (2, 2, 2, 2))
    + conv_case('Sigmoid', [], (2, 2, 4, 4), (2, 2, 3, 3), pads=(1, 0, 1, 0))
    + conv_case('LeakyRelu', [0.25], (1, 2, 4, 4), (2, 2, 3, 3), dil=(2, 1), pads=(1, 1, 1, 1))
    + conv_case('Clip', [-0.5, 1.0], (1, 2, 4, 4), (3, 2, 2, 2))
    + conv_case('HardSigmoid', [0.25, 0.5], (1, 2, 4, 4), (3, 2, 2, 2))
    + conv_case('LeakyRelu', [], (1, 2, 3, 3), (2, 2, 2, 2), ref=[0.01])))
cases.append(('FusedConv adds Z before the activation', '[contrib][FusedConv]',
    conv_case('Relu', [], (1, 2, 4, 4), (3, 2, 3, 3), z=True, pads=(1, 1, 1, 1))
    + conv_case('Tanh', [], (2, 3, 3, 3), (4, 3, 1, 1), z=True)
    + conv_case('', [], (1, 2, 4, 4), (2, 2, 3, 3), bias=False, z=True)
    + conv_case('Clip', [0.0, 6.0], (1, 4, 4, 4), (4, 2, 3, 3), z=True, group=2, pads=(1, 1, 1, 1))))
cases.append(('FusedConv depthwise and multi-threaded paths apply the epilogue', '[contrib][FusedConv]',
    conv_case('LeakyRelu', [0.125], (1, 3, 5, 5), (3, 1, 3, 3), z=True, group=3, pads=(1, 1, 1, 1))
    + conv_case('HardSigmoid', [0.5, 0.25], (2, 2, 4, 4), (4, 1, 3, 3), group=2, strides=(2, 1), pads=(1, 1, 1, 1))
    + conv_case('Sigmoid', [], (1, 3, 8, 8), (4, 3, 3, 3), z=True, threads=3)
    + conv_case('Relu', [], (1, 4, 6, 6), (4, 1, 3, 3), z=True, group=4, threads=3)))

conv_cases = cases
cases = []

# SkipLayerNormalization
def skip_ln(x, skip, gamma, beta=None, bias=None, eps=1e-12, simplified=False):
    s = x + skip + (bias if bias is not None else 0)
    mean = s.mean(-1, keepdims=True)
    if simplified:
        inv = 1 / np.sqrt((s * s).mean(-1, keepdims=True) + eps)
        y = s * inv * gamma
    else:
        inv = 1 / np.sqrt(((s - mean) ** 2).mean(-1, keepdims=True) + eps)
        y = (s - mean) * inv * gamma + (beta if beta is not None else 0)
    return y, mean, inv, s

x = vals((2, 3, 5)); skip = vals((2, 3, 5)); gamma = vals((5,)); beta = vals((5,)); bias = vals((5,))
y, mean, inv, s = skip_ln(x, skip, gamma, beta, bias, eps=1e-5)
cases.append(('SkipLayerNormalization with beta, bias and every optional output', '[contrib][SkipLayerNormalization]', f'''
  OpTester("SkipLayerNormalization", {ms})
      .AttrFloat("epsilon", 1e-5f)
      {inp("x", x)}
      {inp("skip", skip)}
      {inp("gamma", gamma)}
      {inp("beta", beta)}
      {inp("bias", bias)}
      {out("y", y)}
      {out("mean", mean)}
      {out("inv_std_var", inv)}
      {out("sum", s)}
      .Run();'''))
y, mean, inv, s = skip_ln(x, skip, gamma)
skip2 = vals((3, 5))
y2, _, inv2, s2 = skip_ln(x, skip2, gamma, bias=bias)
skip3 = vals((1, 3, 5))
y3, _, _, _ = skip_ln(x, skip3, gamma, beta)
cases.append(('SkipLayerNormalization without beta or bias, and with a broadcast skip', '[contrib][SkipLayerNormalization]', f'''
  OpTester("SkipLayerNormalization", {ms})
      {inp("x", x)}
      {inp("skip", skip)}
      {inp("gamma", gamma)}
      {out("y", y)}
      .Run();
  OpTester("SkipLayerNormalization", {ms})
      {inp("x", x)}
      {inp("skip", skip2)}
      {inp("gamma", gamma)}
      .OmittedInput()
      {inp("bias", bias)}
      {out("y", y2)}
      .OmittedOutput()
      {out("inv_std_var", inv2)}
      {out("sum", s2)}
      .Run();
  OpTester("SkipLayerNormalization", {ms})
      {inp("x", x)}
      {inp("skip", skip3)}
      {inp("gamma", gamma)}
      {inp("beta", beta)}
      {out("y", y3)}
      .Run();'''))
y, mean, inv, s = skip_ln(x, skip, gamma, bias=bias, eps=1e-6, simplified=True)
y2, _, _, s2 = skip_ln(x[0], skip2, gamma, simplified=True)
cases.append(('SkipSimplifiedLayerNormalization divides by the root mean square', '[contrib][SkipLayerNormalization]', f'''
  OpTester("SkipSimplifiedLayerNormalization", {ms})
      .AttrFloat("epsilon", 1e-6f)
      {inp("x", x)}
      {inp("skip", skip)}
      {inp("gamma", gamma)}
      {inp("bias", bias)}
      {out("y", y)}
      .OmittedOutput()
      {out("inv_std_var", inv)}
      {out("sum", s)}
      .Run();
  OpTester("SkipSimplifiedLayerNormalization", {ms})
      {inp("x", x[0])}
      {inp("skip", skip2)}
      {inp("gamma", gamma)}
      {out("y", y2)}
      .Run();'''))

# Simplified LN (ai.onnx v1) & LayerNormalization v1
x = vals((2, 3, 4)); scale = vals((4,)); scale2 = vals((3, 4)); bl = vals((4,))
ms2 = (x * x).mean(-1, keepdims=True); inv = 1 / np.sqrt(ms2 + 1e-5)
ms3 = (x * x).reshape(2, -1).mean(-1).reshape(2, 1, 1); inv3 = 1 / np.sqrt(ms3 + 1e-3)
mean = x.mean(-1, keepdims=True); inv_ln = 1 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
cases.append(('SimplifiedLayerNormalization (ai.onnx, ORT) is RMS normalization', '[contrib][SimplifiedLayerNormalization]', f'''
  OpTester("SimplifiedLayerNormalization", 1)
      {inp("x", x)}
      {inp("scale", scale)}
      {out("y", x * inv * scale)}
      {out("inv_std_var", inv)}
      .Run();
  OpTester("SimplifiedLayerNormalization", 13)
      .AttrInt("axis", 1)
      .AttrFloat("epsilon", 1e-3f)
      {inp("x", x)}
      {inp("scale", scale2)}
      {out("y", x * inv3 * scale2)}
      .Run();'''))
cases.append(('LayerNormalization runs at ORT opsets before 17', '[contrib][LayerNormalization]', f'''
  OpTester("LayerNormalization", 1)
      {inp("x", x)}
      {inp("scale", scale)}
      {inp("b", bl)}
      {out("y", (x - mean) * inv_ln * scale + bl)}
      {out("mean", mean)}
      {out("inv_std_dev", inv_ln)}
      .Run();
  OpTester("LayerNormalization", 13)
      {inp("x", x)}
      {inp("scale", scale)}
      {out("y", (x - mean) * inv_ln * scale)}
      .Run();'''))

import sys
HEADER = """// Expected values are numpy's: %s
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
"""

def write(path, what, cases, extra):
    with open(path, 'w') as out:
        out.write(HEADER % what + '\n')
        for name, tag, body in cases:
            out.write(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n\n')
        out.write(extra + '\n\n}  // namespace ort::test\n')

write(sys.argv[1], 'a direct float64 convolution loop followed by the\n// activation (double and half cases hand-derived).', conv_cases, f'''TEST_CASE("FusedConv rejects an unknown activation and a misshaped Z", "[contrib][FusedConv]") {{
  OpTester("FusedConv", {ms})
      .AttrString("activation", "Gelu")
      .Input<float>("x", {{1, 1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("w", {{1, 1, 1, 1}}, {{1}})
      .Output<float>("y", {{1, 1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("unsupported activation 'Gelu'");
  OpTester("FusedConv", {ms})
      .Input<float>("x", {{1, 1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("w", {{1, 1, 1, 1}}, {{1}})
      .OmittedInput()
      .Input<float>("z", {{1, 1, 2, 1}}, {{1, 2}})
      .Output<float>("y", {{1, 1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("must have the output's shape");
  OpTester("FusedConv", {ms})
      .AttrString("activation", "Clip")
      .AttrFloats("activation_params", {{1.0f}})
      .Input<float>("x", {{1, 1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("w", {{1, 1, 1, 1}}, {{1}})
      .Output<float>("y", {{1, 1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("takes 2 activation_params, got 1");
}}

TEST_CASE("FusedConv computes double and half types", "[contrib][FusedConv]") {{
  // 1x1 conv: relu(2 x + 0.5 + z), then clip(2 x, -1, 4).
  OpTester("FusedConv", {ms})
      .AttrString("activation", "Relu")
      .Input<double>("x", {{1, 1, 2, 2}}, {{1, -2, 3, -4}})
      .Input<double>("w", {{1, 1, 1, 1}}, {{2}})
      .Input<double>("b", {{1}}, {{0.5}})
      .Input<double>("z", {{1, 1, 2, 2}}, {{1, 1, 1, -7}})
      .Output<double>("y", {{1, 1, 2, 2}}, {{3.5, 0, 7.5, 0}})
      .Run();
  OpTester("FusedConv", {ms})
      .AttrString("activation", "Clip")
      .AttrFloats("activation_params", {{-1.0f, 4.0f}})
      .Input<Float16>("x", {{1, 1, 2, 2}}, {{Float16(1.0f), Float16(-2.0f), Float16(3.0f), Float16(-4.0f)}})
      .Input<Float16>("w", {{1, 1, 1, 1}}, {{Float16(2.0f)}})
      .Output<Float16>("y", {{1, 1, 2, 2}}, {{Float16(2.0f), Float16(-1.0f), Float16(4.0f), Float16(-1.0f)}})
      .Run();
}}''')

write(sys.argv[2], 'the normalizations from their mean / mean-square\n// formulas in float64 (half case hand-derived).', cases, f'''TEST_CASE("SkipLayerNormalization rejects misshaped skip and gamma", "[contrib][SkipLayerNormalization]") {{
  OpTester("SkipLayerNormalization", {ms})
      .Input<float>("x", {{1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("skip", {{1, 2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .Input<float>("gamma", {{2}}, {{1, 1}})
      .Output<float>("y", {{1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("must be input's shape");
  OpTester("SkipLayerNormalization", {ms})
      .Input<float>("x", {{1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("skip", {{1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("gamma", {{3}}, {{1, 1, 1}})
      .Output<float>("y", {{1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("gamma [3] must be [2]");
}}

TEST_CASE("SkipLayerNormalization computes half types", "[contrib][SkipLayerNormalization]") {{
  // s = [1, 2, 3, 4]: mean 2.5, variance 1.25, (s - 2.5) / sqrt(1.25).
  OpTester("SkipLayerNormalization", {ms})
      .Input<Float16>("x", {{1, 4}}, {{Float16(1.0f), Float16(1.0f), Float16(1.0f), Float16(1.0f)}})
      .Input<Float16>("skip", {{1, 4}}, {{Float16(0.0f), Float16(1.0f), Float16(2.0f), Float16(3.0f)}})
      .Input<Float16>("gamma", {{4}}, {{Float16(1.0f), Float16(1.0f), Float16(1.0f), Float16(1.0f)}})
      .Output<Float16>("y", {{1, 4}}, {{Float16(-1.3416408f), Float16(-0.4472136f), Float16(0.4472136f), Float16(1.3416408f)}})
      .Output<float>("mean", {{1, 1}}, {{2.5f}})
      .SetTolerance(1e-3, 1e-3)
      .Run();
}}''')
