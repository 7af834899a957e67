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


def ints(name, a, ctype='int32_t', kind='Input'):
    """An OpTester input of integers."""
    a = np.asarray(a)
    return f'.{kind}<{ctype}>("{name}", {dims(a)}, {{{", ".join(str(int(v)) for v in a.ravel())}}})'


LOWEST = float(np.finfo(np.float32).min)


def qattention_ref(x, w, bias, x_scale, w_scale, heads, x_zero=0, w_zero=0, mask=None, past=None,
                   unidirectional=False, scale=0.0, filter_value=-10000.0):
    """com.microsoft QAttention in float64 as onnxruntime's CPU kernel computes it: the exact
    integer projection (x - x_zero)(w - w_zero) times float32(x_scale * w_scale) (per column when
    w_scale is a vector) plus bias, split into Q, K and V heads; past [2, B, N, P, H] goes before
    K and V. Masked keys get filter_value added, causally hidden ones (after P + s for query
    s < S - 1) the lowest float instead. Returns the output and present [2, B, N, P + S, H]."""
    acc = (x.astype(np.int64) - x_zero) @ (w.astype(np.int64) - np.asarray(w_zero, np.int64))
    multiplier = (np.float32(x_scale) * np.asarray(w_scale, np.float32)).astype(np.float64)
    qkv = acc * multiplier + bias
    b_, s_, _ = x.shape
    hidden = w.shape[1] // 3
    h = hidden // heads
    Q, K, V = (qkv[..., i * hidden:(i + 1) * hidden].reshape(b_, s_, heads, h).transpose(0, 2, 1, 3)
               for i in range(3))
    P = 0
    if past is not None:
        P = past.shape[3]
        K, V = np.concatenate([past[0], K], 2), np.concatenate([past[1], V], 2)
    T = P + s_
    scores = (scale if scale else 1 / np.sqrt(h)) * Q @ K.transpose(0, 1, 3, 2)
    add = np.zeros((b_, s_, T))
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim == 1:
            for b in range(b_):
                add[b, :, mask[b]:] = filter_value
                if mask.shape[0] == 2 * b_:
                    add[b, :, :mask[b_ + b]] = filter_value
        elif mask.ndim == 2 and mask.shape[1] == T:
            add += np.where(mask[:, None, :] > 0, 0.0, filter_value)
        elif mask.ndim == 3:
            add += np.where(mask > 0, 0.0, filter_value)
        elif mask.ndim == 4:
            add += np.where(mask[:, 0, :s_, :T] > 0, 0.0, filter_value)
    if unidirectional:
        for i in range(s_ - 1):
            add[:, i, P + i + 1:] = LOWEST
    scores = scores + add[:, None]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    out = (e / e.sum(-1, keepdims=True)) @ V
    return out.transpose(0, 2, 1, 3).reshape(b_, s_, hidden), np.stack([K, V])


def dequantize_lstm_weights(q, scale, zero):
    """DynamicQuantizeLSTM's W [D, depth, 4H] or R as float32 (q - zero) * scale, with scale and
    zero [D] or [D, 4H], transposed to the ONNX LSTM's [D, 4H, depth]."""
    directions = q.shape[0]
    s = np.asarray(scale, np.float32).reshape(directions, 1, -1)
    z = np.asarray(zero, np.int32).reshape(directions, 1, -1)
    return ((q.astype(np.int32) - z).astype(np.float32) * s).transpose(0, 2, 1).astype(np.float64)


def quantize_dequantize_u8(a):
    """a through onnxruntime's dynamic uint8 quantization (range widened to hold 0, scale
    range / 255, zero point and values rounded half to even) and back, in float64."""
    lo, hi = min(a.min(), 0.0), max(a.max(), 0.0)
    scale = np.float32((hi - lo) / 255) if hi > lo else np.float32(1)
    zero = np.clip(np.rint(-lo / scale), 0, 255)
    return (np.clip(np.rint(a / scale) + zero, 0, 255) - zero) * np.float64(scale)


def lstm_ref(x, w, r, b=None, lengths=None, h0=None, c0=None, p=None, direction='forward',
             quantized=False):
    """ONNX LSTM in float64 (gates i, o, f, c; sigmoid, tanh, tanh): x [S, B, I], w [D, 4H, I],
    r [D, 4H, H]. Steps past a sequence's length leave zeros in Y and its state unchanged.
    `quantized` emulates onnxruntime's DynamicQuantizeLSTM, which quantizes each direction's X
    (its first max(lengths) steps, each sequence reversed in place for the reverse direction)
    and each step's H (ended sequences' rows zeroed) with quantize_dequantize_u8."""
    s_, b_, _ = x.shape
    d_, h4, hidden = r.shape
    lengths = np.full(b_, s_) if lengths is None else np.asarray(lengths)
    b = np.zeros((d_, 2 * h4)) if b is None else b
    h0 = np.zeros((d_, b_, hidden)) if h0 is None else h0
    c0 = np.zeros((d_, b_, hidden)) if c0 is None else c0
    p = np.zeros((d_, 3 * hidden)) if p is None else p
    through = quantize_dequantize_u8 if quantized else lambda a: a
    y = np.zeros((s_, d_, b_, hidden))
    yh, yc = np.zeros((d_, b_, hidden)), np.zeros((d_, b_, hidden))
    sig = lambda v: 1 / (1 + np.exp(-v))
    steps = lengths.max()
    for d in range(d_):
        reverse = direction == 'reverse' or d == 1
        xs = x[:steps].astype(np.float64)
        for n in range(b_ if reverse else 0):
            xs[:lengths[n], n] = xs[:lengths[n], n][::-1]
        projected = through(xs) @ w[d].T
        pi, po, pf = p[d, :hidden], p[d, hidden:2 * hidden], p[d, 2 * hidden:]
        h, c = h0[d].copy(), c0[d].copy()
        for t in range(steps):
            g = projected[t] + through(h) @ r[d].T + b[d, :h4] + b[d, h4:]
            gi, go, gf, gc = np.split(g, 4, axis=1)
            i, f = sig(gi + pi * c), sig(gf + pf * c)
            c_next = f * c + i * np.tanh(gc)
            h_next = sig(go + po * c_next) * np.tanh(c_next)
            for n in range(b_):
                if t < lengths[n]:
                    h[n], c[n] = h_next[n], c_next[n]
                    y[lengths[n] - 1 - t if reverse else t, d, n] = h[n]
                    yh[d, n], yc[d, n] = h[n], c[n]
                else:
                    h[n], c[n] = 0, 0
    return y, yh, yc
