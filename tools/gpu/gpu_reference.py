#!/usr/bin/env python3
"""The reference side of tools/gpu/device_suite.sh, run on a lent GPU machine (its python3 holds
PyTorch, torchvision and onnx):

  inputs OUT_DIR MODEL BATCH          seeded .npy inputs of a suite model at a batch size
  torch MODEL BATCH PRECISION         PyTorch eager latency in ms (median of CUDA-event timings)
                                      of the same architecture; PRECISION fp32 (no TF32), tf32,
                                      fp16 or bf16 (autocast)
  roofline MODEL.onnx BATCH RATE BW   FLOPs (Conv, MatMul, Gemm) and fewest bytes (weights,
                                      inputs, outputs) at BATCH, and the floor in ms for a matrix
                                      rate RATE (TFLOP/s) and a bandwidth BW (GB/s)
  ceilings                            measured fp32 and tf32 matrix rates (TFLOP/s) and
                                      device-to-device bandwidth (GB/s, read + written)
"""
import os
import statistics
import sys

import numpy as np

SEQUENCE = 128


def make_inputs(model, batch, seed=1):
    rng = np.random.default_rng(seed)
    if model == "bert_base":
        valid = SEQUENCE - 28  # trailing padding, so the attention mask matters
        mask = np.concatenate([np.ones((batch, valid), np.int64),
                               np.zeros((batch, SEQUENCE - valid), np.int64)], 1)
        types = np.concatenate([np.zeros((batch, SEQUENCE // 2), np.int64),
                                np.ones((batch, SEQUENCE // 2), np.int64)], 1)
        return {"input_ids": rng.integers(0, 30522, (batch, SEQUENCE), dtype=np.int64),
                "attention_mask": mask, "token_type_ids": types}
    return {"input": rng.standard_normal((batch, 3, 224, 224), dtype=np.float32)}


def write_inputs(out_dir, model, batch):
    os.makedirs(out_dir, exist_ok=True)
    for name, value in make_inputs(model, int(batch)).items():
        np.save(os.path.join(out_dir, name + ".npy"), value)


def torch_latency(model_name, batch, precision, runs=50, warmup=10):
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "suite"))
    from export_models import Bert
    import torchvision

    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    torch.backends.cudnn.allow_tf32 = precision == "tf32"
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda")
    if model_name == "bert_base":
        model = Bert()
    else:
        model = getattr(torchvision.models, model_name)(weights=None)
    model = model.eval().to(device)
    feeds = [torch.from_numpy(v).to(device) for v in make_inputs(model_name, int(batch)).values()]
    autocast = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
    times = []
    with torch.inference_mode(), torch.autocast("cuda", dtype=autocast or torch.float16,
                                                enabled=autocast is not None):
        for i in range(warmup + runs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            model(*feeds)
            end.record()
            end.synchronize()
            if i >= warmup:
                times.append(start.elapsed_time(end))
    return statistics.median(times)


def static_shapes(path, batch):
    import onnx
    model = onnx.load(path)
    for value in model.graph.input:
        dims = value.type.tensor_type.shape.dim
        for i, dim in enumerate(dims):
            if not dim.HasField("dim_value"):
                dim.ClearField("dim_param")
                dim.dim_value = int(batch) if i == 0 else SEQUENCE
    return onnx.shape_inference.infer_shapes(model)


def roofline(path, batch, rate_tflops, bandwidth_gbs):
    from onnx import numpy_helper
    model = static_shapes(path, batch)
    graph = model.graph
    shapes = {}
    for value in list(graph.input) + list(graph.value_info) + list(graph.output):
        shapes[value.name] = [d.dim_value for d in value.type.tensor_type.shape.dim]
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for t in weights:
        shapes[t] = list(weights[t].shape)
    flops = 0
    for node in graph.node:
        if node.op_type == "Conv":
            w = shapes[node.input[1]]
            flops += 2 * int(np.prod(shapes[node.output[0]])) * int(np.prod(w[1:]))
        elif node.op_type in ("MatMul", "Gemm"):
            a = shapes[node.input[0]]
            transposed = any(x.name == "transA" and x.i for x in node.attribute)
            k = a[-2] if transposed else a[-1]
            flops += 2 * int(np.prod(shapes[node.output[0]])) * k
    weight_bytes = sum(w.nbytes for w in weights.values())
    io_bytes = 0
    for value in list(graph.input) + list(graph.output):
        if value.name in weights:
            continue
        element = 8 if value.type.tensor_type.elem_type == 7 else 4
        io_bytes += element * int(np.prod(shapes[value.name]))
    compute_ms = flops / (float(rate_tflops) * 1e12) * 1e3
    memory_ms = (weight_bytes + io_bytes) / (float(bandwidth_gbs) * 1e9) * 1e3
    return flops, weight_bytes + io_bytes, compute_ms, memory_ms


def ceilings():
    import torch
    device = torch.device("cuda")
    n = 8192
    a = torch.randn(n, n, device=device)
    b = torch.randn(n, n, device=device)
    rates = {}
    for name, tf32 in (("fp32", False), ("tf32", True)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        times = []
        for i in range(13):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.matmul(a, b)
            end.record()
            end.synchronize()
            if i >= 3:
                times.append(start.elapsed_time(end))
        rates[name] = 2 * n ** 3 / (statistics.median(times) * 1e-3) / 1e12
    source = torch.randn(1 << 28, device=device)  # 1 GiB
    target = torch.empty_like(source)
    times = []
    for i in range(13):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        target.copy_(source)
        end.record()
        end.synchronize()
        if i >= 3:
            times.append(start.elapsed_time(end))
    bandwidth = 2 * source.numel() * 4 / (statistics.median(times) * 1e-3) / 1e9
    return rates["fp32"], rates["tf32"], bandwidth


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "inputs":
        write_inputs(*args)
    elif command == "torch":
        print(f"{torch_latency(*args):.4f}")
    elif command == "roofline":
        flops, moved, compute_ms, memory_ms = roofline(*args)
        print(f"{flops} {moved} {compute_ms:.4f} {memory_ms:.4f} {max(compute_ms, memory_ms):.4f}")
    elif command == "ceilings":
        print("{:.1f} {:.1f} {:.0f}".format(*ceilings()))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
