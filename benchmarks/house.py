"""The shape of the house: modules, floors and import arrows of ``logic`` and ``viewer``
and of each of their subpackages (the viewer's wings, the prover, the tools).

A module's floor is 1 + the highest floor among the modules it imports (0 for one that
imports none of its package); arrows count the imports (module level and inside
functions) between modules of the package.  A row also names the package's longest
module, its class with the most methods, and the cycles among its top-level rooms.
Usage, from the repository root::

    python benchmarks/house.py [--root DIR] [--json]

It prints one Markdown table row per package and subpackage.
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (subpackages included) by dotted name."""
    out = {}
    for p in sorted((root / package).rglob("*.py")):
        parts = p.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """``(module, names)`` of every absolute import that runs (not ``TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for child in node.body for n in ast.walk(child)}
    out: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.module, tuple(a.name for a in node.names)))
    return out


def graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules its imports run (a submodule named in ``from pkg
    import name`` counts as that submodule, else the package's ``__init__``)."""
    mods = modules(root, package)
    g: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        for mod, names in imports(path):
            subs = {f"{mod}.{n}" for n in names} & mods.keys()
            g[m] |= {t for t in (subs or ({mod} & mods.keys())) if t != m}
    return g


def floors(g: dict[str, set[str]]) -> dict[str, int]:
    """Each module's floor (cycles are cut where they close)."""
    memo: dict[str, int] = {}
    busy: set[str] = set()

    def floor(m: str) -> int:
        if m in memo:
            return memo[m]
        busy.add(m)
        f = 1 + max((floor(n) for n in g[m] if n not in busy), default=-1)
        busy.discard(m)
        memo[m] = f
        return f

    for m in g:
        floor(m)
    return memo


def rooms(g: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """``g`` with each subpackage folded into one node (its room): the top level's view."""
    def room(m: str) -> str:
        parts = m.split(".")
        sub = ".".join(parts[:2])
        return sub if len(parts) > 2 or (len(parts) == 2 and sub in subpackages) else m

    subpackages = {m for m in g if m != package and any(k.startswith(m + ".") for k in g)}
    out: dict[str, set[str]] = {}
    for m, targets in g.items():
        out.setdefault(room(m), set()).update(room(t) for t in targets)
    return {m: t - {m} for m, t in out.items()}


def longest_module(root: Path, package: str) -> tuple[str, int]:
    """``(module, lines)`` of the longest module of ``package``."""
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines())
             for m, p in modules(root, package).items()}
    m = max(sizes, key=lambda k: sizes[k])
    return m, sizes[m]


def biggest_class(root: Path, package: str) -> tuple[str, int]:
    """``(module.Class, methods)`` of the class of ``package`` with the most methods
    (functions defined in its body, properties included)."""
    best = ("", 0)
    for m, p in modules(root, package).items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                n = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
                if n > best[1]:
                    best = (f"{m}.{node.name}", n)
    return best


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``g`` (one per back edge of a depth-first search)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(g[m]):
            if state.get(n) == 1:
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
    return found


def row(root: Path, package: str) -> dict[str, object]:
    """The figures of one package (a dotted name: ``viewer.model`` is a subpackage)."""
    folder = package.replace(".", "/")
    g = graph(root, folder) if "." not in package else _subgraph(root, package)
    f = floors(g)
    lines = sum(len(p.read_text(encoding="utf-8").splitlines())
                for p in modules(root, folder).values())
    top = rooms(g, package)
    mod, mod_lines = longest_module(root, folder)
    cls, methods = biggest_class(root, folder)
    return {"package": package, "modules": len(g), "lines": lines,
            "floors": 1 + max(f.values()), "arrows": sum(map(len, g.values())),
            "top_nodes": len(top), "top_floors": 1 + max(floors(top).values()),
            "top_arrows": sum(map(len, top.values())), "top_cycles": len(cycles(top)),
            "longest_module": mod, "longest_lines": mod_lines,
            "biggest_class": cls, "class_methods": methods}


def _subgraph(root: Path, package: str) -> dict[str, set[str]]:
    """The import graph of a subpackage's own modules (arrows within it only)."""
    g = graph(root, package.split(".")[0])
    inside = {m for m in g if m == package or m.startswith(package + ".")}
    return {m: g[m] & inside for m in inside}


def packages(root: Path) -> list[str]:
    """``logic``, ``viewer`` and each of their subpackages."""
    out = []
    for top in ("logic", "viewer"):
        out.append(top)
        out += sorted(f"{top}.{d.name}" for d in (root / top).iterdir()
                      if d.is_dir() and (d / "__init__.py").exists())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [row(args.root, package) for package in packages(args.root)]
    if args.json:
        print(json.dumps(rows))
        return
    print("| package | modules | lines | floors | import arrows "
          "| top level (subpackages as rooms): nodes, floors, arrows, cycles "
          "| longest module | class with most methods |")
    print("|---|---:|---:|---:|---:|---|---|---|")
    for r in rows:
        top = ("—" if "." in str(r["package"]) else
               f"{r['top_nodes']}, {r['top_floors']}, {r['top_arrows']}, {r['top_cycles']}")
        print(f"| {r['package']} | {r['modules']} | {r['lines']:,} | {r['floors']} "
              f"| {r['arrows']} | {top} | {r['longest_module']} ({r['longest_lines']}) "
              f"| {r['biggest_class']} ({r['class_methods']}) |")


if __name__ == "__main__":
    main()
