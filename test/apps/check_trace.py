#!/usr/bin/python3
"""Checks a Chrome trace written by `ort run --profile` or `ort perf -p`.

    check_trace.py TRACE.json [--model MODEL.onnx] [--runs N]

The trace must be a JSON array of Chrome trace events: "M" metadata naming the process and the
threads (one of them "main") and "X" complete events with microsecond ts and dur. It must hold
each session initialization step once, nested in session_initialization, and at least one
model_run. Every "Node" event must lie inside one model_run (its own thread's, where concurrent
runs overlap) and carry the node's op type, provider, input and output types and shapes, byte
sizes that agree with those shapes, and the intra-op pool's thread stats, whose threads are
named as the trace's metadata names them; so must every worker of the pool.

Without --model, every run must record the same nodes the same number of times. With --model,
every node of the model's main graph must appear exactly once in every run with its op type;
run the model with `-o disable` then, since optimization removes and fuses nodes. The engine
names an unnamed or duplicate-named node "<name or op type>_<position>" (lib/onnx/graph_proto.cc),
and so does this check. A model with model-local functions, or with nodes the engine expands
into their function bodies, does not run as the file's graph and cannot be checked this way.
--runs N additionally requires N model_run events.

Prints one summary line and exits 0, or prints each problem found and exits 1.
"""
import argparse
import collections
import json
import math
import sys

SESSION_STEPS = ["model_loading", "session_initialization", "free_dimension_overrides",
                 "function_expansion", "graph_optimization", "graph_partitioning",
                 "kernel_creation_and_prepacking", "allocation_planning",
                 "thread_pool_creation"]
NODE_ARGS = ["op_name", "provider", "node_index", "graph", "input_type_shape",
             "output_type_shape", "activation_size", "parameter_size", "output_size",
             "thread_scheduling_stats"]
THREAD_STATS = ["pool_name", "pool_size", "spinning", "parallel_calls", "inline_calls",
                "chunks", "threads"]
# Bytes per element of the fixed-size types, as the engine counts them (lib/ir/data_type.cc).
ELEMENT_BYTES = {"float": 4, "uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "int32": 4,
                 "int64": 8, "bool": 1, "float16": 2, "double": 8, "uint32": 4, "uint64": 8,
                 "complex64": 8, "complex128": 16, "bfloat16": 2, "float8e4m3fn": 1,
                 "float8e4m3fnuz": 1, "float8e5m2": 1, "float8e5m2fnuz": 1}
# ts and dur are written with three decimals, so nested spans may overlap by a rounding step.
ROUNDING_US = 0.002


class Problems(Exception):
    pass


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    return (is_int(value) or isinstance(value, float)) and math.isfinite(value)


