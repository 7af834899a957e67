#!/usr/bin/python3
"""Writes the com.microsoft DynamicQuantizeLSTM tests: numpy's float64 LSTM (common.lstm_ref) on
the dequantized weights (W - zero) * scale, which the kernel computes. onnxruntime quantizes X and
H to uint8 on the fly instead; crosscheck_quantized.py measures that difference.

Usage: gen_dynamic_quantize_lstm.py test/providers/cpu/contrib/quantization/dynamic_quantize_lstm_test.cc \
           && clang-format -i ...
"""
import sys

from common import *

rng = np.random.default_rng(13)
CTYPES = {np.dtype('uint8'): 'uint8_t', np.dtype('int8'): 'int8_t', np.dtype('int32'): 'int32_t'}
NAMES = ['X', 'W', 'R', 'B', 'sequence_lens', 'initial_h', 'initial_c', 'P', 'W_scale',
         'W_zero_point', 'R_scale', 'R_zero_point']


# Tensors several cases read, written once as named constants.
SHARED = {}


def literal(a):
    if a.dtype in CTYPES:
        return '{' + ', '.join(str(int(v)) for v in a.ravel()) + '}'
    return arr(a)


def share(prefix, inputs):
    """Names inputs' tensors k<prefix><input name>; returns them."""
    for name, a in inputs.items():
        SHARED['k' + prefix + name.title().replace('_', '')] = a
    return inputs


def tensor(name, a, constant=False):
    kind = 'ConstantInput' if constant else 'Input'
    ctype = CTYPES.get(a.dtype, 'float')
    values = next((cpp for cpp, shared in SHARED.items() if shared is a), None) or literal(a)
    return f'.{kind}<{ctype}>("{name}", {dims(a)}, {values})'


def expected(name, a):
    """An OpTester output, by its constant's name when another case expects the same values."""
    for cpp_name, shared in SHARED.items():
        if shared.shape == a.shape and shared.dtype == a.dtype and np.array_equal(shared, a):
            return f'.Output<float>("{name}", {dims(a)}, {cpp_name})'
    return out(name, a)


def case(inputs, direction='forward', constant=False, threads=0, outputs=('Y', 'Y_h', 'Y_c'),
         share_outputs=None):
    """inputs: {name: array}; `constant` makes W, R and their parameters constant inputs, which
    the kernel dequantizes at creation; share_outputs names the expected outputs
    k<share_outputs><output> for later cases."""
    w = dequantize_lstm_weights(inputs['W'], inputs['W_scale'], inputs['W_zero_point'])
    r = dequantize_lstm_weights(inputs['R'], inputs['R_scale'], inputs['R_zero_point'])
    get = inputs.get
    y, yh, yc = lstm_ref(inputs['X'], w, r, get('B'), get('sequence_lens'), get('initial_h'),
                         get('initial_c'), get('P'), direction)
    s = '\n  OpTester("DynamicQuantizeLSTM", 1, "com.microsoft")'
    s += f'\n      .AttrInt("hidden_size", {inputs["R"].shape[1]})'
    if direction != 'forward':
        s += f'\n      .AttrString("direction", "{direction}")'
    if threads:
        s += f'\n      .Threads({threads})'
    s += '\n      .SetTolerance(1e-5, 1e-5)'
    weights = {'W', 'R', 'W_scale', 'W_zero_point', 'R_scale', 'R_zero_point'}
    for name in NAMES:
        a = get(name)
        s += (f'\n      {tensor(name, a, constant and name in weights)}' if a is not None
              else '\n      .OmittedInput()')
    values = {'Y': y, 'Y_h': yh, 'Y_c': yc}
    if share_outputs:
        share(share_outputs, values)
    for name in outputs:
        s += f'\n      {expected(name, values[name])}' if name else '\n      .OmittedOutput()'
    return s + '\n      .Run();'


S, B, I, H = 3, 2, 3, 2


def problem(directions, weight_type, per_channel):
    """Random inputs of `directions` directions: 8-bit W and R with scales and zero points per
    direction or per gate column."""
    shape = (directions, 4 * H) if per_channel else (directions,)
    info = np.iinfo(weight_type)
    middle = 0 if weight_type == np.int8 else 128
    zero = (np.zeros(shape) if weight_type == np.int8
            else rng.integers(middle - 8, middle + 9, shape)).astype(weight_type)
    return {'X': vals((S, B, I), scale=4),
            'W': rng.integers(info.min + 1, info.max + 1, (directions, I, 4 * H), weight_type),
            'R': rng.integers(info.min + 1, info.max + 1, (directions, H, 4 * H), weight_type),
            'W_scale': rng.uniform(0.005, 0.02, shape).astype(np.float32),
            'W_zero_point': zero,
            'R_scale': rng.uniform(0.005, 0.02, shape).astype(np.float32),
            'R_zero_point': zero.copy()}


