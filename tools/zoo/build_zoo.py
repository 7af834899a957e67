#!/usr/bin/python3
"""Builds the model zoo: torch 1.13 / torchvision 0.14 models with random weights (nothing is
downloaded) exported to ONNX at opsets 14 and 17, with seeded inputs and torch-eager outputs.

  /usr/bin/python3 tools/zoo/build_zoo.py [--out zoo] [--slice ci|full] [--only REGEX] [--jobs N]
                                         [--force]

Layout of the zoo directory (default `zoo/` at the repository root, git-ignored):
  manifest.json                       the index below
  <model>/<model>_op<N>.onnx          one export per opset (large weights: external files beside it)
  <model>/inputs/<input>.npy          the inputs to run with
  <model>/expected/<output>.npy       torch eager's outputs on those inputs

manifest.json = {"format": 1, "torch": VERSION, "torchvision": VERSION, "models": [ENTRY, ...]},
one ENTRY per (model, opset), paths relative to the zoo directory:
  name             "<model>_op<N>"             model, family, opset  as named
  slices           ["ci", "full"] or ["full"]  onnx  the .onnx path, null when the export failed
  export_error     null or the exporter's message
  inputs           {input name: .npy path}     expected  {output name: .npy path}
  decision_outputs [{"kind": "argmax", "output": O, "scores": S}   (O = argmax of S's last row)
                    | {"kind": "detections", "boxes": B, "scores": S, "labels": L, "extra": [...]}]
                   outputs compared as decisions rather than as numbers
  invalid          null, or onnx.checker's (full check) objection to the export: an engine may
                   refuse such a model with an error
  one_level_only   true for giants (> 300M parameters): the sweep runs them at level `all` only
  float32_noise    {output: largest |float32 - float64| of torch eager}: comparisons accept
                   differences up to a few times this (deep random models round visibly)
  parameters, blocks {"attention": N, "norm": M} (the modules the fusions should find),
  nodes (in the export), export_seconds, source_hash (of the build scripts' code: entries whose
  hash and files are current are kept unless --force; --reuse keeps any whose files exist)
"""
import argparse
import ast
import fcntl
import glob
import hashlib
import json
import multiprocessing
import os
import re
import sys
import time
import traceback
import zlib

import numpy as np

GIANT_PARAMETERS = 300_000_000
# Above this the float64 copy that measures float32 noise costs more memory than it is worth.
NOISE_PARAMETERS = 150_000_000
ZOO_DIR = os.path.dirname(os.path.abspath(__file__))


def source_hash():
    """A hash of the build scripts' code (their syntax trees without docstrings, so that edits
    of comments, docstrings or layout keep the zoo current)."""
    digest = hashlib.sha256()
    files = [os.path.join(ZOO_DIR, "build_zoo.py")]
    files += sorted(glob.glob(os.path.join(ZOO_DIR, "families", "*.py")))
    for path in files:
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                    isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
        digest.update(os.path.basename(path).encode() + ast.dump(tree).encode())
    return digest.hexdigest()[:16]


def flatten(value):
    """torch.onnx's output order: tuples and lists in order, dicts by their values."""
    import torch
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [t for item in value for t in flatten(item)]


def count_blocks(model):
    """Attention blocks (the outermost modules whose class name ends in Attention, torch's
    MultiheadAttention, layers whose class sets `attention_blocks`, and the ModuleDict layers with
    a q_lin / q_proj) and norm modules (LayerNorm, GroupNorm, RMSNorm): what the attention and
    norm fusions should each turn into one node."""
    import torch.nn as nn
    attention, norm, inside = 0, 0, []
    for name, module in model.named_modules():
        kind = type(module).__name__
        if isinstance(module, (nn.LayerNorm, nn.GroupNorm)) or kind == "RMSNorm":
            norm += 1
        if any(name.startswith(prefix + ".") for prefix in inside):
            continue
        if (isinstance(module, nn.MultiheadAttention) or kind.endswith("Attention")
                or (isinstance(module, nn.ModuleDict) and ("q_lin" in module or "q_proj" in module))):
            attention += 1
            inside.append(name)
        attention += getattr(type(module), "attention_blocks", 0)
    return {"attention": attention, "norm": norm}


