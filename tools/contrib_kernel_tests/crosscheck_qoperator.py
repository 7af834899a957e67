#!/usr/bin/python3
"""Runs the cases of gen_matmul_integer_to_float.py, gen_qlinear_softmax.py and
gen_qlinear_average_pool.py (and, with --sweep N, N random cases per op) as one-node models
through `ort run` and through onnxruntime-node (tools/suite/ort_reference.js), and checks that both
give the numpy values exactly. Cases marked ort=False (onnxruntime's undefined behaviour, or a type
it has no kernel for) are reported, not counted. Exits 1 on any mismatch.

Usage: crosscheck_qoperator.py BUILD/apps/ort/ort [--sweep N] [--work DIR]
       (ORT_NODE_MODULES may name the node_modules holding onnxruntime-node; suite/ is the default)
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

import gen_matmul_integer_to_float as matmul
import gen_qlinear_average_pool as pool
import gen_qlinear_softmax as softmax
from quantized_cases import f32, model

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
rng = np.random.default_rng(2027)


def random_matmul():
    types = [(np.uint8, np.uint8), (np.uint8, np.int8), (np.int8, np.int8)]
    ta, tb = types[rng.integers(len(types))]
    m, k, n = (int(v) for v in rng.integers(1, 48, 3))
    a_shape = [(m, k), (2, m, k), (3, 1, m, k)][rng.integers(3)]
    b_shape = [(k, n), (k, n), (2, k, n)][rng.integers(3)]
    return matmul.case(ta, tb, a_shape, b_shape, per_column=len(b_shape) == 2 and rng.random() < .5,
                       zero_points=rng.random() < .8, bias=rng.random() < .5,
                       constant_b=rng.random() < .5)


def random_softmax():
    t = [np.uint8, np.int8][rng.integers(2)]
    shape = tuple(int(v) for v in rng.integers(1, 40, rng.integers(1, 4)))
    opset = int(rng.choice([11, 12, 13]))
    axis = int(rng.integers(-len(shape), len(shape)))
    spread = int(rng.integers(2, 257))
    return softmax.case(softmax.values(t, shape, spread), opset, axis=axis,
                        x_scale=f32(rng.uniform(0.005, 0.3)),
                        y_scale=f32(rng.choice([1 / 256, 1 / 255, rng.uniform(0.004, 0.02)])),
                        y_zero=int(rng.integers(np.iinfo(t).min, np.iinfo(t).min + 30)))


def random_pool():
    t = [np.uint8, np.int8][rng.integers(2)]
    rank = int(rng.integers(1, 4))
    kernel = [int(v) for v in rng.integers(1, 4, rank)]
    strides = [int(v) for v in rng.integers(1, 4, rank)]
    pads = [int(rng.integers(0, k)) for k in kernel * 2]
    spatial = [k + int(rng.integers(0, 5)) for k in kernel]
    channels_last = int(rng.integers(2))
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 5))
    shape = (n, *spatial, c) if channels_last else (n, c, *spatial)
    auto_pad = [None, None, 'SAME_UPPER', 'SAME_LOWER', 'VALID'][rng.integers(5)]
    return pool.case(t, shape, kernel, strides, None if auto_pad else pads,
                     ceil_mode=int(rng.integers(2)), count_include_pad=int(rng.integers(2)),
                     channels_last=channels_last, auto_pad=auto_pad)


def run(ort, case, folder):
    os.makedirs(folder, exist_ok=True)
    model_path = os.path.join(folder, 'model.onnx')
    onnx.save(model(case), model_path)
    feeds = []
    for name, array in case.inputs:
        if array is not None and name not in case.constant:
            path = os.path.join(folder, name + '.npy')
            np.save(path, np.asarray(array))
            feeds += ['--input', f'{name}={path}']
    env = dict(os.environ)
    env.setdefault('ORT_NODE_MODULES', os.path.join(ROOT, 'suite', 'node_modules'))
    results = []
    for engine, command in (
            ('ours', [ort, 'run', model_path, *feeds, '--output-format', 'npy', '--output-dir']),
            ('onnxruntime', ['node', os.path.join(ROOT, 'tools', 'suite', 'ort_reference.js'),
                             model_path, *feeds, '--output-dir'])):
        out = os.path.join(folder, engine)
        done = subprocess.run(command + [out], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            results.append((False, done.stderr.strip().splitlines()[-1:]))
            continue
        y = np.load(os.path.join(out, 'Y.npy'))
        same = y.shape == case.output.shape and np.array_equal(y, case.output)
        shape_ok = y.shape == case.output.shape
        detail = '' if same else f'{(y != case.output).sum() if shape_ok else y.shape} differ'
        results.append((same, detail))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('ort')
    parser.add_argument('--sweep', type=int, default=0)
    parser.add_argument('--work', default=None)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix='crosscheck_qoperator_')
    cases = [(f'{module.__name__} {title} #{i}', case) for module in (matmul, softmax, pool)
             for title, section in module.sections for i, case in enumerate(section)
             if case.error is None]
    for maker in (random_matmul, random_softmax, random_pool):
        cases += [(f'{maker.__name__} #{i}', maker()) for i in range(args.sweep)]
    failures = 0
    for index, (name, case) in enumerate(cases):
        (ours, ours_detail), (theirs, theirs_detail) = run(args.ort, case,
                                                           os.path.join(work, str(index)))
        counted = ours and (theirs or not case.ort)
        failures += not counted
        if not counted or not theirs:
            print(f'{name}: ours {"==" if ours else "!="} numpy {ours_detail}; onnxruntime '
                  f'{"==" if theirs else "!="} numpy {theirs_detail}'
                  f'{"" if case.ort else " (known difference)"}')
    print(f'{len(cases) - failures} of {len(cases)} cases agree (models in {work})')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
