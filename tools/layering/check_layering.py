#!/usr/bin/env python3
"""Checks the dependency rule of the source tree (docs/ARCHITECTURE.md): lib/ depends on no
provider and names none, its folders include each other without cycles, providers/common
depends only on lib, and no provider includes another's code.

    check_layering.py [REPO_ROOT]

Prints every violation and exits 1 when there is one, else prints a summary and exits 0. ctest
runs it (test `layering`)."""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
# Provider types as the command line and node assignments spell them (IExecutionProvider::type).
PROVIDER_NAME = re.compile(r'"(cpu|cuda)(:\d*)?"')
SOURCE_SUFFIXES = {".h", ".cc", ".inc", ".cu", ".cuh"}
# Includes of providers/cpu from providers/cuda that are allowed: places where the CUDA provider
# really runs a CPU kernel (path prefix -> why). Empty: it runs none.
CUDA_USES_OF_CPU: dict[str, str] = {}


def sources(root: pathlib.Path, folder: str):
    base = root / folder
    if not base.is_dir():
        return
    for path in sorted(base.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file():
            yield path


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def find_cycle(graph: dict[str, set[str]]):
    """A list of nodes forming a cycle, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str):
        state[node] = 1
        stack.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                return stack[stack.index(successor):] + [successor]
            if successor not in state:
                cycle = visit(successor)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
    errors: list[str] = []
    lib_graph: dict[str, set[str]] = {}
    witnesses: dict[tuple[str, str], str] = {}

    for path in sources(root, "lib"):
        relative = path.relative_to(root).as_posix()
        folder = relative.split("/")[1]
        lib_graph.setdefault(folder, set())
        text = path.read_text(encoding="utf-8")
        for include in INCLUDE.findall(text):
            top = include.split("/")[0]
            if top in ("providers", "apps", "tools", "test"):
                errors.append(f"{relative}: lib/ includes {include}")
            elif top == "lib":
                target = include.split("/")[1]
                if target != folder:
                    lib_graph[folder].add(target)
                    witnesses.setdefault((folder, target), f"{relative} includes {include}")
        for match in PROVIDER_NAME.finditer(strip_comments(text)):
            errors.append(f"{relative}: lib/ names the provider {match.group(0)}")

    cycle = find_cycle(lib_graph)
    if cycle:
        steps = [witnesses[(a, b)] for a, b in zip(cycle, cycle[1:])]
        errors.append("include cycle between lib folders: " + " -> ".join(cycle) + " (" +
                      "; ".join(steps) + ")")

    def check_provider(folder: str, forbidden: list[str], allowed: dict[str, str]):
        for path in sources(root, folder):
            relative = path.relative_to(root).as_posix()
            for include in INCLUDE.findall(path.read_text(encoding="utf-8")):
                if any(include.startswith(prefix) for prefix in forbidden) and not any(
                        include.startswith(prefix) for prefix in allowed):
                    errors.append(f"{relative}: {folder}/ includes {include}")

    check_provider("providers/common", ["providers/cpu/", "providers/cuda/", "apps/"], {})
    check_provider("providers/cpu", ["providers/cuda/", "apps/"], {})
    check_provider("providers/cuda", ["providers/cpu/", "apps/"], CUDA_USES_OF_CPU)

    for error in errors:
        print(error)
    if errors:
        print(f"check_layering: {len(errors)} violation(s)")
        return 1
    order = " ".join(sorted(lib_graph))
    print(f"check_layering: OK (lib folders without include cycles: {order})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
