#!/usr/bin/python3
"""Runs one-node models of com.microsoft MultiHeadAttention, RotaryEmbedding and Attention on
random inputs through `ort run` and through onnxruntime-node (tools/suite/ort_reference.js), and
prints the largest absolute difference of every output.

Usage: crosscheck_bert.py BUILD/apps/ort/ort [WORK_DIR]
       (ORT_NODE_MODULES may name the node_modules holding onnxruntime-node; suite/ is the default)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORT = sys.argv[1]
WORK = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix='crosscheck_bert_')
TYPES = {np.dtype('float32'): TensorProto.FLOAT, np.dtype('int32'): TensorProto.INT32,
         np.dtype('int64'): TensorProto.INT64}
rng = np.random.default_rng(2026)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def run_case(name, op, inputs, outputs, **attrs):
    """inputs: [(name, array or None)] in the op's input order; outputs: names, '' to skip."""
    folder = os.path.join(WORK, ''.join(c if c.isalnum() else '_' for c in name))
    os.makedirs(folder, exist_ok=True)
    feeds, infos = [], []
    for input_name, array in inputs:
        if array is None:
            continue
        path = os.path.join(folder, input_name + '.npy')
        np.save(path, array)
        feeds += ['--input', f'{input_name}={path}']
        infos.append(helper.make_tensor_value_info(input_name, TYPES[array.dtype], array.shape))
    node = helper.make_node(op, [n if a is not None else '' for n, a in inputs], outputs,
                            domain='com.microsoft', **attrs)
    graph = helper.make_graph([node], name, infos,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                               for o in outputs if o])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17),
                                                    helper.make_opsetid('com.microsoft', 1)])
    model.ir_version = 8
    model_path = os.path.join(folder, 'model.onnx')
    onnx.save(model, model_path)
    ours, theirs = os.path.join(folder, 'ort'), os.path.join(folder, 'reference')
    subprocess.run([ORT, 'run', model_path, *feeds, '--output-dir', ours, '--output-format', 'npy'],
                   check=True, capture_output=True)
    env = dict(os.environ)
    env.setdefault('ORT_NODE_MODULES', os.path.join(ROOT, 'suite', 'node_modules'))
    subprocess.run(['node', os.path.join(ROOT, 'tools', 'suite', 'ort_reference.js'), model_path,
                    *feeds, '--output-dir', theirs], check=True, capture_output=True, env=env)
    for output in filter(None, outputs):
        a = np.load(os.path.join(ours, output + '.npy'))
        b = np.load(os.path.join(theirs, output + '.npy'))
        diff = np.abs(a.astype(np.float64) - b).max() if a.shape == b.shape else float('inf')
        print(f'{name:<34} {output:<14} {str(list(a.shape)):<16} max |diff| {diff:.3g}')


def mha(name, q, k, v, bias=None, mask=None, attention_bias=None, past_key=None,
        past_value=None, outputs=('output',), **attrs):
    run_case(name, 'MultiHeadAttention',
             [('query', q), ('key', k), ('value', v), ('bias', bias), ('key_padding_mask', mask),
              ('attention_bias', attention_bias), ('past_key', past_key),
              ('past_value', past_value)], list(outputs), **attrs)


B, S, L, N, H, P = 2, 5, 7, 4, 8, 3
D = N * H
mha('self, bias', randn(B, S, D), randn(B, S, D), randn(B, S, D), bias=randn(3 * D),
    num_heads=N)
mask = np.ones((B, L), np.int32)
mask[0, 4:] = 0
mask[1, 1] = 0
mha('cross L!=S, raw mask [B,L]', randn(B, S, D), randn(B, L, D), randn(B, L, 2 * D),
    bias=randn(4 * D), mask=mask, num_heads=N)
mha('cross BNSH k/v, bias, present', randn(B, S, D), randn(B, N, L, H), randn(B, N, L, H),
    bias=randn(3 * D), outputs=('output', 'present_key', 'present_value'), num_heads=N)
mha('lengths mask [B], scale', randn(B, S, D), randn(B, L, D), randn(B, L, D),
    mask=np.array([3, 7], np.int32), num_heads=N, scale=0.3)
mha('attention_bias [1,N,S,T]', randn(B, S, D), randn(B, L, D), randn(B, L, D),
    attention_bias=randn(1, N, S, L), num_heads=N)
mha('attention_bias [B,1,S,T], qk', randn(B, S, D), randn(B, L, D), randn(B, L, D),
    attention_bias=randn(B, 1, S, L), outputs=('output', '', '', 'qk'), num_heads=N)
