#!/usr/bin/python3
"""Writes test/providers/cpu/contrib/activation/gelu_test.cc (numpy reference values).

Usage: gen_activation.py > test/providers/cpu/contrib/activation/gelu_test.cc && clang-format -i ...
"""
from common import *

x = vals((2, 6))
x[0, 0] = 6.0; x[0, 1] = -6.0; x[1, 5] = 0.0
bias = vals((6,))
cases = []
ms = '1, "com.microsoft"'
cases.append(('Gelu is the erf form of GELU', '[contrib][Gelu]', f'''
  OpTester("Gelu", {ms})
      {inp("x", x)}
      {out("y", gelu(x))}
      .Run();'''))
cases.append(('FastGelu is the tanh approximation, with and without bias', '[contrib][FastGelu]', f'''
  OpTester("FastGelu", {ms})
      {inp("x", x)}
      {out("y", fast_gelu(x))}
      .Run();
  OpTester("FastGelu", {ms})
      {inp("x", x)}
      {inp("bias", bias)}
      {out("y", fast_gelu(x + bias))}
      .Run();
  OpTester("FastGelu", {ms})
      {inp("x", x)}
      .OmittedInput()
      {out("y", fast_gelu(x))}
      .Run();'''))
cases.append(('BiasGelu adds a bias over the last axis before the erf GELU', '[contrib][BiasGelu]', f'''
  OpTester("BiasGelu", {ms})
      {inp("a", x)}
      {inp("b", bias, "ConstantInput")}
      {out("y", gelu(x + bias))}
      .Run();'''))
cases.append(('QuickGelu is x * sigmoid(alpha x)', '[contrib][QuickGelu]', f'''
  OpTester("QuickGelu", {ms})
      {inp("x", x)}
      {out("y", x * sigmoid(1.702 * x))}
      .Run();
  OpTester("QuickGelu", {ms})
      .AttrFloat("alpha", -0.5f)
      {inp("x", x)}
      {out("y", x * sigmoid(-0.5 * x))}
      .Run();'''))

print('''// Expected values are numpy's (float64 math/erf, rounded to float), hand-checked at 0 and +-6.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
''')
for name, tag, body in cases:
    print(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n')
print(f'''TEST_CASE("BiasGelu and FastGelu reject a bias that is not the last axis", "[contrib][BiasGelu]") {{
  OpTester("BiasGelu", {ms})
      .Input<float>("a", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .Input<float>("b", {{2}}, {{1, 2}})
      .Output<float>("y", {{2, 3}}, {{0, 0, 0, 0, 0, 0}})
      .RunExpectingError("must be 1-D");
  OpTester("BiasGelu", {ms})
      .Input<float>("a", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .OmittedInput()
      .Output<float>("y", {{2, 3}}, {{0, 0, 0, 0, 0, 0}})
      .RunExpectingError("required input 1 is missing");
  OpTester("FastGelu", {ms})
      .Input<float>("x", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .Input<float>("bias", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})
      .Output<float>("y", {{2, 3}}, {{0, 0, 0, 0, 0, 0}})
      .RunExpectingError("must be 1-D");
}}

TEST_CASE("Gelu and FastGelu compute double and half types", "[contrib][Gelu]") {{
  // gelu(+-1) = 0.5 (1 +- erf(1/sqrt 2)); fast_gelu(1) = 0.5 (1 + tanh(sqrt(2/pi) 1.044715)).
  OpTester("Gelu", {ms})
      .Input<double>("x", {{3}}, {{0.0, 1.0, -1.0}})
      .Output<double>("y", {{3}}, {{0.0, 0.8413447460685429, -0.15865525393145707}})
      .Run();
  OpTester("FastGelu", {ms})
      .Input<Float16>("x", {{2}}, {{Float16(0.0f), Float16(0.5f)}})
      .Input<Float16>("bias", {{2}}, {{Float16(1.0f), Float16(-0.5f)}})
      .Output<Float16>("y", {{2}}, {{Float16(0.84119199f), Float16(0.0f)}})
      .SetTolerance(1e-3, 1e-3)
      .Run();
}}

}}  // namespace ort::test''')