def randomize(model, args):
    """Makes every part of a random model matter while keeping it well conditioned, so that
    rtol 1e-3 / atol 1e-4 mean what they mean on a trained model. BatchNorm gets random affine
    parameters and running statistics measured on `args` (as training would: each normalizes
    what it sees, so activations stay near unit scale through any depth, and folding it into the
    Conv is not the identity); where a model cannot run its BatchNorms in training mode (a 1x1
    map of one image) the statistics are random instead. Parameters initialized to all zeros
    (ViT's head, class token) get small random values."""
    import torch
    norms = [m for m in model.modules()
             if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.track_running_stats]
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.numel() > 1 and not parameter.any():
                parameter.normal_(0.0, 0.02)
        for norm in norms:
            if norm.affine:
                norm.weight.uniform_(0.5, 1.5)
                norm.bias.normal_(0.0, 0.1)
            norm.reset_running_stats()
            norm.momentum = None
            norm.train()
        try:
            if norms:
                model(*args)
        except (RuntimeError, ValueError):
            for norm in norms:
                norm.running_mean.normal_(0.0, 0.1)
                norm.running_var.uniform_(0.5, 1.5)
        for norm in norms:
            norm.eval()


def float32_noise(model, args, outputs, names):
    """torch's own float32 rounding on these inputs: for each float output, the largest difference
    between it and the output of the same model run in float64. Deep random models can be
    sensitive enough that rounding alone exceeds rtol/atol on near-zero values; an engine that
    differs by no more than a few times this is as right as torch. {} where the model does not
    run in float64; outputs whose shape changes (detections) are left out."""
    import copy
    import torch
    try:
        wide = copy.deepcopy(model).double()
        with torch.no_grad():
            wide_outputs = flatten(wide(*(a.double() if a.is_floating_point() else a for a in args)))
    except (RuntimeError, TypeError, ValueError):
        return {}
    noise = {}
    for name, narrow, exact in zip(names, outputs, wide_outputs):
        if narrow.is_floating_point() and narrow.shape == exact.shape and narrow.numel():
            noise[name] = float((narrow.double() - exact).abs().max())
    return noise


def export_model(spec, directory, opset, trace_inputs, model):
    import torch
    path = os.path.join(directory, f"{spec.name}_op{opset}.onnx")
    args = tuple(torch.from_numpy(v) for v in trace_inputs.values())
    # Not under no_grad: nn.MultiheadAttention's eval fast path (_native_multi_head_attention,
    # which the exporter lacks) is taken only when grad is off.
    torch.onnx.export(model, args, path, opset_version=opset, input_names=list(trace_inputs),
                      output_names=spec.outputs, dynamic_axes=spec.dynamic_axes, do_constant_folding=True)
    return path


def make_model(spec):
    """The spec's model with its seeded random weights, its trace inputs and its run inputs."""
    import torch
    seed = zlib.crc32(spec.name.encode())
    torch.manual_seed(seed)
    model = spec.make().eval()
    rng = np.random.default_rng(seed)
    trace_inputs, run_inputs = spec.inputs(rng, True), spec.inputs(rng, False)
    run_args = tuple(torch.from_numpy(v) for v in run_inputs.values())
    randomize(model, run_args)
    if spec.prepare:
        spec.prepare(model, run_args)
    return model, trace_inputs, run_inputs


