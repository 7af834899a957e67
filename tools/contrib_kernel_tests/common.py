"""Shared helpers of the contrib kernel test generators: exact inputs, numpy references and
C++ literal formatting for OpTester cases."""
import numpy as np
from math import erf, sqrt, tanh

rng = np.random.default_rng(7)

def vals(shape, scale=8, lo=-16, hi=17):
    """Multiples of 1/scale: exact in float32."""
    return (rng.integers(lo, hi, size=shape) / scale).astype(np.float64)

def f(v):
    v = float(v)
    if v == float('inf'): return 'kInf'
    if v == float('-inf'): return '-kInf'
    s = '%.8g' % np.float32(v)
    if 'e' not in s and '.' not in s: s += '.0'
    return s + 'f'

def arr(a):
    a = np.asarray(a, dtype=np.float64).ravel()
    return '{' + ', '.join(f(x) for x in a) + '}'

def dims(a):
    return '{' + ', '.join(str(d) for d in np.shape(a)) + '}'

def inp(name, a, kind='Input'):
    return f'.{kind}<float>("{name}", {dims(a)}, {arr(a)})'

def out(name, a):
    return f'.Output<float>("{name}", {dims(a)}, {arr(a)})'

verf = np.vectorize(erf)
def gelu(x): return 0.5 * x * (1 + verf(x / np.sqrt(2)))
def fast_gelu(x): return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
def sigmoid(x): return 1 / (1 + np.exp(-x))
