#!/usr/bin/python3
"""Writes the ai.onnx schema history that libonnx 1.12 lacks (opsets 18 up to the loader's
kMaxOnnxOpset) as the table test/providers/cpu/kernel_registry_schema_test.cc reads.

Usage: tools/gen_onnx_schema_history.py ONNX_GIT_DIR [COMMIT] > test/data/onnx_schema_history.tsv

ONNX_GIT_DIR is a clone (or bare git dir) of the onnx repository; COMMIT defaults to HEAD. The
(op, since_version) pairs come from onnx/defs/operator_sets.h; whether a schema is deprecated or
has a function body (FunctionBody or a context-dependent function builder) comes from its
ONNX_OPERATOR_SET_SCHEMA definition under onnx/defs/.
"""
import os
import re
import subprocess
import sys

FIRST_OPSET = 18  # libonnx 1.12 (Debian) knows opsets 1..17
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTION_MARKERS = (".FunctionBody(", "SetContextDependentFunctionBodyBuilder(")


def git(onnx_dir, *args):
    return subprocess.run(["git", "-C", onnx_dir, *args], check=True, capture_output=True,
                          text=True).stdout


def max_opset():
    with open(os.path.join(REPO, "lib/onnx/model_loader.h")) as header:
        return int(re.search(r"kMaxOnnxOpset = (\d+);", header.read()).group(1))


def skip_literal(text, i):
    """Index just past the comment or string literal starting at text[i], or i if none does."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        return text.index("*/", i) + 2
    raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
    if raw:
        return text.index(")" + raw.group(1) + '"', i + raw.end()) + len(raw.group(1)) + 2
    if text[i] in "\"'":
        j = i + 1
        while text[j] != text[i]:
            j += 2 if text[j] == "\\" else 1
        return j + 1
    return i


def bracketed(text, open_index):
    """The top-level comma-separated parts inside the bracket at text[open_index], and the index
    just past its closing bracket."""
    parts, depth, start, i = [], 0, open_index + 1, open_index
    while True:
        j = skip_literal(text, i)
        if j != i:
            i = j
            continue
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                parts.append(text[start:i].strip())
                return parts, i + 1
        elif c == "," and depth == 1:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1


def generator_source(sources, name):
    """The definition (signature and body) of the schema generator `name`, a function returning
    std::function<void(OpSchema&)>."""
    pattern = r"std::function<void\(OpSchema&\)>\s*" + name + r"\s*\("
    for text in sources.values():
        definition = re.search(pattern, text)
        if definition:
            _, params_end = bracketed(text, definition.end() - 1)
            body_open = text.index("{", params_end)
            return text[definition.start():bracketed(text, body_open)[1]]
    sys.exit(f"no definition of the schema generator {name}")


def fills_function(sources, call):
    """Whether FillUsing(<call>) adds a function body. Of the generators only the reduction ones
    can (their function-body argument says whether); any other generator whose source gains a
    function body stops the script, so that its rule gets written here rather than guessed."""
    name = re.match(r"[\w:]+", call).group(0).split("::")[-1]
    if name == "ReduceFunctionOp":
        return True
    if name == "ReduceOpDynamicAxes":
        return False
    if name == "ReduceOpGenerator":
        args, _ = bracketed(call, call.index("("))
        return any(arg != "nullptr" for arg in args[4:6])
    source = generator_source(sources, name)
    if any(marker in source for marker in FUNCTION_MARKERS) or "FillUsing(" in source:
        sys.exit(f"the schema generator {name} may add a function body: teach this script")
    return False


def schema_definitions(sources):
    """{(op, since_version): (has_function, deprecated)} for every ONNX_OPERATOR_SET_SCHEMA."""
    schemas = {}
    for path, text in sources.items():
        if not path.endswith(".cc"):
            continue
        for match in re.finditer(r"^ONNX_OPERATOR_SET_SCHEMA\(", text, re.MULTILINE):
            (op, version, expression), _ = bracketed(text, match.end() - 1)
            has_function = any(marker in expression for marker in FUNCTION_MARKERS)
            for fill in re.finditer(r"FillUsing\(", expression):
                (call,), _ = bracketed(expression, fill.end() - 1)
                has_function = fills_function(sources, call) or has_function
            schemas[(op, int(version))] = (has_function, ".Deprecate()" in expression)
    return schemas


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    onnx_dir = sys.argv[1]
    commit = git(onnx_dir, "rev-parse", sys.argv[2] if len(sys.argv) == 3 else "HEAD").strip()
    paths = git(onnx_dir, "ls-tree", "-r", "--name-only", commit, "onnx/defs").split()
    sources = {path: git(onnx_dir, "show", f"{commit}:{path}") for path in paths
               if path.endswith((".cc", ".h"))}
    last = max_opset()
    declared = sorted({(int(version), op) for version, op in re.findall(
        r"ONNX_OPERATOR_SET_SCHEMA_CLASS_NAME\(Onnx, (\d+), (\w+)\)",
        sources["onnx/defs/operator_sets.h"]) if FIRST_OPSET <= int(version) <= last})
    if not any(version == last for version, _ in declared):
        sys.exit(f"onnx {commit} declares no ai.onnx opset {last}")
    schemas = schema_definitions(sources)
    print(f"# ai.onnx schemas introduced in opsets {FIRST_OPSET}..{last} (libonnx 1.12 knows "
          f"1..{FIRST_OPSET - 1}),")
    print(f"# from onnx commit {commit}: onnx/defs/operator_sets.h and the definitions in onnx/defs.")
    print("# Regenerate: tools/gen_onnx_schema_history.py ONNX_GIT_DIR [COMMIT] > this file")
    print("# op\tsince_version\thas_function\tdeprecated")
    for version, op in sorted(declared, key=lambda pair: (pair[1], pair[0])):
        if (op, version) not in schemas:
            sys.exit(f"no ONNX_OPERATOR_SET_SCHEMA definition of {op}-{version}")
        has_function, deprecated = schemas[(op, version)]
        print(f"{op}\t{version}\t{int(has_function)}\t{int(deprecated)}")


if __name__ == "__main__":
    main()