def build_one(name, out_dir, digest):
    """Exports one model at each of its opsets; returns its manifest entries."""
    import onnx
    import torch
    from families import all_specs
    spec = next(s for s in all_specs() if s.name == name)
    model, trace_inputs, run_inputs = make_model(spec)
    run_args = tuple(torch.from_numpy(v) for v in run_inputs.values())
    directory = os.path.join(out_dir, name)
    os.makedirs(os.path.join(directory, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(directory, "expected"), exist_ok=True)
    inputs = {}
    for input_name, value in run_inputs.items():
        inputs[input_name] = os.path.join(name, "inputs", input_name + ".npy")
        np.save(os.path.join(out_dir, inputs[input_name]), value)
    with torch.no_grad():
        outputs = flatten(model(*(torch.from_numpy(v) for v in run_inputs.values())))
    if len(outputs) != len(spec.outputs):
        raise RuntimeError(f"{name}: {len(outputs)} outputs, spec names {len(spec.outputs)}")
    expected = {}
    for output_name, value in zip(spec.outputs, outputs):
        expected[output_name] = os.path.join(name, "expected", output_name + ".npy")
        np.save(os.path.join(out_dir, expected[output_name]), value.numpy())
    parameters = sum(p.numel() for p in model.parameters())
    noise = float32_noise(model, run_args, outputs, spec.outputs) if parameters <= NOISE_PARAMETERS else {}
    giant = parameters > GIANT_PARAMETERS
    entries = []
    for opset in spec.opsets[-1:] if giant else spec.opsets:
        entry = dict(name=f"{name}_op{opset}", model=name, family=spec.family, opset=opset,
                     slices=list(spec.slices), onnx=None, export_error=None, inputs=inputs, expected=expected,
                     decision_outputs=spec.decisions, one_level_only=giant, parameters=parameters,
                     blocks=count_blocks(model), float32_noise=noise, nodes=None, invalid=None,
                     note=spec.note, source_hash=digest)
        start = time.time()
        try:
            path = export_model(spec, directory, opset, trace_inputs, model)
            entry["onnx"] = os.path.relpath(path, out_dir)
            entry["nodes"] = len(onnx.load(path, load_external_data=False).graph.node)
            try:
                onnx.checker.check_model(path, full_check=True)
            except Exception as error:  # an invalid export: engines may rightly refuse it
                entry["invalid"] = f"{type(error).__name__}: {error}".strip()[:4000]
        except Exception as error:  # the exporter's failure is a result to record
            entry["export_error"] = f"{type(error).__name__}: {error}".strip()[:4000]
        entry["export_seconds"] = round(time.time() - start, 2)
        entries.append(entry)
    return entries


def worker(job):
    name, out_dir, digest, threads = job
    import warnings
    import torch
    warnings.filterwarnings("ignore")
    torch.set_num_threads(threads)
    start = time.time()
    try:
        entries = build_one(name, out_dir, digest)
    except Exception:
        return name, None, traceback.format_exc(), time.time() - start
    return name, entries, None, time.time() - start


def current(entry, out_dir, digest):
    files = [entry["onnx"]] if entry["onnx"] else []
    files += list(entry["inputs"].values()) + list(entry["expected"].values())
    fresh = digest in (entry.get("source_hash"), None)
    return fresh and all(os.path.exists(os.path.join(out_dir, f)) for f in files)


def record(path, header, name, entries):
    """Replaces `name`'s entries in the manifest on disk, under a lock, so that builds of other
    models into the same directory at the same time keep theirs. A POSIX lock (lockf), because
    a flock would be inherited by the pool's workers forked while it is held, and never let go."""
    with open(path + ".lock", "w") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        models = []
        if os.path.exists(path):
            with open(path) as f:
                models = json.load(f)["models"]
        models = sorted([e for e in models if e["model"] != name] + entries, key=lambda e: e["name"])
        with open(path + ".tmp", "w") as f:
            json.dump({**header, "models": models}, f, indent=1)
        os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(ZOO_DIR, "..", "..", "zoo"))
    parser.add_argument("--slice", choices=("ci", "full"), default="full")
    parser.add_argument("--only", help="models whose name matches this regular expression (re.search)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--force", action="store_true", help="rebuild models that are current")
    parser.add_argument("--reuse", action="store_true",
                        help="keep every model whose files exist, even if made by other build scripts")
    parser.add_argument("--list", action="store_true", help="list the selected models and exit")
    args = parser.parse_args()
    sys.path.insert(0, ZOO_DIR)
    from families import all_specs
    import torch
    import torchvision
    specs = [s for s in all_specs()
             if args.slice in s.slices and (not args.only or re.search(args.only, s.name))]
    if args.list:
        print("\n".join(f"{s.name:40s} {s.family}" for s in specs))
        return 0
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    manifest_path = os.path.join(out_dir, "manifest.json")
    manifest = {"format": 1, "torch": torch.__version__, "torchvision": torchvision.__version__}
    existing = []
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            existing = json.load(f)["models"]
    digest = source_hash()
    reuse = None if args.reuse else digest
    kept = {e["model"] for e in existing if current(e, out_dir, reuse)} if not args.force else set()
    todo = [s.name for s in specs if s.name not in kept]
    print(f"zoo: {len(specs)} models selected, {len(specs) - len(todo)} current, "
          f"building {len(todo)} in {out_dir}", flush=True)
    threads = max(1, (os.cpu_count() or 1) // max(1, args.jobs))
    failures = 0
    context = multiprocessing.get_context("fork")
    with context.Pool(max(1, args.jobs), maxtasksperchild=1) as pool:
        jobs = [(name, out_dir, digest, threads) for name in todo]
        for name, entries, error, seconds in pool.imap_unordered(worker, jobs):
            if entries is None:
                failures += 1
                print(f"zoo: {name}: FAILED to build ({seconds:.1f} s)\n{error}", flush=True)
                continue
            record(manifest_path, manifest, name, entries)
            status = ", ".join(f"op{e['opset']} " + (
                ("INVALID: " + e["invalid"].splitlines()[0][:200] if e["invalid"] else "ok") if e["onnx"]
                else "EXPORT FAILED: " + e["export_error"].splitlines()[0][:200]) for e in entries)
            print(f"zoo: {name} ({seconds:.1f} s): {status}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
