#!/usr/bin/python3
"""Runs the zoo (tools/zoo/build_zoo.py's manifest) through `ort` and onnxruntime-node 1.30.

  /usr/bin/python3 tools/zoo/run_zoo.py [--zoo zoo] [--ort build/apps/ort/ort] [--slice ci|full]
      [--only REGEX] [--reference auto|node|torch] [--jobs N] [--json FILE] [--keep]

For each exported model (each manifest entry):
  levels      `ort run -o L` at disable, basic, extended, all (giants: all only) against the
              reference: onnxruntime-node's outputs at level all where node and onnxruntime-node
              are found (--reference auto|node), else torch eager's (--reference torch; CI).
  ORT/torch   onnxruntime-node's outputs against torch eager's (the export itself is sound).
  optimize    `ort optimize --level L`, the result rerun by `ort run -o L` and by onnxruntime-node
              (its optimizer off, so the saved graph itself is what runs): both match the reference.
  rollbacks   the `optimizer_rollbacks` of `ort optimize`'s JSON report (optimize is run without
              --strict-optimizer so that they are counted), summed over the levels; each is a
              failure; n/a where this build's report has no such field.
  nodes       in the export / after our extended / after ORT's extended (its saved model).
  attention, norms   blocks in the torch model / fused ops after our extended / after ORT's.
  conv!nchwc  Conv or FusedConv nodes outside the NCHWc layout after our level all / all convs.
`--strict-optimizer` is passed to `ort run` where its --help offers it. Tolerances rtol 1e-3,
atol 1e-4, or up to 4x torch's own float32 rounding where that is larger (cells `ok~`, see
build_zoo.py's float32_noise); decision outputs (argmax, detections) are compared as decisions
(zoo_compare.py).
Prints a markdown table and the failures (message and the command reproducing each); writes
the JSON summary to --json (default <work>/summary.json). Work files go to --work (default
<zoo>/_run); optimized models of passing checks are removed unless --keep. Exits 1 on any
failure of ours not listed in --expected-failures, or on a listed one that passes (export
failures and onnxruntime-node's own problems are listed, not failed on).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zoo_compare  # noqa: E402
import zoo_report  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LEVELS = ["disable", "basic", "extended", "all"]
NODE_LEVELS = {"disable": "disabled", "basic": "basic", "extended": "extended", "all": "all"}
ATTENTION_OPS = {"Attention", "MultiHeadAttention", "GroupQueryAttention", "PackedAttention",
                 "PackedMultiHeadAttention", "DecoderMaskedMultiHeadAttention", "DecoderMaskedSelfAttention"}
NORM_OPS = {"LayerNormalization", "SkipLayerNormalization", "SimplifiedLayerNormalization",
            "SkipSimplifiedLayerNormalization", "GroupNorm", "RMSNormalization", "EmbedLayerNormalization"}


def op_name(op_type):
    return op_type.split(":")[-1]


def count_ops(histogram, names):
    return sum(n for op, n in histogram.items() if op_name(op) in names)


class Runner:
    def __init__(self, args):
        self.args, self.zoo, self.ort = args, os.path.abspath(args.zoo), os.path.abspath(args.ort)
        self.work = os.path.abspath(args.work or os.path.join(self.zoo, "_run"))
        help_text = subprocess.run([self.ort, "run", "--help"], capture_output=True, text=True).stdout
        self.strict = ["--strict-optimizer"] if "--strict-optimizer" in help_text else []
        self.node_script = os.path.join(REPO, "tools", "suite", "ort_reference.js")
        self.node = args.reference != "torch" and shutil.which("node") is not None and self.node_available()
        if args.reference == "node" and not self.node:
            sys.exit("run_zoo: --reference node, but node or onnxruntime-node is not found")

    def node_available(self):
        modules = os.environ.get("ORT_NODE_MODULES", os.path.join(REPO, "suite", "node_modules"))
        probe = subprocess.run(["node", "-e", "require(process.argv[1])",
                                os.path.join(modules, "onnxruntime-node")], capture_output=True)
        if probe.returncode != 0 and os.path.isdir("/work/main/suite/node_modules"):
            os.environ["ORT_NODE_MODULES"] = "/work/main/suite/node_modules"
            return self.node_available()
        return probe.returncode == 0

    def execute(self, argv, log):
        """Runs a command, its output to `log`; returns (ok, the last lines of its output)."""
        try:
            done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=self.args.timeout)
            output, ok = done.stdout, done.returncode == 0
            if not ok:
                output += f"\n(exit status {done.returncode})"
        except subprocess.TimeoutExpired as timeout:
            output = (timeout.stdout or b"").decode(errors="replace")
            output, ok = output + f"\n(timed out after {self.args.timeout} s)", False
        with open(log, "w") as f:
            f.write(shlex.join(argv) + "\n" + output)
        lines = [line for line in output.splitlines() if line.strip()]
        return ok, "\n".join(lines[-3:])

    def input_args(self, entry):
        return [arg for name, path in entry["inputs"].items()
                for arg in ("--input", f"{name}={os.path.join(self.zoo, path)}")]

    def ort_run(self, model, entry, level, out):
        return [self.ort, "run", model, *self.input_args(entry), "-o", level, "--output-dir", out,
                "--output-format", "npy", *self.strict]

    def node_run(self, model, entry, level, out, save=None):
        return ["node", self.node_script, model, *self.input_args(entry), "--opt-level", NODE_LEVELS[level],
                "--threads", "2", "--output-dir", out, *(["--save-optimized", save] if save else [])]


class Check:
    """The checks of one manifest entry; `record` is its JSON summary, `failures` what failed."""

    def __init__(self, runner, entry):
        self.runner, self.entry, self.args = runner, entry, runner.args
        self.dir = os.path.join(runner.work, entry["name"])
        self.failures, self.reference_problems = [], []
        # An export onnx.checker objects to may be refused with an error, unless ORT runs it.
        self.may_refuse = bool(entry.get("invalid"))
        self.record = dict(name=entry["name"], model=entry["model"], family=entry["family"],
                           opset=entry["opset"], export_error=entry["export_error"],
                           invalid=entry.get("invalid"))

    def step(self, what, argv):
        """Runs one command; its outputs land in <dir>/<what>; returns (ok, tail, out dir)."""
        out = os.path.join(self.dir, what)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        ok, tail = self.runner.execute(argv, os.path.join(self.dir, what + ".log"))
        return ok, tail, out

    def fail(self, check, message, argv):
        self.failures.append(dict(model=self.entry["name"], check=check, message=message,
                                  command=shlex.join(argv)))

    def judge(self, check, argv, reference, decisions):
        """Runs a command writing .npy outputs, compares them with `reference`; returns the cell."""
        ok, tail, out = self.step(check, argv)
        if not ok:
            self.record[check] = dict(ok=False, error=tail)
            if self.may_refuse:
                return "REJECTED"
            self.fail(check, tail, argv)
            return "ERROR"
        result = zoo_compare.compare(reference, zoo_compare.load_dir(out), decisions, self.args.rtol,
                                     self.args.atol, self.entry.get("float32_noise"))
        self.record[check] = result.summary()
        if not result.ok:
            self.fail(check, "; ".join(result.messages)[:2000], argv)
        return result.cell()

    def run(self):
        entry, runner = self.entry, self.runner
        if not entry["onnx"]:
            return self.record
        os.makedirs(self.dir, exist_ok=True)
        model = os.path.join(runner.zoo, entry["onnx"])
        levels = ["all"] if entry["one_level_only"] else LEVELS
        decisions = entry["decision_outputs"]
        torch_outputs = {name: np.load(os.path.join(runner.zoo, path))
                         for name, path in entry["expected"].items()}
        reference, cells = torch_outputs, {}
        floats = [v for v in torch_outputs.values() if v.dtype.kind == "f" and v.size]
        self.record["output_scale"] = max((float(np.abs(v).max()) for v in floats), default=None)
        if runner.node:
            argv = runner.node_run(model, entry, "all", os.path.join(self.dir, "node_all"))
            cells["ORT/torch"] = self.judge("node_all", argv, torch_outputs, decisions)
            # ORT refusing the export or disagreeing with torch is not ours to fix: reported apart.
            self.reference_problems, self.failures = self.failures, []
            if self.record["node_all"]["ok"] or "max_abs" in self.record["node_all"]:
                reference = zoo_compare.load_dir(os.path.join(self.dir, "node_all"))
                self.may_refuse = False
        self.record["reference"] = "onnxruntime-node" if reference is not torch_outputs else "torch"
        for level in LEVELS:
            cells[level] = self.judge(f"run_{level}", runner.ort_run(model, entry, level, os.path.join(
                self.dir, f"run_{level}")), reference, decisions) if level in levels else "-"
        self.optimize(model, levels, reference, decisions, cells)
        self.record["cells"] = cells
        return self.record

    def optimize(self, model, levels, reference, decisions, cells):
        runner, histograms, rollbacks = self.runner, {}, []
        here, there = [], []
        for level in levels:
            optimized = os.path.join(self.dir, f"optimized_{level}.onnx")
            report = os.path.join(self.dir, f"optimized_{level}.json")
            # Not strict: a pass that breaks the graph is rolled back and counted in the report.
            argv = [runner.ort, "optimize", model, "--level", level, "-o", optimized, "--report", report]
            ok, tail, _ = self.step(f"optimize_{level}", argv)
            if not ok:
                if self.may_refuse:
                    here.append(f"{level}:REJECTED")
                    continue
                self.fail(f"optimize_{level}", tail, argv)
                here.append(f"{level}:ERROR")
                continue
            with open(report) as f:
                data = json.load(f)
            # What a session runs: the saved graph plus the session-only fusions.
            histogram = {o["op_type"]: o["after"] for o in data["op_types"]}
            for o in data.get("session_only_ops", []):
                histogram[o["op_type"]] = o["after"]
            histograms[level] = {op: n for op, n in histogram.items() if n}
            histograms.setdefault("export", {o["op_type"]: o["before"] for o in data["op_types"]})
            if "optimizer_rollbacks" in data:
                value = data["optimizer_rollbacks"]
                rollbacks.append(value if isinstance(value, int) else len(value))
                if rollbacks[-1]:
                    self.fail(f"rollbacks_{level}", json.dumps(data.get("rollbacks", value))[:2000], argv)
            cell = self.judge(f"reload_{level}", runner.ort_run(optimized, self.entry, level, os.path.join(
                self.dir, f"reload_{level}")), reference, decisions)
            if not cell.startswith("ok"):
                here.append(f"{level}:{cell.split()[0]}")
            if runner.node:
                argv = runner.node_run(optimized, self.entry, "disable",
                                       os.path.join(self.dir, f"node_reload_{level}"))
                cell = self.judge(f"node_reload_{level}", argv, reference, decisions)
                if not cell.startswith("ok"):
                    there.append(f"{level}:{cell.split()[0]}")
            if not self.args.keep and not any(f["check"].endswith(level) for f in self.failures):
                for path in (optimized, optimized + ".data"):
                    if os.path.exists(path):
                        os.remove(path)
        ran = bool(histograms)
        cells["optimize here"] = " ".join(here) or "ok"
        cells["optimize ORT"] = "n/a" if not runner.node else (" ".join(there) or "ok") if ran else "-"
        cells["rollbacks"] = str(sum(rollbacks)) if rollbacks else "n/a"
        self.record["rollbacks"] = sum(rollbacks) if rollbacks else None
        self.structure(histograms, cells)

    def structure(self, histograms, cells):
        ort_extended = {}
        if self.runner.node and not self.entry["one_level_only"]:
            saved = os.path.join(self.dir, "ort_extended.onnx")
            model = os.path.join(self.runner.zoo, self.entry["onnx"])
            out = os.path.join(self.dir, "node_extended")
            argv = self.runner.node_run(model, self.entry, "extended", out, saved)
            ok, _, _ = self.step("node_extended", argv)
            if ok and os.path.exists(saved):
                import onnx
                graph = onnx.load(saved, load_external_data=False).graph
                for node in graph.node:
                    key = f"{node.domain}:{node.op_type}" if node.domain else node.op_type
                    ort_extended[key] = ort_extended.get(key, 0) + 1
                os.remove(saved)
        ours = histograms.get("extended", {})
        blocks = self.entry["blocks"]

        def triple(names, block):
            return "/".join([str(block), str(count_ops(ours, names)) if ours else "-",
                             str(count_ops(ort_extended, names)) if ort_extended else "-"])
        cells["nodes"] = "/".join([str(self.entry["nodes"]), str(sum(ours.values())) if ours else "-",
                                   str(sum(ort_extended.values())) if ort_extended else "-"])
        cells["attention"] = triple(ATTENTION_OPS, blocks["attention"])
        cells["norms"] = triple(NORM_OPS, blocks["norm"])
        at_all = histograms.get("all")
        if at_all:
            convs = {op: n for op, n in at_all.items() if op_name(op) in ("Conv", "FusedConv")}
            outside = sum(n for op, n in convs.items() if "nchwc" not in op)
            cells["conv!nchwc"] = f"{outside}/{sum(convs.values())}"
        else:
            cells["conv!nchwc"] = "-"
        self.record.update(histograms=histograms, ort_extended_histogram=ort_extended)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zoo", default=os.path.join(REPO, "zoo"))
    parser.add_argument("--ort", default=os.path.join(REPO, "build", "apps", "ort", "ort"))
    parser.add_argument("--slice", choices=("ci", "full"), default="full")
    parser.add_argument("--only", help="entries whose name matches this regular expression (re.search)")
    parser.add_argument("--reference", choices=("auto", "node", "torch"), default="auto")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--work")
    parser.add_argument("--json")
    parser.add_argument("--keep", action="store_true", help="keep every optimized model")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per command")
    parser.add_argument("--expected-failures",
                        help="file of known failures, one '<entry> <check>' a line (# comments): reported "
                        "as XFAIL; one that passes fails the run, so that the list stays true")
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--atol", type=float, default=1e-4)
    args = parser.parse_args()
    with open(os.path.join(args.zoo, "manifest.json")) as f:
        entries = [e for e in json.load(f)["models"] if args.slice in e["slices"]
                   and (not args.only or re.search(args.only, e["name"]))]
    runner = Runner(args)
    reference = "onnxruntime-node" if runner.node else "torch eager"
    print(f"run_zoo: {len(entries)} entries; reference {reference}; "
          f"ort {runner.ort}{' --strict-optimizer' if runner.strict else ''}", flush=True)
    records, failures, reference_problems, start = [], [], [], time.time()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        checks = [Check(runner, e) for e in entries]
        futures = {pool.submit(c.run): c for c in checks}
        for future in concurrent.futures.as_completed(futures):
            check = futures[future]
            records.append(future.result())
            failures += check.failures
            reference_problems += check.reference_problems
            print(zoo_report.row(records[-1]), flush=True)
    records.sort(key=lambda r: r["name"])
    failures.sort(key=lambda f: f["model"])
    unexpected_passes = []
    if args.expected_failures:
        expected = read_expected_failures(args.expected_failures, {r["name"] for r in records})
        unexpected_passes = sorted(expected - {(f["model"], f["check"]) for f in failures})
        for failure in failures:
            failure["expected"] = (failure["model"], failure["check"]) in expected
    zoo_report.print_report(records, failures, reference_problems, args.atol)
    print(f"\n{time.time() - start:.0f} s")
    for model, check in unexpected_passes:
        print(f"\nXPASS {model} {check}: listed in {args.expected_failures} but passes; remove the line")
    summary = os.path.abspath(args.json or os.path.join(runner.work, "summary.json"))
    os.makedirs(os.path.dirname(summary), exist_ok=True)
    with open(summary, "w") as f:
        json.dump(dict(records=records, failures=failures, reference_problems=reference_problems,
                       strict_optimizer=bool(runner.strict), reference=reference), f, indent=1)
    print(f"\nsummary: {summary}")
    return 1 if unexpected_passes or any(not f.get("expected") for f in failures) else 0


def read_expected_failures(path, names):
    """The (entry, check) pairs listed in `path` for the entries that ran."""
    pairs = set()
    with open(path) as f:
        for line in f:
            fields = line.split("#", 1)[0].split()
            if len(fields) == 2 and fields[0] in names:
                pairs.add((fields[0], fields[1]))
    return pairs


if __name__ == "__main__":
    sys.exit(main())
