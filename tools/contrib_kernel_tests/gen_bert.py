#!/usr/bin/python3
"""Writes the MultiHeadAttention and RotaryEmbedding (com.microsoft) tests (numpy reference
values, float64, following ONNX Runtime 1.30's CPU semantics as crosscheck_bert.py confirms).

Usage: gen_bert.py test/providers/cpu/contrib/bert/multihead_attention_test.cc \
           test/providers/cpu/contrib/bert/rotary_embedding_test.cc && clang-format -i ...
"""
import sys

from common import *

ms = '1, "com.microsoft"'


# Tensors several cases read, written once as named constants.
SHARED = {}


def share(cpp_name, a):
    SHARED[cpp_name] = a
    return a


def tensor(name, a):
    for cpp_name, shared in SHARED.items():
        if shared is a:
            return f'.Input<float>("{name}", {dims(a)}, {cpp_name})'
    return inp(name, a)


def mha_ref(q, k, v, heads, bias=None, mask=None, attention_bias=None, past_k=None, past_v=None,
            scale=0.0, filter_value=-10000.0, unidirectional=False):
    """Output, present key/value and the scores before the softmax. Masked keys get
    filter_value added; causally hidden ones (keys after past + s of query s < S - 1) the lowest
    float instead."""
    b_, s_, d = q.shape
    h = d // heads
    bias = np.zeros(3 * d if k.ndim == 4 else 2 * d + v.shape[2]) if bias is None else bias
    Q = (q + bias[:d]).reshape(b_, s_, heads, h).transpose(0, 2, 1, 3)
    if k.ndim == 3:
        L = k.shape[1]
        K = (k + bias[d:2 * d]).reshape(b_, L, heads, h).transpose(0, 2, 1, 3)
        V = (v + bias[2 * d:]).reshape(b_, L, heads, -1).transpose(0, 2, 1, 3)
    else:
        K, V = k, v
    if past_k is not None:
        K, V = np.concatenate([past_k, K], 2), np.concatenate([past_v, V], 2)
    T = K.shape[2]
    P = 0 if past_k is None else past_k.shape[2]
    scores = (scale if scale else 1 / np.sqrt(h)) * Q @ K.transpose(0, 1, 3, 2)
    if attention_bias is not None:
        scores = scores + attention_bias
    add = np.zeros((b_, s_, T))
    if mask is not None:
        if mask.ndim == 1:
            for b in range(b_):
                add[b, :, mask[b]:] = filter_value
        elif mask.ndim == 2:
            add += np.where(mask[:, None, :] > 0, 0.0, filter_value)
        else:
            add += np.where(mask > 0, 0.0, filter_value)
    if unidirectional:
        for i in range(s_ - 1):
            add[:, i, P + i + 1:] = LOWEST
    scores = scores + add[:, None]
    e = np.exp(scores - scores.max(-1, keepdims=True))
    out = (e / e.sum(-1, keepdims=True)) @ V
    return out.transpose(0, 2, 1, 3).reshape(b_, s_, -1), K, V, scores


def mha_case(q, k, v, heads, bias=None, mask=None, attention_bias=None, past_k=None, past_v=None,
             outputs=('output',), threads=0, mask_name='key_padding_mask', **attrs):
    o, K, V, qk = mha_ref(q, k, v, heads, bias, mask, attention_bias, past_k, past_v,
                          attrs.get('scale', 0.0), attrs.get('mask_filter_value', -10000.0),
                          attrs.get('unidirectional', 0))
    s = f'\n  OpTester("MultiHeadAttention", {ms})\n      .AttrInt("num_heads", {heads})'
    for name, value in attrs.items():
        s += (f'\n      .AttrInt("{name}", {value})' if isinstance(value, int)
              else f'\n      .AttrFloat("{name}", {f(value)})')
    if threads:
        s += f'\n      .Threads({threads})'
    s += f'\n      .SetTolerance(1e-4, 1e-4)\n      {tensor("query", q)}\n      {tensor("key", k)}'
    s += f'\n      {tensor("value", v)}'
    given = [(bias, lambda a: tensor('bias', a)),
             (mask, lambda a: ints(mask_name, a)),
             (attention_bias, lambda a: tensor('attention_bias', a)),
             (past_k, lambda a: tensor('past_key', a)),
             (past_v, lambda a: tensor('past_value', a))]
    last = max([i for i, (a, _) in enumerate(given) if a is not None], default=-1)
    for a, write in given[:last + 1]:
        s += f'\n      {write(a)}' if a is not None else '\n      .OmittedInput()'
    values = {'output': o, 'present_key': K, 'present_value': V, 'qk': qk}
    for name in outputs:
        s += f'\n      {out(name, values[name])}' if name else '\n      .OmittedOutput()'
    return s + '\n      .Run();'


