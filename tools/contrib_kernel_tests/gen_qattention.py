#!/usr/bin/python3
"""Writes the com.microsoft QAttention tests (numpy reference values of common.qattention_ref,
float64, which crosscheck_quantized.py compares with onnxruntime 1.30's CPU kernel).

Usage: gen_qattention.py test/providers/cpu/contrib/quantization/qattention_test.cc && clang-format -i ...
"""
import sys

from common import *

rng = np.random.default_rng(11)
CTYPES = {np.dtype('uint8'): 'uint8_t', np.dtype('int8'): 'int8_t', np.dtype('int32'): 'int32_t'}

# Tensors several cases read, written once as named constants.
SHARED = {}


def share(cpp_name, a):
    SHARED[cpp_name] = a
    return a


def literal(a):
    a = np.asarray(a)
    if a.dtype in CTYPES:
        return '{' + ', '.join(str(int(v)) for v in a.ravel()) + '}'
    return arr(a)


def tensor(name, a, kind='Input'):
    """An OpTester input (`kind` Input or ConstantInput) of a's type, by its constant's name when
    it is shared."""
    a = np.asarray(a)
    ctype = CTYPES.get(a.dtype, 'float')
    for cpp_name, shared in SHARED.items():
        if shared is a:
            return f'.{kind}<{ctype}>("{name}", {dims(a)}, {cpp_name})'
    return f'.{kind}<{ctype}>("{name}", {dims(a)}, {literal(a)})'


def name_of(a):
    return next(cpp_name for cpp_name, shared in SHARED.items() if shared is a)


def expected(name, a):
    """An OpTester output, by its constant's name when an earlier case expects the same values."""
    for cpp_name, shared in SHARED.items():
        if shared.shape == a.shape and shared.dtype == a.dtype and np.array_equal(shared, a):
            return f'.Output<float>("{name}", {dims(a)}, {cpp_name})'
    return out(name, a)


def case(x, w, bias, x_scale, w_scale, heads=2, x_zero=None, w_zero=None, mask=None, past=None,
         present=None, constant=False, threads=0, share_output=None, **attrs):
    """One OpTester run; `constant` makes the weights (and their zero point) constant inputs,
    which the kernel packs at creation; `present` True checks that output, False leaves it
    unchecked; `share_output` names the expected output for later cases."""
    output, pres = qattention_ref(x, w, bias, x_scale, w_scale, heads,
                               0 if x_zero is None else x_zero, 0 if w_zero is None else w_zero,
                               mask, past, attrs.get('unidirectional', 0), attrs.get('scale', 0.0),
                               attrs.get('mask_filter_value', -10000.0))
    kind = 'ConstantInput' if constant else 'Input'
    given = [('input', x, 'Input'), ('weight', w, kind), ('bias', bias, 'Input'),
             ('input_scale', np.float32(x_scale), 'Input'),
             ('weight_scale', np.asarray(w_scale, np.float32), 'Input'),
             ('mask_index', mask, 'Input'), ('input_zero_point', x_zero, 'Input'),
             ('weight_zero_point', w_zero, kind), ('past', past, 'Input')]
    last = max(i for i, (_, a, _) in enumerate(given) if a is not None)
    if x is SHARED['kInput'] and bias is SHARED['kBias'] and x_scale == xs and heads == 2:
        scales = 'kColumnScales' if w_scale is SHARED['kColumnScales'] else f'{{{f(w_scale)}}}'
        constness = 'true' if constant else 'false'
        s = f'\n  QAttentionOn({name_of(w)}, {constness}, {scales})'
        given = given[5:last + 1]
    else:
        s = f'\n  OpTester("QAttention", 1, "com.microsoft")\n      .AttrInt("num_heads", {heads})'
        s += '\n      .SetTolerance(1e-4, 1e-4)'
        given = given[:last + 1]
    for name, value in attrs.items():
        s += (f'\n      .AttrInt("{name}", {value})' if isinstance(value, int)
              else f'\n      .AttrFloat("{name}", {f(value)})')
    if threads:
        s += f'\n      .Threads({threads})'
    for name, a, how in given:
        s += f'\n      {tensor(name, a, how)}' if a is not None else '\n      .OmittedInput()'
    if share_output:
        share(share_output, output)
    s += f'\n      {expected("output", output)}'
    if present is not None:
        s += f'\n      {out("present", pres)}' if present else '\n      .UncheckedOutput("present")'
    return s + '\n      .Run();'


