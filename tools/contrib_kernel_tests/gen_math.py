#!/usr/bin/python3
"""Writes test/providers/cpu/contrib/math/fused_math_test.cc (numpy reference values).

Usage: gen_math.py > test/providers/cpu/contrib/math/fused_math_test.cc && clang-format -i ...
"""
from common import *
ms = '1, "com.microsoft"'

def fmm(a, b, alpha=1.0, ta=0, tb=0, tba=0, tbb=0):
    def prep(x, t, tbt):
        if tbt and x.ndim >= 3:
            x = np.transpose(x, list(range(1, x.ndim - 1)) + [0, x.ndim - 1])
        if t and x.ndim >= 2:
            x = np.swapaxes(x, -1, -2)
        return x
    return alpha * np.matmul(prep(a, ta, tba), prep(b, tb, tbb))

def fmm_case(a, b, **kw):
    attrs = ''
    names = {'alpha': 'alpha', 'ta': 'transA', 'tb': 'transB', 'tba': 'transBatchA', 'tbb': 'transBatchB'}
    for k, v in kw.items():
        if k == 'alpha': attrs += f'\n      .AttrFloat("alpha", {f(v)})'
        else: attrs += f'\n      .AttrInt("{names[k]}", {v})'
    return f'''
  OpTester("FusedMatMul", {ms}){attrs}
      {inp("a", a)}
      {inp("b", b)}
      {out("y", fmm(a, b, **kw))}
      .Run();'''

cases = []
a = vals((3, 4)); b = vals((4, 2))
cases.append(('FusedMatMul scales a matrix product by alpha', '[contrib][FusedMatMul]',
              fmm_case(a, b) + fmm_case(a, b, alpha=-0.5)))
at = vals((4, 3)); bt = vals((2, 4))
cases.append(('FusedMatMul transposes either operand', '[contrib][FusedMatMul]',
              fmm_case(at, b, ta=1) + fmm_case(a, bt, tb=1) + fmm_case(at, bt, ta=1, tb=1, alpha=2.0)))
a4 = vals((2, 1, 3, 4)); b3 = vals((3, 2, 4)); b3t = vals((3, 4, 2))
cases.append(('FusedMatMul broadcasts batch dimensions', '[contrib][FusedMatMul]',
              fmm_case(a4, b3, tb=1) + fmm_case(vals((2, 3, 4)), vals((4, 5)), alpha=0.25)
              + fmm_case(vals((3, 4)), b3t) + fmm_case(vals((2, 2, 4, 3)), vals((2, 1, 4, 2)), ta=1)))
cases.append(('FusedMatMul reads vectors as rows and columns', '[contrib][FusedMatMul]',
              fmm_case(vals((4,)), vals((2, 4, 3)), ta=1) + fmm_case(vals((2, 3, 4)), vals((4,)), tb=1)
              + fmm_case(vals((4,)), vals((4,)), alpha=3.0)))
# transBatch: stored [M, batch, K]
cases.append(('FusedMatMul moves the leading axis behind the batch with transBatchA/B', '[contrib][FusedMatMul]',
              fmm_case(vals((3, 2, 4)), vals((2, 4, 5)), tba=1)
              + fmm_case(vals((2, 3, 4)), vals((4, 2, 5)), tbb=1)
              + fmm_case(vals((4, 2, 3)), vals((5, 2, 4)), tba=1, tbb=1, ta=1, tb=1)
              + fmm_case(vals((3, 2, 2, 4)), vals((2, 2, 4, 2)), tba=1, alpha=0.5)
              + fmm_case(vals((3, 2, 4)), vals((4, 5)), tba=1)))
cases.append(('FusedMatMul with an empty inner dimension gives zeros', '[contrib][FusedMatMul]', f'''
  OpTester("FusedMatMul", {ms})
      .AttrInt("transA", 1)
      .Input<float>("a", {{0, 2}}, {{}})
      .Input<float>("b", {{0, 3}}, {{}})
      .Output<float>("y", {{2, 3}}, {{0, 0, 0, 0, 0, 0}})
      .Run();'''))

# FusedGemm
def gemm_case(act, fn, attrs, ta=0, tb=0, alpha=1.0, beta=1.0, c_shape=(3,)):
    A = vals((4, 3) if ta else (3, 4)); B = vals((5, 4) if tb else (4, 5)); C = vals(c_shape)
    y = alpha * ((A.T if ta else A) @ (B.T if tb else B)) + beta * C
    at = ''.join(f'\n      .AttrFloat("{k}", {f(v)})' for k, v in attrs.items())
    extra = ''
    if ta: extra += '\n      .AttrInt("transA", 1)'
    if tb: extra += '\n      .AttrInt("transB", 1)'
    if alpha != 1.0: extra += f'\n      .AttrFloat("alpha", {f(alpha)})'
    if beta != 1.0: extra += f'\n      .AttrFloat("beta", {f(beta)})'
    return f'''
  OpTester("FusedGemm", {ms})
      .AttrString("activation", "{act}"){at}{extra}
      {inp("a", A)}
      {inp("b", B)}
      {inp("c", C)}
      {out("y", fn(y))}
      .Run();'''

