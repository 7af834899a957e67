#!/usr/bin/python3
"""The zoo runner's tables: one row per entry, one per family, then the failures (with the
command reproducing each), onnxruntime-node's own problems, weak outputs and export failures.
Also a command that prints them again from saved summaries, later files overriding earlier ones
entry by entry:   /usr/bin/python3 tools/zoo/zoo_report.py SUMMARY.json [SUMMARY.json ...]"""
import json
import sys

COLUMNS = ["disable", "basic", "extended", "all", "ORT/torch", "optimize here", "optimize ORT", "rollbacks",
           "nodes", "attention", "norms", "conv!nchwc"]
# Outputs whose largest magnitude is below this make an absolute tolerance meaningless.
WEAK_SCALE = 1e-2


def row(record):
    head = [record["name"], record["family"]]
    if record["export_error"]:
        first = record["export_error"].splitlines()[0][:100].replace("|", "\\|")
        return "| " + " | ".join(head + [f"EXPORT FAILED: {first}"] + [""] * (len(COLUMNS) - 1)) + " |"
    cells = record.get("cells", {})
    return "| " + " | ".join(head + [cells.get(c, "-") for c in COLUMNS]) + " |"


def passed(record):
    cells = record.get("cells", {})
    return all(cells.get(c, "-").split()[0] in ("ok", "ok~", "-") for c in COLUMNS[:4]) and \
        cells.get("optimize here") == "ok" and cells.get("optimize ORT") in ("ok", "n/a")


def add(totals, key, cell):
    """Adds an a/b/c cell into totals[key], a list of sums; a part that is '-' anywhere makes
    its sum None (not measured)."""
    parts = cell.split("/") if cell and cell != "-" else []
    sums = totals.setdefault(key, [0] * len(parts))
    for i, part in enumerate(parts[:len(sums)]):
        sums[i] = sums[i] + int(part) if part.isdigit() and sums[i] is not None else None


def family_rows(records):
    families = {}
    for record in records:
        family = families.setdefault(record["family"],
                                     dict(entries=0, exported=0, passed=0, ort=None, totals={}))
        family["entries"] += 1
        if record["export_error"] or not record.get("cells"):
            continue
        family["exported"] += 1
        family["passed"] += passed(record)
        if "ORT/torch" in record["cells"]:
            family["ort"] = (family["ort"] or 0) + (record["cells"]["ORT/torch"].split()[0] in ("ok", "ok~"))
        for key in ("nodes", "attention", "norms", "conv!nchwc"):
            add(family["totals"], key, record["cells"].get(key, "-"))
    lines = ["| family | entries | exported | pass (4 levels + optimize) | ORT = torch "
             "| nodes export/ours ext/ORT ext | attention blocks/ours/ORT | norms blocks/ours/ORT "
             "| conv!nchwc |", "|---" * 9 + "|"]
    for name, family in sorted(families.items()):
        totals = family["totals"]
        cells = ["-" if family[k] is None else str(family[k])
                 for k in ("entries", "exported", "passed", "ort")]
        cells += ["/".join("-" if v is None else str(v) for v in totals.get(k, [])) or "-"
                  for k in ("nodes", "attention", "norms", "conv!nchwc")]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def print_report(records, failures, reference_problems, atol):
    print(f"\n| model | family | {' | '.join(COLUMNS)} |\n|" + "---|" * (len(COLUMNS) + 2))
    print("\n".join(row(r) for r in records))
    print("\n" + family_rows(records))
    exported = [r for r in records if not r["export_error"]]
    print(f"\n{len(records)} entries, {len(records) - len(exported)} export failures, "
          f"{len({f['model'] for f in failures})} entries with failures")
    for failure in failures:
        kind = "XFAIL" if failure.get("expected") else "FAIL"
        print(f"\n{kind} {failure['model']} {failure['check']}: {failure['message']}\n"
              f"  $ {failure['command']}")
    for problem in reference_problems:
        print(f"\nREFERENCE {problem['model']}: onnxruntime-node {problem['message']}\n"
              f"  $ {problem['command']}")
    for record in records:
        if record.get("output_scale") is not None and record["output_scale"] < WEAK_SCALE:
            print(f"\nWEAK {record['name']}: its outputs are at most {record['output_scale']:.1e}, "
                  f"so that atol {atol} says little")
    for record in records:
        if record["export_error"]:
            print(f"\nEXPORT {record['name']}: {record['export_error'][:600]}")


def main(paths):
    records, failures, problems = {}, {}, {}
    for path in paths:
        with open(path) as f:
            summary = json.load(f)
        for record in summary["records"]:
            name = record["name"]
            records[name] = record
            failures[name] = [x for x in summary["failures"] if x["model"] == name]
            problems[name] = [x for x in summary.get("reference_problems", []) if x["model"] == name]
    names = sorted(records)
    print_report([records[n] for n in names], [f for n in names for f in failures[n]],
                 [p for n in names for p in problems[n]], 1e-4)


if __name__ == "__main__":
    main(sys.argv[1:])