B, S, D, N, H = 2, 2, 4, 2, 2
hidden = N * H
x = share('kInput', rng.integers(0, 256, (B, S, D)).astype(np.uint8))
w8 = share('kWeightS8', rng.integers(-127, 128, (D, 3 * hidden)).astype(np.int8))
wu = share('kWeightU8', rng.integers(0, 256, (D, 3 * hidden)).astype(np.uint8))
bias = share('kBias', vals((3 * hidden,)))
xz, xs, ws = np.uint8(120), 2.0**-6, 2.0**-7
ws_col = share('kColumnScales', rng.uniform(0.005, 0.02, 3 * hidden).astype(np.float32))
wz_col = rng.integers(100, 156, 3 * hidden).astype(np.uint8)

cases = []
cases.append(('QAttention projects uint8 input by int8 weights, packed or per call',
              '[quantization][QAttention]',
              case(x, w8, bias, xs, ws, x_zero=xz, share_output='kOutput')
              + case(x, w8, bias, xs, ws, x_zero=xz, constant=True, threads=2)
              + case(x, w8, bias, xs, ws)))
cases.append(('QAttention scales per column and takes uint8 weights with zero points',
              '[quantization][QAttention]',
              case(x, w8, bias, xs, ws_col, x_zero=xz, constant=True)
              + case(x, wu, bias, xs, ws, x_zero=xz, w_zero=np.uint8(128))
              + case(x, wu, bias, xs, ws_col, x_zero=xz, w_zero=wz_col,
                     share_output='kColumnOutput')
              + case(x, wu, bias, xs, ws_col, x_zero=xz, w_zero=wz_col, constant=True)))
raw = np.array([[1, 0], [0, 1]], np.int32)
cases.append(('QAttention masks keys by lengths, end and start positions, raw 2-D and 3-D masks',
              '[quantization][QAttention]',
              case(x, w8, bias, xs, ws, x_zero=xz, mask=np.array([1, 2], np.int32))
              + case(x, w8, bias, xs, ws, x_zero=xz, mask=np.array([2, 1, 1, 0], np.int32))
              + case(x, w8, bias, xs, ws, x_zero=xz, mask=raw)
              + case(x, w8, bias, xs, ws, x_zero=xz,
                     mask=(rng.random((B, S, S)) > 0.4).astype(np.int32), scale=0.3,
                     mask_filter_value=-1.0)
              + case(x, w8, bias, xs, ws, x_zero=xz, mask=np.ones((B, 1), np.int32))))
cases.append(('QAttention unidirectional hides later keys', '[quantization][QAttention]',
              case(x, w8, bias, xs, ws, x_zero=xz, unidirectional=1)
              + case(x, w8, bias, xs, ws_col, x_zero=xz, mask=raw, unidirectional=1)))
P = 2
past = share('kPast', vals((2, B, N, P, H)))
cases.append(('QAttention puts past keys and values first and returns them in present',
              '[quantization][QAttention]',
              case(x, w8, bias, xs, ws, x_zero=xz, past=past, present=True, unidirectional=1)
              + case(x, w8, bias, xs, ws, x_zero=xz, past=past, present=False,
                     mask=np.array([[1, 0, 1, 1], [1, 1, 1, 0]], np.int32))
              + case(x[:, :1], w8, bias, xs, ws, x_zero=xz, past=past, present=True,
                     unidirectional=1)
              + case(x, w8, bias, xs, ws, x_zero=xz, present=True)))


def error(expect, changes=(), attrs=(), outputs=('output',)):
    """A run with the valid inputs of the first case but `changes` ({name: array, or None to
    omit}), expected to fail with `expect`."""
    inputs = {'input': x, 'weight': w8, 'bias': bias, 'input_scale': np.float32(xs),
              'weight_scale': np.float32(ws), 'mask_index': None, 'input_zero_point': xz,
              'weight_zero_point': None, 'past': None}
    inputs.update(changes)
    items = list(inputs.items())
    last = max(i for i, (_, a) in enumerate(items) if a is not None)
    if not any(name in changes for name, _ in items[:5]):
        s = f'\n  QAttentionOn(kWeightS8, false, {{{f(ws)}}})'
        items = items[5:last + 1]
    else:
        s = '\n  OpTester("QAttention", 1, "com.microsoft")\n      .AttrInt("num_heads", 2)'
        items = items[:last + 1]
    for name, value in attrs:
        s += f'\n      .AttrInt("{name}", {value})'
    for name, a in items:
        s += f'\n      {tensor(name, a)}' if a is not None else '\n      .OmittedInput()'
    for name in outputs:
        s += f'\n      .UncheckedOutput("{name}")'
    return s + f'\n      .RunExpectingError("{expect}");'