def states(directions):
    return {'B': vals((directions, 8 * H), scale=16), 'initial_h': vals((directions, B, H), 16),
            'initial_c': vals((directions, B, H), scale=16)}


cases = []
forward = share('Forward', problem(1, np.int8, False))
cases.append(('DynamicQuantizeLSTM forward with int8 weights per tensor, constant or not',
              '[quantization][DynamicQuantizeLSTM]',
              case(forward, share_outputs='Forward')
              + case(forward, constant=True, threads=2)
              + case({**forward, **states(1)}, outputs=('', 'Y_h', 'Y_c'))))
per_channel = share('Bidirectional', {**problem(2, np.int8, True), **states(2)})
cases.append(('DynamicQuantizeLSTM bidirectional per channel with states and sequence lengths',
              '[quantization][DynamicQuantizeLSTM]',
              case(per_channel, 'bidirectional', constant=True)
              + case({**per_channel, 'sequence_lens': np.array([3, 1], np.int32)},
                     'bidirectional')))
unsigned = share('Reverse', {**problem(1, np.uint8, True), **states(1),
                            'P': vals((1, 3 * H), scale=16),
                            'sequence_lens': np.array([2, 3], np.int32)})
cases.append(('DynamicQuantizeLSTM reverse with uint8 weights, zero points and peepholes',
              '[quantization][DynamicQuantizeLSTM]',
              case(unsigned, 'reverse', share_outputs='Reverse')
              + case(unsigned, 'reverse', constant=True)))


def error(expect, changes=(), attrs=(), direction='forward'):
    """The first case's inputs with `changes` ({name: array, or None to omit}), expected to fail
    with `expect`."""
    inputs = {**forward, **dict(changes)}
    s = '\n  OpTester("DynamicQuantizeLSTM", 1, "com.microsoft")\n      .AttrInt("hidden_size", 2)'
    for name, value in attrs:
        s += f'\n      .AttrInt("{name}", {value})'
    if direction != 'forward':
        s += f'\n      .AttrString("direction", "{direction}")'
    for name in NAMES:
        a = inputs.get(name)
        s += f'\n      {tensor(name, a)}' if a is not None else '\n      .OmittedInput()'
    return s + f'\n      .UncheckedOutput("Y")\n      .RunExpectingError("{expect}");'


w, r = forward['W'], forward['R']
errors = (error('W int8[1,3,6] must be int8 or uint8 [1, depth, 8]', {'W': w[:, :, :6]})
          + error('R int8[1,3,8] must be [1, 2, 8]', {'R': np.zeros((1, 3, 8), np.int8)})
          + error("W's scale and zero point (float[2]) must be float [1] or [1, 8]",
                  {'W_scale': np.full(2, 0.01, np.float32)})
          + error("R's scale and zero point (uint8[1]) must be int8 [1] or [1, 8]",
                  {'R_zero_point': np.zeros(1, np.uint8)})
          + error('X has input size 2 but W expects 3', {'X': forward['X'][:, :, :2]})
          + error('required input 10 is missing', {'R_scale': None})
          + error('R int8[1,2,8] must be int8 or uint8 [2, depth, 8]', direction='bidirectional')
          + error('DynamicQuantizeLSTM has no layout attribute', attrs=[('layout', 1)])
          + error('sequence_lens[0] = 4 is outside [0, 3]',
                  {'sequence_lens': np.array([4, 1], np.int32)}))
extra = ('TEST_CASE("DynamicQuantizeLSTM rejects misshaped and mistyped inputs by name", '
         f'"[quantization][DynamicQuantizeLSTM]") {{{errors}\n}}')

text = ''.join(body for _, _, body in cases) + extra
used = {cpp_name for cpp_name in SHARED if cpp_name in text}
with open(sys.argv[1], 'w') as stream:
    stream.write('// Generated by tools/contrib_kernel_tests/gen_dynamic_quantize_lstm.py. '
                 "Expected values are numpy's\n// float64 LSTM on the dequantized weights (W - "
                 'zero) * scale. onnxruntime quantizes X and H to\n// uint8 as well, which moves '
                 'its outputs by a few hundredths (crosscheck_quantized.py).\n'
                 '#include <catch2/catch.hpp>\n\n#include "test/providers/cpu/op_tester.h"\n\n'
                 'namespace ort::test {\n\nnamespace {\n\n')
    for cpp_name, a in SHARED.items():
        if cpp_name in used:
            stream.write(f'const std::vector<{CTYPES.get(a.dtype, "float")}> {cpp_name} = '
                         f'{literal(a)};\n')
    stream.write('\n}  // namespace\n\n')
    for name, tag, body in cases:
        stream.write(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n\n')
    stream.write(extra + '\n\n}  // namespace ort::test\n')