B, S, N, H = 2, 3, 2, 2
D = N * H
q, k, v = share('kQuery', vals((B, S, D))), share('kKey', vals((B, S, D))), share('kValue', vals((B, S, D)))
bias = share('kBias', vals((3 * D,)))
mha_cases = []
mha_cases.append(('MultiHeadAttention self-attention adds each part of bias',
                  '[contrib][MultiHeadAttention]',
                  mha_case(q, k, v, N, bias=bias) + mha_case(q, k, v, N, bias=bias, threads=2)
                  + mha_case(q, k, v, N)))

L = 4
kx, vx = share('kCrossKey', vals((B, L, D))), share('kCrossValue', vals((B, L, 2 * D)))
vx4 = share('kCrossValue4', vx[:, :, :D])
raw = np.array([[1, 1, 0, 0], [1, 1, 1, 1]])
mha_cases.append(('MultiHeadAttention cross-attention with more keys than queries, a wider V and a '
                  'raw [B, L] mask', '[contrib][MultiHeadAttention]',
                  mha_case(q, kx, vx, N, bias=vals((4 * D,)), mask=raw)))
mha_cases.append(('MultiHeadAttention key lengths [B] and [3B + 2] hide the keys past each length',
                  '[contrib][MultiHeadAttention]',
                  mha_case(q, kx, vx, N, mask=np.array([2, 4]))
                  + mha_case(q, kx, vx, N, mask=np.array([2, 4, 0, 2, 5, 0, 2, 6]))
                  + mha_case(q, kx, vx, N, mask=raw)))
kh, vh = vals((B, N, L, H)), vals((B, N, L, H))
mha_cases.append(('MultiHeadAttention with key and value as [B, N, L, H] heads adds only the Q bias',
                  '[contrib][MultiHeadAttention]',
                  mha_case(q, kh, vh, N, bias=vals((3 * D,)),
                           outputs=('output', 'present_key', 'present_value'))))
mha_cases.append(('MultiHeadAttention broadcasts attention_bias over batch and heads and returns '
                  'the scores', '[contrib][MultiHeadAttention]',
                  mha_case(q, kx, vx4, N, attention_bias=vals((1, N, S, L)),
                           outputs=('output', '', '', 'qk'))
                  + mha_case(q, kx, vx4, N, attention_bias=vals((B, 1, S, L)))
                  + mha_case(q, kx, vx4, N, attention_bias=vals((1, 1, S, L)), mask=raw,
                             outputs=('output', '', '', 'qk'))))
P = 2
past_k, past_v = share('kPastKey', vals((B, N, P, H))), share('kPastValue', vals((B, N, P, H)))
mha_cases.append(('MultiHeadAttention appends this step to the past and hides later keys when '
                  'unidirectional', '[contrib][MultiHeadAttention]',
                  mha_case(q, k, v, N, bias=bias, past_k=past_k, past_v=past_v,
                           outputs=('output', 'present_key', 'present_value'), unidirectional=1)
                  + mha_case(q, k, v, N, mask=np.array([[0, 1, 1, 1, 1], [1, 1, 1, 1, 0]]),
                             past_k=past_k, past_v=past_v, outputs=('output', 'present_key'),
                             unidirectional=1)
                  + mha_case(q[:, :1], k[:, :1], v[:, :1], N, past_k=past_k, past_v=past_v,
                             outputs=('output', '', 'present_value'), unidirectional=1)
                  + mha_case(q, k, v, N, past_k=past_k, past_v=past_v)))
mha_cases.append(('MultiHeadAttention scale, mask_filter_value and a [B, S, T] mask',
                  '[contrib][MultiHeadAttention]',
                  mha_case(q, kx, vx, N, mask=np.array([[[1, 0, 1, 1], [0, 0, 0, 0], [1, 1, 0, 1]],
                                                        [[0, 1, 1, 1], [1, 1, 1, 0], [0, 0, 1, 0]]]),
                           scale=0.25, mask_filter_value=-1.0)
                  + mha_case(q, k, v, N, unidirectional=1, mask_filter_value=-1.0,
                             outputs=('output', '', '', 'qk'))))


