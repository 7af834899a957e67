#!/usr/bin/python3
"""Benchmarks the zoo against onnxruntime-node 1.30: latency, resident memory and session start.

  /usr/bin/python3 tools/zoo/bench_zoo.py [--zoo zoo] [--models tools/zoo/bench_models.txt]
      [--only REGEX] [--threads 1 2] [--rounds 3] [--warmup 2] [--runs 10] [--seconds 1]
      [--json FILE]

For every model of the list (its opset-17 export and the inputs of the zoo's manifest; a line
`suite:MODEL` is one of tools/suite/make_suite.sh's pretrained npm models), each
round runs both engines, alternating which goes first, each in a fresh process, with session
creation at level all, inter-op threads 1 and sequential execution: first once at 1 thread for
10 runs, which gives the resident-memory growth from just before session creation to after the
10th run (as issue 22 measures it); then once per thread count for the latency: WARMUP
unmeasured runs and about SECONDS of measured ones (at least RUNS, at most 200, set in the first
round from the faster engine's latency), whose nearest-rank p50 is the figure. Session creation
is the median of every process's. Once per round the model is also `ort optimize`d (level all)
and that file's session start is timed. A model's figure is the median over the rounds.

Prints the table (ours/ORT per thread count, memory, start-up) and per thread count the geometric
mean and the worst ratio; --json keeps every measurement. Exits 0 whatever the ratios: a
benchmark, not a test; 2 when an engine fails on a model (the row says which).
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

MEMORY_RUNS = 10
MAX_RUNS = 200
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--zoo', default=os.path.join(REPO, 'zoo'))
    parser.add_argument('--models', default=os.path.join(REPO, 'tools', 'zoo', 'bench_models.txt'))
    parser.add_argument('--only', help='models whose name matches this regular expression')
    parser.add_argument('--ort', default=os.path.join(REPO, 'build', 'apps', 'ort', 'ort'))
    parser.add_argument('--suite', default=os.path.join(REPO, 'suite'),
                        help='where `suite:MODEL` lines find the npm models (make_suite.sh)')
    parser.add_argument('--node-modules', default=os.path.join(REPO, 'suite', 'node_modules'))
    parser.add_argument('--threads', type=int, nargs='+', default=[1, 2])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--warmup', type=int, default=2)
    parser.add_argument('--runs', type=int, default=10, help='fewest measured runs')
    parser.add_argument('--seconds', type=float, default=1.0,
                        help='measure about this long per process (more runs, up to 200)')
    parser.add_argument('--opset', type=int, default=17)
    parser.add_argument('--json', help='write every measurement here')
    parser.add_argument('--ort-flags', default='', help='extra `ort perf` flags (ours only)')
    return parser.parse_args()


def bench_list(path, only):
    """The model names of the list file: one per line, `#` starts a comment."""
    names = []
    with open(path) as stream:
        for line in stream:
            name = line.split('#', 1)[0].strip()
            if name and (not only or re.search(only, name)):
                names.append(name)
    return names


def suite_entry(args, name):
    """A `suite:MODEL` line: the pretrained npm models of tools/suite/make_suite.sh."""
    model = name.split(':', 1)[1]
    onnx = os.path.join(args.suite, 'models', model + '.onnx')
    inputs = os.path.join(args.suite, 'inputs', model)
    if not os.path.isfile(onnx) or not os.path.isdir(inputs):
        return None
    return {'onnx': onnx, 'family': 'npm', 'inputs': {
        file[:-4]: os.path.join(inputs, file) for file in sorted(os.listdir(inputs))
        if file.endswith('.npy')}}


def nearest_rank_p50(values):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.5 * len(ordered)) - 1)]


class Bench:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.env = dict(os.environ, ORT_NODE_MODULES=args.node_modules)

    def run(self, argv, what):
        result = subprocess.run(argv, capture_output=True, text=True, env=self.env)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
            raise RuntimeError(f'{what} failed ({result.returncode}): {" ".join(tail)}')
        return result.stdout

    def ours(self, model, inputs, threads, warmup, runs):
        report = os.path.join(self.work, 'ours.json')
        argv = [self.args.ort, 'perf', model, '-o', 'all', '-x', str(threads), '-y', '1',
                '--warmup', str(warmup), '-r', str(runs), '--json', report]
        argv += [f'--input={name}={path}' for name, path in inputs.items()]
        argv += self.args.ort_flags.split()
        self.run(argv, 'ort perf')
        with open(report) as stream:
            data = json.load(stream)
        return {'p50_ms': data['latency_ms']['p50'], 'create_ms': data['session_init_ms'],
                'rss_growth_bytes': data['rss_growth_bytes']}

    def reference(self, model, inputs, threads, warmup, runs):
        argv = ['node', os.path.join(REPO, 'tools', 'suite', 'ort_reference.js'), model,
                '--threads', str(threads), '--warmup', str(warmup), '--repeat', str(runs)]
        for name, path in inputs.items():
            argv += ['--input', f'{name}={path}']
        data = json.loads(self.run(argv, 'onnxruntime-node').strip().splitlines()[-1])
        return {'p50_ms': nearest_rank_p50(data['latencies_ms']),
                'create_ms': data['session_create_ms'],
                'rss_growth_bytes': data['rss_growth_bytes']}

    def optimized_start(self, model, inputs):
        optimized = os.path.join(self.work, 'optimized.onnx')
        for stale in os.listdir(self.work):
            if stale.startswith('optimized'):
                os.remove(os.path.join(self.work, stale))
        self.run([self.args.ort, 'optimize', model, '-o', optimized, '--level', 'all'],
                 'ort optimize')
        # A model is shipped and loaded long after it is written. Loaded while the kernel still
        # flushed its fresh pages (126 MB for r2plus1d_18), its session start read 47-308 ms on one
        # machine; the reference's model file has long settled.
        os.sync()
        report = os.path.join(self.work, 'opt.json')
        argv = [self.args.ort, 'perf', optimized, '-o', 'all', '-x', '1', '-y', '1',
                '--warmup', '0', '-r', '1', '--json', report]
        argv += [f'--input={name}={path}' for name, path in inputs.items()]
        self.run(argv, 'ort perf (optimized)')
        with open(report) as stream:
            return json.load(stream)['session_init_ms']


def measure_model(bench, args, entry, log):
    model = os.path.join(args.zoo, entry['onnx'])
    inputs = {name: os.path.join(args.zoo, path) for name, path in entry['inputs'].items()}
    samples = {'ours': {t: [] for t in args.threads}, 'ort': {t: [] for t in args.threads},
               'memory': {'ours': [], 'ort': []}, 'optimized_create_ms': []}
    runs = args.runs
    for round_index in range(args.rounds):
        # Memory and start-up as the issue measures them: a fresh process, session creation
        # through MEMORY_RUNS runs at one thread.
        engines = ['ours', 'ort'] if round_index % 2 == 0 else ['ort', 'ours']
        for engine in engines:
            measure = bench.ours if engine == 'ours' else bench.reference
            samples['memory'][engine].append(measure(model, inputs, 1, 0, MEMORY_RUNS))
        if round_index == 0 and args.seconds > 0:
            # Short models get more measured runs, so that a p50 is not a handful of samples.
            latency = max(1e-3, min(s['p50_ms'] for s in (samples['memory']['ours'][0],
                                                          samples['memory']['ort'][0])))
            runs = max(args.runs, min(MAX_RUNS, round(args.seconds * 1000 / latency)))
        for threads in args.threads:
            engines = ['ours', 'ort'] if (round_index + threads) % 2 == 0 else ['ort', 'ours']
            for engine in engines:
                measure = bench.ours if engine == 'ours' else bench.reference
                samples[engine][threads].append(measure(model, inputs, threads, args.warmup, runs))
        samples['optimized_create_ms'].append(bench.optimized_start(model, inputs))
        log(f'  round {round_index + 1} ({runs} runs): ' + ', '.join(
            f'{t}t {samples["ours"][t][-1]["p50_ms"]:.2f}/{samples["ort"][t][-1]["p50_ms"]:.2f}'
            for t in args.threads))
    summary = {'samples': samples, 'optimized_create_ms': statistics.median(
        samples['optimized_create_ms'])}
    for engine in ('ours', 'ort'):
        summary[f'{engine}_rss_growth_bytes'] = statistics.median(
            s['rss_growth_bytes'] for s in samples['memory'][engine])
        summary[f'{engine}_create_ms'] = statistics.median(
            [s['create_ms'] for s in samples['memory'][engine]] +
            [s['create_ms'] for t in args.threads for s in samples[engine][t]])
        for threads in args.threads:
            summary[f'{engine}_p50_{threads}t'] = statistics.median(
                s['p50_ms'] for s in samples[engine][threads])
    for threads in args.threads:
        summary[f'ratio_{threads}t'] = summary[f'ours_p50_{threads}t'] / summary[f'ort_p50_{threads}t']
    return summary


def print_table(args, rows, failures):
    mib = 1 << 20
    header = f'{"model":34} {"family":17}'
    for threads in args.threads:
        header += f' {"ours " + str(threads) + "t":>9} {"ORT":>9} {"ratio":>6}'
    header += f' {"RSS+ ours":>9} {"ORT":>7} {"start ours":>10} {"ORT":>8} {"optimized":>9}'
    print(header)
    for name, family, row in rows:
        line = f'{name:34} {family:17}'
        for threads in args.threads:
            line += (f' {row[f"ours_p50_{threads}t"]:9.2f} {row[f"ort_p50_{threads}t"]:9.2f}'
                     f' {row[f"ratio_{threads}t"]:6.3f}')
        line += (f' {row["ours_rss_growth_bytes"] / mib:8.1f}M {row["ort_rss_growth_bytes"] / mib:6.1f}M'
                 f' {row["ours_create_ms"]:9.1f}ms {row["ort_create_ms"]:6.1f}ms'
                 f' {row["optimized_create_ms"]:7.1f}ms')
        print(line)
    for name, message in failures:
        print(f'{name:34} FAILED: {message}')
    if not rows:
        return
    for threads in args.threads:
        ratios = [row[f'ratio_{threads}t'] for _, _, row in rows]
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        worst = max(rows, key=lambda r: r[2][f'ratio_{threads}t'])
        print(f'{threads} thread(s): geomean ours/ORT {geomean:.3f} over {len(ratios)} models; '
              f'worst {worst[0]} {worst[2][f"ratio_{threads}t"]:.3f}; '
              f'{sum(r > 1.05 for r in ratios)} above 1.05')
    memory = sum(row['ours_rss_growth_bytes'] > row['ort_rss_growth_bytes'] for _, _, row in rows)
    start = sum(row['ours_create_ms'] > row['ort_create_ms'] for _, _, row in rows)
    optimized = sum(row['optimized_create_ms'] * 3 > row['ort_create_ms'] for _, _, row in rows)
    print(f'RSS growth above ORT: {memory}; session start above ORT: {start}; '
          f'optimized start above a third of ORT: {optimized}')


def main():
    args = parse_args()
    with open(os.path.join(args.zoo, 'manifest.json')) as stream:
        manifest = json.load(stream)
    entries = {e['name']: e for e in manifest['models']}
    names = bench_list(args.models, args.only)
    log = lambda message: print(message, file=sys.stderr, flush=True)
    rows, failures, record = [], [], {}
    with tempfile.TemporaryDirectory() as work:
        bench = Bench(args, work)
        for name in names:
            entry = suite_entry(args, name) if name.startswith('suite:') else entries.get(
                f'{name}_op{args.opset}')
            if not entry or not entry.get('onnx'):
                failures.append((name, f'not in {args.zoo} at opset {args.opset} (build_zoo.py)'))
                continue
            log(f'{name}:')
            try:
                row = measure_model(bench, args, entry, log)
            except RuntimeError as error:
                failures.append((name, str(error)))
                continue
            rows.append((name, entry['family'], row))
            record[name] = row
            if args.json:
                with open(args.json, 'w') as stream:
                    json.dump({'settings': vars(args), 'models': record}, stream, indent=1)
    print_table(args, rows, failures)
    return 2 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