cases.append(('FusedGemm applies its activation to Gemm', '[contrib][FusedGemm]',
    gemm_case('Relu', lambda y: np.maximum(y, 0), {}, c_shape=(5,))
    + gemm_case('LeakyRelu', lambda y: np.where(y < 0, 0.125 * y, y), {'activation_alpha': 0.125}, ta=1, c_shape=(3, 5))
    + gemm_case('Sigmoid', sigmoid, {}, tb=1, alpha=0.25, c_shape=(3, 1))
    + gemm_case('Tanh', lambda y: np.tanh(y), {}, alpha=0.25, beta=0.5, c_shape=(5,))
    + gemm_case('HardSigmoid', lambda y: np.clip(0.25 * y + 0.5, 0, 1), {'activation_alpha': 0.25, 'activation_beta': 0.5}, c_shape=(5,))
    + gemm_case('ScaledTanh', lambda y: 2.0 * np.tanh(0.25 * y), {'activation_alpha': 2.0, 'activation_beta': 0.25}, c_shape=(5,))
    + gemm_case('Elu', lambda y: np.where(y < 0, 0.5 * (np.exp(y) - 1), y), {'activation_alpha': 0.5}, c_shape=(5,))
    + gemm_case('Softplus', lambda y: np.log1p(np.exp(y)), {}, c_shape=(5,))))
cases.append(('FusedGemm supports the remaining ORT activations', '[contrib][FusedGemm]',
    gemm_case('Selu', lambda y: 1.25 * np.where(y <= 0, 1.5 * np.exp(y) - 1.5, y), {'activation_alpha': 1.5, 'activation_gamma': 1.25}, c_shape=(5,))
    + gemm_case('Celu', lambda y: np.maximum(y, 0) + np.minimum(0, 2.0 * (np.exp(y / 2.0) - 1)), {'activation_alpha': 2.0}, c_shape=(5,))
    + gemm_case('Softsign', lambda y: y / (1 + np.abs(y)), {}, c_shape=(5,))
    + gemm_case('ThresholdedRelu', lambda y: np.where(y > 0.5, y, 0), {'activation_alpha': 0.5}, c_shape=(5,))
    + gemm_case('ParametricSoftplus', lambda y: 0.5 * np.log1p(np.exp(2.0 * y)), {'activation_alpha': 0.5, 'activation_beta': 2.0}, c_shape=(5,))))

x = vals((2, 3, 4)); bias = vals((4,)); skip = vals((2, 3, 4))
cases.append(('BiasAdd adds a channel bias and a skip tensor', '[contrib][BiasAdd]', f'''
  OpTester("BiasAdd", {ms})
      {inp("x", x)}
      {inp("bias", bias)}
      {inp("skip", skip)}
      {out("y", x + bias + skip)}
      .Run();'''))

print('''// Expected values are numpy's: FusedMatMul as np.matmul of the transposed operands (transBatch
// moves axis 0 behind the other batch axes), FusedGemm as the activation of alpha A B + beta C.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
''')
for name, tag, body in cases:
    print(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n')
print(f'''TEST_CASE("FusedMatMul, FusedGemm and BiasAdd reject mismatched shapes", "[contrib][FusedMatMul]") {{
  OpTester("FusedMatMul", {ms})
      .AttrInt("transB", 1)
      .Input<float>("a", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .Input<float>("b", {{3, 2}}, {{1, 2, 3, 4, 5, 6}})
      .Output<float>("y", {{2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("inner dimensions differ");
  OpTester("FusedGemm", {ms})
      .AttrString("activation", "Gelu")
      .Input<float>("a", {{1, 1}}, {{1}})
      .Input<float>("b", {{1, 1}}, {{1}})
      .Output<float>("y", {{1, 1}}, {{0}})
      .RunExpectingError("unsupported activation 'Gelu'");
  OpTester("BiasAdd", {ms})
      .Input<float>("x", {{1, 2, 2}}, {{1, 2, 3, 4}})
      .Input<float>("bias", {{2}}, {{1, 2}})
      .Input<float>("skip", {{1, 1, 2}}, {{1, 2}})
      .Output<float>("y", {{1, 2, 2}}, {{0, 0, 0, 0}})
      .RunExpectingError("must have X's shape");
}}

TEST_CASE("FusedMatMul and FusedGemm compute doubles", "[contrib][FusedMatMul]") {{
  // [[1, 2], [3, 4]]^T [[1, 0], [0, -1]] / 2 = [[0.5, -1.5], [1, -2]].
  OpTester("FusedMatMul", {ms})
      .AttrInt("transA", 1)
      .AttrFloat("alpha", 0.5f)
      .Input<double>("a", {{2, 2}}, {{1, 2, 3, 4}})
      .Input<double>("b", {{2, 2}}, {{1, 0, 0, -1}})
      .Output<double>("y", {{2, 2}}, {{0.5, -1.5, 1, -2}})
      .Run();
  // relu([[1, 2], [3, 4]] [[1, 0], [0, -1]] + [0.5, 1]) = relu([[1.5, -1], [3.5, -3]]).
  OpTester("FusedGemm", {ms})
      .AttrString("activation", "Relu")
      .Input<double>("a", {{2, 2}}, {{1, 2, 3, 4}})
      .Input<double>("b", {{2, 2}}, {{1, 0, 0, -1}})
      .Input<double>("c", {{2}}, {{0.5, 1}})
      .Output<double>("y", {{2, 2}}, {{1.5, 0, 3.5, 0}})
      .Run();
}}

}}  // namespace ort::test''')