def mha_error(expect, inputs, heads=2, outputs=('output',)):
    s = f'\n  OpTester("MultiHeadAttention", {ms})\n      .AttrInt("num_heads", {heads})'
    for name, a in inputs:
        if a is None:
            s += '\n      .OmittedInput()'
        elif name in ('key_padding_mask', 'past_sequence_length', 'cache_indirection'):
            s += f'\n      {ints(name, a)}'
        else:
            s += f'\n      {inp(name, np.zeros(a))}'
    for name in outputs:
        s += f'\n      .UncheckedOutput("{name}")'
    return s + f'\n      .RunExpectingError("{expect}");'


qkv = [('query', (2, 3, 4)), ('key', (2, 3, 4)), ('value', (2, 3, 4))]
errors = (mha_error('query float[2,3,3] must be [B, S, hidden]',
                    [('query', (2, 3, 3)), ('key', (2, 3, 3)), ('value', (2, 3, 3))])
          + mha_error('packed QKV query', [('query', (2, 3, 2, 3, 2))])
          + mha_error('key and value are required', [('query', (2, 3, 4))])
          + mha_error('key float[2,3,6] and value float[2,3,4] must be',
                      [('query', (2, 3, 4)), ('key', (2, 3, 6)), ('value', (2, 3, 4))])
          + mha_error('must both be [B, num_heads, L, head_size]',
                      [('query', (2, 3, 4)), ('key', (2, 2, 3, 2)), ('value', (2, 2, 4, 2))])
          + mha_error('bias float[8] must be [12]', qkv + [('bias', (8,))])
          + mha_error('key_padding_mask int32[2,4] must be',
                      qkv + [('bias', None), ('key_padding_mask', np.ones((2, 4)))])
          + mha_error('attention_bias float[1,2,3,4] must be',
                      qkv + [('bias', None), ('key_padding_mask', None),
                             ('attention_bias', (1, 2, 3, 4))])
          + mha_error('past_key and past_value must be given together',
                      qkv + [('bias', None), ('key_padding_mask', None), ('attention_bias', None),
                             ('past_key', (2, 2, 1, 2))])
          + mha_error('past_key float[2,2,1,3] and past_value float[2,2,1,2] must be',
                      qkv + [('bias', None), ('key_padding_mask', None), ('attention_bias', None),
                             ('past_key', (2, 2, 1, 3)), ('past_value', (2, 2, 1, 2))])
          + mha_error('past_sequence_length input (past and present sharing one buffer) is not '
                      'supported',
                      qkv + [('bias', None), ('key_padding_mask', None), ('attention_bias', None),
                             ('past_key', (2, 2, 1, 2)), ('past_value', (2, 2, 1, 2)),
                             ('past_sequence_length', np.array([1]))])
          + mha_error('cache_indirection input (beam search) is not supported',
                      qkv + [('bias', None), ('key_padding_mask', None), ('attention_bias', None),
                             ('past_key', None), ('past_value', None),
                             ('past_sequence_length', None),
                             ('cache_indirection', np.zeros((2, 1, 3)))]))
mha_extra = ('TEST_CASE("MultiHeadAttention rejects misshaped inputs and unsupported ones by name", '
             f'"[contrib][MultiHeadAttention]") {{{errors}\n}}')