def inside(inner, outer):
    return (outer["ts"] - ROUNDING_US <= inner["ts"] and
            inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"] + ROUNDING_US)


def check_event(event, errors):
    where = f"event {event.get('name')!r}"
    for key, valid in [("ph", lambda v: v in ("X", "M")), ("name", lambda v: isinstance(v, str)),
                       ("pid", is_int), ("tid", is_int), ("args", lambda v: isinstance(v, dict))]:
        if not valid(event.get(key)):
            errors.append(f"{where}: bad or missing {key!r}: {event.get(key)!r}")
    if event.get("ph") == "X":
        if event.get("cat") not in ("Session", "Node"):
            errors.append(f"{where}: cat {event.get('cat')!r} is neither Session nor Node")
        if not (is_number(event.get("ts")) and event["ts"] >= 0):
            errors.append(f"{where}: ts {event.get('ts')!r} is not a time in microseconds")
        if not (is_number(event.get("dur")) and event["dur"] >= 0):
            errors.append(f"{where}: dur {event.get('dur')!r} is not a duration >= 0")


def value_bytes(type_shapes):
    """Bytes of the listed values, or None when one has no fixed size (strings, sequences)."""
    total = 0
    for entry in type_shapes:
        (dtype, dims), = entry.items()
        if dtype not in ELEMENT_BYTES:
            return None
        total += ELEMENT_BYTES[dtype] * math.prod(dims)
    return total


def check_node(event, thread_names, errors):
    args = event["args"]
    where = f"node event {event['name']!r}"
    missing = [key for key in NODE_ARGS if key not in args]
    if missing:
        errors.append(f"{where}: missing args {missing}")
        return
    if not event["name"].endswith("_kernel_time"):
        errors.append(f"{where}: name does not end in _kernel_time")
    for key in ["op_name", "provider", "graph"]:
        if not isinstance(args[key], str) or (not args[key] and key != "graph"):
            errors.append(f"{where}: {key} {args[key]!r}")
    for key in ["input_type_shape", "output_type_shape"]:
        values = args[key]
        if not isinstance(values, list) or not all(
                isinstance(v, dict) and len(v) == 1 and isinstance(list(v.values())[0], list)
                and all(is_int(d) and d >= 0 for d in list(v.values())[0]) for v in values):
            errors.append(f"{where}: {key} is not a list of {{type: shape}}: {values!r}")
            return
    if not args["output_type_shape"]:
        errors.append(f"{where}: no output types and shapes")
    sizes = {key: args[key] for key in ["activation_size", "parameter_size", "output_size"]}
    if not all(is_int(size) and size >= 0 for size in sizes.values()):
        errors.append(f"{where}: byte sizes {sizes}")
        return
    inputs = value_bytes(args["input_type_shape"])
    if inputs is not None and inputs != sizes["activation_size"] + sizes["parameter_size"]:
        errors.append(f"{where}: activation_size + parameter_size = "
                      f"{sizes['activation_size'] + sizes['parameter_size']}, "
                      f"but the input shapes hold {inputs} bytes")
    outputs = value_bytes(args["output_type_shape"])
    if outputs is not None and outputs != sizes["output_size"]:
        errors.append(f"{where}: output_size {sizes['output_size']}, "
                      f"but the output shapes hold {outputs} bytes")
    check_thread_stats(where, args["thread_scheduling_stats"], thread_names, errors)


def check_thread_stats(where, stats, thread_names, errors):
    if not isinstance(stats, dict) or any(key not in stats for key in THREAD_STATS):
        errors.append(f"{where}: thread_scheduling_stats lacks some of {THREAD_STATS}: {stats!r}")
        return
    counts = [stats[key] for key in ["pool_size", "parallel_calls", "inline_calls", "chunks"]]
    if not all(is_int(count) and count >= 0 for count in counts) or stats["pool_size"] < 1 \
            or not isinstance(stats["spinning"], bool) or not isinstance(stats["threads"], list) \
            or not all(isinstance(thread, dict) for thread in stats["threads"]):
        errors.append(f"{where}: bad thread_scheduling_stats {stats!r}")
        return
    threads = stats["threads"]
    if len(threads) > stats["pool_size"] or \
            sum(thread.get("chunks", 0) for thread in threads) != stats["chunks"]:
        errors.append(f"{where}: per-thread chunks do not add up to {stats['chunks']} chunks "
                      f"on a pool of {stats['pool_size']}: {threads}")
    for thread in threads:
        tid, name = thread.get("tid"), thread.get("name")
        if thread_names.get(tid) != name:
            errors.append(f"{where}: thread stats name tid {tid} {name!r}, the trace's "
                          f"thread_name metadata names it {thread_names.get(tid)!r}")


def engine_nodes(graph):
    """Each node of `graph` as the engine names it on load, with its op type and domain and how
    many inputs and outputs it names (omitted optional ones are left out of the trace too)."""
    seen = set()
    nodes = []
    for position, node in enumerate(graph.node):
        name = node.name
        if not name or name in seen:
            name = f"{node.name or node.op_type}_{position}"
        seen.add(name)
        nodes.append({"name": name, "op": node.op_type,
                      "domain": "" if node.domain == "ai.onnx" else node.domain,
                      "inputs": sum(1 for value in node.input if value),
                      "outputs": sum(1 for value in node.output if value)})
    return nodes


def check_model_nodes(model_path, runs, errors):
    import onnx  # only needed here, so format checks run where onnx is not installed

    model = onnx.load(model_path, load_external_data=False)
    if model.functions:
        raise Problems([f"{model_path} has model-local functions, which the engine inlines on "
                        "load: the graph it runs is not the file's"])
    graph = model.graph
    expected = engine_nodes(graph)
    names = {node["name"] for node in expected}
    for index, run in enumerate(runs):
        events = collections.defaultdict(list)
        for event in run["nodes"]:
            if event["args"]["graph"] == graph.name:
                events[event["node_name"]].append(event)
        for node in expected:
            found = events[node["name"]]
            if len(found) != 1:
                errors.append(f"run {index}: node {node['name']!r} ({node['op']}) appears "
                              f"{len(found)} times")
                continue
            args = found[0]["args"]
            traced = {"name": node["name"], "op": args["op_name"],
                      "domain": args.get("domain", ""), "inputs": len(args["input_type_shape"]),
                      "outputs": len(args["output_type_shape"])}
            if traced != node:
                errors.append(f"run {index}: the model has {node}, the trace {traced}")
        for name in sorted(set(events) - names):
            errors.append(f"run {index}: node {name!r} of graph {graph.name!r} is not in the model")
    return len(expected)


def check_runs_alike(runs, errors):
    """Without the model, every run must record the nodes the first one recorded."""
    def counts(run):
        return collections.Counter((e["args"]["graph"], e["node_name"]) for e in run["nodes"])

    first = counts(runs[0])
    for index, run in enumerate(runs[1:], start=1):
        if counts(run) != first:
            difference = (counts(run) - first) + (first - counts(run))
            errors.append(f"run {index} records other nodes than run 0: {dict(difference)}")
    return len(first)


def check_threads(trace, errors):
    """Thread names by tid, from the trace's metadata."""
    metadata = [e for e in trace if e["ph"] == "M"]
    named = [e for e in metadata if e["name"] == "thread_name"]
    thread_names = {e["tid"]: e["args"].get("name") for e in named}
    if len(thread_names) != len(named):
        errors.append("a thread is named twice")
    if "main" not in thread_names.values():
        errors.append(f"no thread is named 'main': {sorted(map(str, thread_names.values()))}")
    if not any(e["name"] == "process_name" for e in metadata):
        errors.append("no process_name metadata")
    for tid in sorted({e["tid"] for e in trace if e["ph"] == "X"} - set(thread_names)):
        errors.append(f"thread {tid} records events but has no thread_name")
    return thread_names


def check_session(spans, expected_runs, errors):
    """The initialization steps, and the runs, each {"event": model_run event, "nodes": []}."""
    session = collections.defaultdict(list)
    for event in spans:
        if event["cat"] == "Session":
            session[event["name"]].append(event)
    for step in SESSION_STEPS:
        if len(session[step]) != 1:
            errors.append(f"session event {step!r} appears {len(session[step])} times, not once")
        elif step != "model_loading" and session["session_initialization"] and \
                not inside(session[step][0], session["session_initialization"][0]):
            errors.append(f"session event {step!r} lies outside session_initialization")
    runs = [{"event": event, "nodes": []} for event in session["model_run"]]
    if not runs:
        errors.append("no model_run event")
    if expected_runs is not None and len(runs) != expected_runs:
        errors.append(f"{len(runs)} model_run events, expected {expected_runs}")
    for run in runs:
        if run["event"]["args"].get("ok") is not True:
            errors.append(f"model_run at {run['event']['ts']} us did not succeed")
    return runs


def assign_to_runs(node_events, runs, errors):
    for event in node_events:
        event["node_name"] = event["name"].removesuffix("_kernel_time")
        owners = [run for run in runs if inside(event, run["event"])]
        # Concurrent runs overlap in time; a sequential run executes its nodes on its own thread.
        if len(owners) > 1:
            owners = [run for run in owners if run["event"]["tid"] == event["tid"]]
        if len(owners) != 1:
            errors.append(f"node event {event['name']!r} at {event['ts']} us lies in "
                          f"{len(owners)} model_run spans (of its thread if several), not one")
        else:
            owners[0]["nodes"].append(event)


def check_pool_names(node_events, thread_names, errors):
    """The workers of every intra-op pool the nodes ran on are named "<pool>-<i>"."""
    pools = {(e["args"]["thread_scheduling_stats"]["pool_name"],
              e["args"]["thread_scheduling_stats"]["pool_size"]) for e in node_events}
    for pool, size in sorted(pools):
        # The pool's size counts the thread calling into it, which is not one of its workers.
        unnamed = [f"{pool}-{i}" for i in range(size - 1)
                   if f"{pool}-{i}" not in thread_names.values()]
        if pool and unnamed:
            errors.append(f"pool {pool!r} of {size} threads: no thread_name for {unnamed}")


def check_trace(trace, model_path, expected_runs):
    """Returns the number of nodes of each run and the number of runs, or raises Problems."""
    if not isinstance(trace, list):
        raise Problems([f"the trace is a JSON {type(trace).__name__}, not an array of events"])
    if not all(isinstance(event, dict) for event in trace):
        raise Problems(["the trace holds entries that are not event objects"])
    errors = []
    for event in trace:
        check_event(event, errors)
    if errors:
        raise Problems(errors)

    if len({event["pid"] for event in trace}) != 1:
        errors.append(f"events of several processes: {sorted({e['pid'] for e in trace})}")
    thread_names = check_threads(trace, errors)
    spans = [e for e in trace if e["ph"] == "X"]
    runs = check_session(spans, expected_runs, errors)
    node_events = [e for e in spans if e["cat"] == "Node"]
    for event in node_events:
        check_node(event, thread_names, errors)
    if errors:
        raise Problems(errors)

    check_pool_names(node_events, thread_names, errors)
    assign_to_runs(node_events, runs, errors)
    if not errors:
        nodes = (check_model_nodes(model_path, runs, errors) if model_path
                 else check_runs_alike(runs, errors))
    if errors:
        raise Problems(errors)
    return nodes, len(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--model", help="require every node of this model once per run")
    parser.add_argument("--runs", type=int, help="require this many model_run events")
    options = parser.parse_args()
    try:
        with open(options.trace, encoding="utf-8") as stream:
            trace = json.load(stream)
        nodes, runs = check_trace(trace, options.model, options.runs)
    except json.JSONDecodeError as error:
        print(f"{options.trace}: not valid JSON: {error}")
        return 1
    except OSError as error:
        print(f"{options.trace}: {error}")
        return 1
    except Problems as problems:
        errors = problems.args[0]
        for error in errors[:20]:
            print(f"{options.trace}: {error}")
        if len(errors) > 20:
            print(f"{options.trace}: ... and {len(errors) - 20} more problems")
        return 1
    print(f"{options.trace}: valid trace, {nodes} nodes in each of {runs} runs, "
          f"{len(trace)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