errors = (error('input_scale float[2] must hold one value',
                {'input_scale': np.array([xs, xs], np.float32)})
          + error('weight_scale float[5] must hold 1 or 12 values',
                  {'weight_scale': np.full(5, ws, np.float32)})
          + error('bias [8] must be [12]', {'bias': bias[:8]})
          + error('weight_zero_point must have its operand',
                  {'weight_zero_point': np.uint8(0)})
          + error('do not split into Q, K and V of 2 heads', {'weight': w8[:, :10],
                                                              'bias': bias[:10]})
          + error('mask_index shape [2,3] does not fit', {'mask_index': np.ones((B, 3), np.int32)})
          + error('a 4-D mask_index [2,1,2,2] is not supported',
                  {'mask_index': np.ones((B, 1, S, S), np.int32)})
          + error('past [2,2,2,1,3] must be [2, 2, 2, P, 2]',
                  {'past': np.zeros((2, B, N, 1, 3), np.float32)}, outputs=('output', 'present'))
          + error('the past input needs the present output', {'past': past})
          + error('do_rotary and past_present_share_buffer are not supported',
                  attrs=[('do_rotary', 1)])
          + error('unsupported input 0 type int8',
                  {'input': x.astype(np.int8), 'input_zero_point': None}))
extra = ('TEST_CASE("QAttention rejects misshaped, mistyped and unsupported inputs by name", '
         f'"[quantization][QAttention]") {{{errors}\n}}')

HELPER = f'''
// QAttention of two heads on the inputs most cases share: kInput, `weight` (constant: packed at
// creation), kBias, input_scale {f(xs)} and `weight_scale`; the later inputs follow.
template <typename TW>
OpTester QAttentionOn(const std::vector<TW>& weight, bool constant, std::vector<float> weight_scale) {{
  OpTester tester("QAttention", 1, "com.microsoft");
  tester.AttrInt("num_heads", 2).SetTolerance(1e-4, 1e-4).Input<uint8_t>("input", {dims(x)}, kInput);
  if (constant) {{
    tester.ConstantInput<TW>("weight", {dims(w8)}, weight);
  }} else {{
    tester.Input<TW>("weight", {dims(w8)}, weight);
  }}
  std::vector<int64_t> scale_dims;
  if (weight_scale.size() > 1) scale_dims.push_back(static_cast<int64_t>(weight_scale.size()));
  tester.Input<float>("bias", {dims(bias)}, kBias)
      .Input<float>("input_scale", {{}}, {{{f(xs)}}})
      .Input<float>("weight_scale", scale_dims, weight_scale);
  return tester;
}}
'''

with open(sys.argv[1], 'w') as stream:
    stream.write('// Generated by tools/contrib_kernel_tests/gen_qattention.py. Expected values '
                 "are numpy's: the\n// exact integer projection (x - x_zero)(W - w_zero) times "
                 'float32(input_scale * weight_scale) plus\n// bias, then per head softmax(Q K^T '
                 '/ sqrt(H) + mask) V in float64, as onnxruntime 1.30 computes\n// them (within '
                 '1e-5, crosscheck_quantized.py).\n#include <catch2/catch.hpp>\n\n'
                 '#include "test/providers/cpu/op_tester.h"\n\nnamespace ort::test {\n\n'
                 'namespace {\n\n')
    for cpp_name, a in SHARED.items():
        ctype = CTYPES.get(a.dtype, 'float')
        stream.write(f'const std::vector<{ctype}> {cpp_name} = {literal(a)};\n')
    stream.write(HELPER + '\n}  // namespace\n\n')
    for name, tag, body in cases:
        stream.write(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n\n')
    stream.write(extra + '\n\n}  // namespace ort::test\n')