def rotary_ref(x, positions, cos, sin, interleaved, heads=0, rotary=0):
    if x.ndim == 3:
        b_, s_, d = x.shape
        h = d // heads if rotary else 2 * cos.shape[1]
        X = x.reshape(b_, s_, d // h, h).transpose(0, 2, 1, 3)
    else:
        X = x
        s_ = x.shape[2]
    r = rotary or X.shape[3]
    ids = positions if positions.ndim == 2 else positions.reshape(-1)[0] + np.arange(s_)[None]
    c, s = cos[ids][:, None, :, :r // 2], sin[ids][:, None, :, :r // 2]
    Y = X.copy()
    first = np.arange(0, r, 2) if interleaved else np.arange(r // 2)
    second = first + 1 if interleaved else first + r // 2
    Y[..., first] = c * X[..., first] - s * X[..., second]
    Y[..., second] = s * X[..., first] + c * X[..., second]
    return Y.transpose(0, 2, 1, 3).reshape(x.shape) if x.ndim == 3 else Y


def rotary_case(x, positions, cos, sin, interleaved=0, heads=0, rotary=0, attrs=''):
    s = f'\n  OpTester("RotaryEmbedding", {ms})'
    if interleaved:
        s += '\n      .AttrInt("interleaved", 1)'
    if heads:
        s += f'\n      .AttrInt("num_heads", {heads})'
    if rotary:
        s += f'\n      .AttrInt("rotary_embedding_dim", {rotary})'
    s += attrs
    s += (f'\n      {tensor("input", x)}\n      {ints("position_ids", positions, "int64_t")}'
          f'\n      {tensor("cos_cache", cos)}\n      {tensor("sin_cache", sin)}'
          f'\n      {out("output", rotary_ref(x, positions, cos, sin, interleaved, heads, rotary))}'
          '\n      .Run();')
    return s


M = 6
cos = share('kCos', vals((M, 2), scale=4, lo=-4, hi=5))
sin = share('kSin', vals((M, 2), scale=4, lo=-4, hi=5))
x3, x4 = share('kInput3d', vals((2, 3, 8))), share('kInput4d', vals((2, 2, 3, 4)))
ids = np.array([[0, 1, 2], [5, 3, 3]])
# This engine's kv_num_heads extension, hand-derived (numpy in its comment).
mha_extra += '\n\n' + r'''TEST_CASE("MultiHeadAttention with kv_num_heads shares each key and value head",
          "[contrib][MultiHeadAttention]") {
  // This engine's extension (fuse_grouped_kv_heads): both query heads read the one key and value
  // head. numpy: per query head n, softmax(q_n k_{n/2}^T / sqrt(2)) v_{n/2}.
  const auto grouped = [] {
    OpTester tester("MultiHeadAttention", 1, "com.microsoft");
    tester.AttrInt("num_heads", 2).AttrInt("kv_num_heads", 1).SetTolerance(1e-5, 1e-5);
    tester
        .Input<float>("query", {1, 2, 4},
                      {1.875f, 0.5f, 0.75f, 1.625f, 0.375f, 1.125f, 1.375f, -1.125f})
        .Input<float>("key", {1, 1, 3, 2}, {0.875f, -1.0f, 2.0f, -0.25f, -0.125f, 0.0f})
        .Input<float>("value", {1, 1, 3, 2}, {-0.25f, -1.875f, -1.5f, 0.0f, 2.0f, -0.125f});
    return tester;
  };
  grouped()
      .Output<float>("output", {1, 2, 4},
                     {-1.1411159f, -0.26803965f, -0.417232f, -0.29446195f, -0.10137982f,
                      -0.40559034f, -0.84364839f, -0.67370312f})
      .Run();
  // The present outputs would hold num_heads heads, and a token-major key has no heads to share.
  grouped()
      .Output<float>("output", {1, 2, 4}, std::vector<float>(8, 0.0f))
      .Output<float>("present_key", {1, 2, 3, 2}, std::vector<float>(12, 0.0f))
      .RunExpectingError("need kv_num_heads = num_heads");
  OpTester("MultiHeadAttention", 1, "com.microsoft")
      .AttrInt("num_heads", 2)
      .AttrInt("kv_num_heads", 1)
      .Input<float>("query", {1, 1, 4}, {1, 2, 3, 4})
      .Input<float>("key", {1, 1, 4}, {1, 2, 3, 4})
      .Input<float>("value", {1, 1, 4}, {1, 2, 3, 4})
      .Output<float>("output", {1, 1, 4}, {0, 0, 0, 0})
      .RunExpectingError("must be [B, kv_num_heads, L, head_size]");
}
'''

rot_cases = []
rot_cases.append(('RotaryEmbedding rotates [B, S, hidden] heads by position_ids, split or '
                  'interleaved', '[contrib][RotaryEmbedding]',
                  rotary_case(x3, ids, cos, sin) + rotary_case(x3, ids, cos, sin, interleaved=1)
                  + rotary_case(x3, ids, cos, sin, heads=2)))
rot_cases.append(('RotaryEmbedding rotates [B, N, S, H] heads', '[contrib][RotaryEmbedding]',
                  rotary_case(x4, ids, cos, sin) + rotary_case(x4, ids, cos, sin, interleaved=1)))
rot_cases.append(('RotaryEmbedding with one position offset counts up from it',
                  '[contrib][RotaryEmbedding]',
                  rotary_case(x3, np.array([2]), cos, sin)
                  + rotary_case(x4, np.array(3), cos, sin, interleaved=1)))
cos1, sin1 = cos[:, :1], sin[:, :1]
rot_cases.append(('RotaryEmbedding with rotary_embedding_dim below the head size copies the rest',
                  '[contrib][RotaryEmbedding]',
                  rotary_case(x3, ids, cos1, sin1, heads=2, rotary=2)
                  + rotary_case(x4, ids, cos1, sin1, interleaved=1, heads=2, rotary=2)
                  + rotary_case(vals((1, 2, 8)), np.array([[0, 1]]), cos, sin, heads=1, rotary=4)))
long = vals((1, 8, 4))
rot_cases.append(('RotaryEmbedding with is_packed_batching may be longer than the caches',
                  '[contrib][RotaryEmbedding]',
                  rotary_case(long, np.array([[0, 1, 2, 3, 4, 5, 0, 1]]), cos, sin,
                              attrs='\n      .AttrInt("is_packed_batching", 1)')))


def rotary_error(expect, x, positions, cache, attrs=''):
    return (f'\n  OpTester("RotaryEmbedding", {ms}){attrs}'
            f'\n      {inp("input", np.zeros(x))}\n      {ints("position_ids", positions, "int64_t")}'
            f'\n      {inp("cos_cache", np.zeros(cache))}\n      {inp("sin_cache", np.zeros(cache))}'
            f'\n      .UncheckedOutput("output")\n      .RunExpectingError("{expect}");')


rot_errors = (rotary_error('position 6 (of position_ids int64[1,2]) is outside the caches\' 6 rows', (1, 2, 4), np.array([[0, 6]]), (6, 2))
              + rotary_error('position offset 5 puts the 2 tokens outside', (1, 2, 4),
                             np.array([5]), (6, 2))
              + rotary_error('position_ids int64[2,2] must be int64 [1, 2]', (1, 2, 4),
                             np.zeros((2, 2)), (6, 2))
              + rotary_error('sequence length 8 exceeds the caches\' 6 rows', (1, 8, 4),
                             np.zeros((1, 8)), (6, 2))
              + rotary_error('the caches\' width 3 head_size / 2 or rotary_embedding_dim / 2',
                             (1, 2, 2, 4), np.zeros((1, 2)), (6, 3))
              + rotary_error('rotary_embedding_dim needs num_heads', (1, 2, 4), np.zeros((1, 2)),
                             (6, 2), '\n      .AttrInt("rotary_embedding_dim", 2)')
              + rotary_error('must be [B, N, S, head_size], or [B, S, hidden]', (1, 2, 6),
                             np.zeros((1, 2)), (6, 2), '\n      .AttrInt("num_heads", 2)'))
rot_extra = ('TEST_CASE("RotaryEmbedding rejects positions outside the caches and misshaped inputs",'
             f' "[contrib][RotaryEmbedding]") {{{rot_errors}\n}}')

HEADER = """// Generated by tools/contrib_kernel_tests/gen_bert.py. Expected values are numpy's: %s
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
"""


def write(path, what, cases, extra, shared):
    with open(path, 'w') as stream:
        stream.write(HEADER % what + '\nnamespace {\n\n')
        for cpp_name in shared:
            stream.write(f'const std::vector<float> {cpp_name} = {arr(SHARED[cpp_name])};\n')
        stream.write('\n}  // namespace\n\n')
        for name, tag, body in cases:
            stream.write(f'TEST_CASE("{name}", "{tag}") {{{body}\n}}\n\n')
        stream.write(extra + '\n\n}  // namespace ort::test\n')


# More queries than one task of the kernel takes (64 rows), on two threads: each block of rows
# keeps its causal offset, its rows of attention_bias and of the returned scores.
long_q = share('kLongQuery', vals((1, 70, 2)))
long_k, long_v = vals((1, 70, 2)), vals((1, 70, 2))
few_k, few_v = vals((1, 3, 2)), vals((1, 3, 2))
mha_cases.append(('MultiHeadAttention splits long query sequences into blocks of rows',
                  '[contrib][MultiHeadAttention]',
                  mha_case(long_q, long_k, long_v, 1, threads=2, unidirectional=1)
                  + mha_case(long_q, few_k, few_v, 1, attention_bias=vals((1, 1, 70, 3)),
                             mask=np.array([[1, 0, 1]]), threads=2,
                             outputs=('output', '', '', 'qk'))))

write(sys.argv[1], 'per head softmax(scale Q K^T + attention_bias + mask) V in\n'
      '// float64, masked keys shifted by mask_filter_value and causally hidden ones by the lowest '
      'float.', mha_cases, mha_extra,
      ['kQuery', 'kKey', 'kValue', 'kBias', 'kCrossKey', 'kCrossValue', 'kCrossValue4', 'kPastKey',
       'kPastValue', 'kLongQuery'])
write(sys.argv[2], 'the pairs (i, i + rot / 2), or (2i, 2i + 1) when interleaved,\n'
      '// rotated by the cache rows of their positions in float64.', rot_cases, rot_extra,
      ['kInput3d', 'kInput4d', 'kCos', 'kSin'])
