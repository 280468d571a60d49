#!/usr/bin/env python3
"""File-level import cycles in each crate under libs/ and services/.

A file's module depends on another when it names it through `crate::`,
`super::` or, for a child module, its own name (a `use`, or a path in
code), outside `#[cfg(test)]`. A cycle
between files (a.rs uses b.rs, which uses a.rs) means neither can be read,
moved or tested alone; the fix is to move what both need into a module of
its own. A module using what its ancestors hold (a folder's `mod.rs` is its
header) is not a cycle. Prints each cycle and exits 1 when there is one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATH = re.compile(r"(?<![:\w])(crate|super|[a-z_][a-z0-9_]*)::(\w+(?:::\w+)*)")
GROUP = re.compile(r"\buse (crate|super)::\{([^;]*)\};", re.S)
NESTED = re.compile(r"(\w+)::\{[^{}]*\}")


def group_paths(group: str) -> list:
    """The paths a `use …::{…}` group names: `a::{B, C}` names `a`."""
    while NESTED.search(group):
        group = NESTED.sub(r"\1", group)
    items = (item.split(" as ")[0].strip() for item in group.split(","))
    return [item.split("::") for item in items if item and item != "self"]


def module_of(src: pathlib.Path, file: pathlib.Path) -> tuple:
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def code(file: pathlib.Path) -> str:
    """The file's text without its comments and its test module."""
    text = file.read_text()
    cut = text.find("#[cfg(test)]")
    text = text if cut < 0 else text[:cut]
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def resolve(modules: set, start: tuple, path: list) -> tuple | None:
    """The longest module among `start + path`'s prefixes, or `start`."""
    for k in range(len(path), -1, -1):
        candidate = start + tuple(path[:k])
        if candidate in modules:
            return candidate
    return None


def edges(src: pathlib.Path) -> dict:
    files = {module_of(src, f): f for f in src.rglob("*.rs")}
    modules = set(files)
    graph = {}
    for module, file in files.items():
        text = code(file)
        is_dir = file.name in ("mod.rs", "lib.rs", "main.rs")
        parent = module if is_dir else module[:-1]
        paths = [(root, p.split("::")) for root, p in PATH.findall(text)]
        for root, group in GROUP.findall(text):
            paths.extend((root, path) for path in group_paths(group))
        deps = set()
        for root, path in paths:
            if root == "crate":
                start = ()
            elif root == "super":
                start = parent[:-1] if is_dir else parent
            elif parent + (root,) in modules and is_dir:
                start = parent + (root,)
            else:
                continue
            target = resolve(modules, start, path)
            # A folder's own file (mod.rs) is its header: a module may use
            # what its ancestors hold without that being a cycle.
            if target is not None and target != module[: len(target)]:
                deps.add(target)
        graph[module] = deps
    return graph


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    failed = False
    for src in sorted(ROOT.glob("*/*/src")):
        if src.parts[-3] not in ("libs", "services"):
            continue
        for component in cycles(edges(src)):
            names = ", ".join("::".join(m) or "lib" for m in component)
            print(f"shape: an import cycle in {src.relative_to(ROOT)}: {names}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