mask = np.ones((B, P + S), np.int32)
mask[1, :2] = 0
mha('past, unidirectional, mask [B,T]', randn(B, S, D), randn(B, S, D), randn(B, S, D),
    bias=randn(3 * D), mask=mask, past_key=randn(B, N, P, H), past_value=randn(B, N, P, H),
    outputs=('output', 'present_key', 'present_value', 'qk'), num_heads=N, unidirectional=1)
mha('decode step S=1, past', randn(B, 1, D), randn(B, 1, D), randn(B, 1, D),
    past_key=randn(B, N, P, H), past_value=randn(B, N, P, H),
    outputs=('output', 'present_key', 'present_value'), num_heads=N, unidirectional=1)
mha('3-D mask [B,S,T], filter -1', randn(B, S, D), randn(B, L, D), randn(B, L, D),
    mask=(rng.random((B, S, L)) > 0.4).astype(np.int32), num_heads=N, mask_filter_value=-1.0)
mha('unidirectional, filter -1', randn(B, S, D), randn(B, S, D), randn(B, S, D), num_heads=N,
    unidirectional=1, mask_filter_value=-1.0)
# What the T5 fusion emits: unscaled scores (scale 1) plus a position bias with the padding or
# causal mask folded in as the lowest float, [B,N,S,T] or [1,N,S,T]; cross-attention with L != S.
LOWEST = np.finfo(np.float32).min
keep = np.ones((B, S), np.int32)
keep[1, 3:] = 0
padding = np.where(keep[:, None, None, :] == 0, LOWEST, 0).astype(np.float32)
mha('T5 self: bias [B,N,S,S] + padding, scale 1', randn(B, S, D), randn(B, S, D),
    randn(B, S, D), attention_bias=randn(1, N, S, S) + padding, num_heads=N, scale=1.0)
causal = np.where(np.tril(np.ones((S, S))) == 0, LOWEST, 0).astype(np.float32)
mha('T5 decoder: bias [1,N,S,S] causal, scale 1', randn(B, S, D), randn(B, S, D), randn(B, S, D),
    attention_bias=randn(1, N, S, S) + causal, num_heads=N, scale=1.0)
cross_mask = np.where(rng.random((B, 1, 1, L)) > 0.3, 0, LOWEST).astype(np.float32)
mha('T5 cross: L!=S, bias [B,N,S,L], scale 1', randn(B, S, D), randn(B, L, D), randn(B, L, D),
    attention_bias=np.zeros((1, N, S, L), np.float32) + cross_mask, num_heads=N, scale=1.0)


def rotary(name, x, positions, width, **attrs):
    cache_rows = 16
    run_case(name, 'RotaryEmbedding', [('input', x), ('position_ids', positions),
                                       ('cos_cache', randn(cache_rows, width)),
                                       ('sin_cache', randn(cache_rows, width))], ['output'],
             **attrs)


ids = rng.integers(0, 16, (B, S)).astype(np.int64)
rotary('rotary 3-D', randn(B, S, D), ids, H // 2)
rotary('rotary 3-D interleaved, offset', randn(B, S, D), np.array([9], np.int64), H // 2,
       interleaved=1)
rotary('rotary 4-D interleaved', randn(B, N, S, H), ids, H // 2, interleaved=1)
rotary('rotary 4-D partial', randn(B, N, S, H), ids, 2, num_heads=N, rotary_embedding_dim=4)
rotary('rotary 3-D partial interleaved', randn(B, S, D), ids, 2, num_heads=N,
       rotary_embedding_dim=4, interleaved=1)

W = randn(D, 3 * D)
run_case('Attention unidirectional, filter -1', 'Attention',
         [('input', randn(B, S, D)), ('weights', W), ('bias', randn(3 * D)),
          ('mask_index', np.array([[1, 1, 1, 0, 1], [1, 1, 1, 1, 1]], np.int32))], ['output'],
         num_heads=N, unidirectional=1, mask_filter_value=-1.0)
# Swin's window attention as fuse_packed_qkv_attention writes it: B' = images * windows, a
# relative bias broadcast over B' or a per-window bias tiled to [B', N, S, T], a custom scale and
# an input width other than the hidden size. (onnxruntime 1.30's CPU Attention crashes without
# the bias input, so the fusion always gives one.)
for name, attention_bias in [('[1,N,S,T]', randn(1, N, S, S)), ('[B,N,S,T]', randn(B, N, S, S)),
                             ('[1,1,S,T]', randn(1, 1, S, S))]:
    run_case(f'Attention attention_bias {name}, scale', 'Attention',
             [('input', randn(B, S, 12)), ('weights', randn(12, 3 * D)), ('bias', randn(3 * D)),
              ('mask_index', None), ('past', None), ('attention_bias', attention_bias)],
             ['output'], num_heads=N, scale=0.3)
