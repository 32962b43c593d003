"""The layers, read from the source with ``ast`` (imports inside functions included):
``logic`` is a pure library (no ``viewer``, no pygame), its modules import each other
without a cycle, and no module imports another module's underscore names."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("viewer", "pygame", "pygame_gui")


def _imports(path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """``(module, imported names, line)`` for every import statement of ``path`` that
    runs (module level or in a function; not the ``if TYPE_CHECKING:`` imports, which
    only type checkers read)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for child in node.body for n in ast.walk(child)}
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, (), node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.module, tuple(a.name for a in node.names), node.lineno))
    return out


def _modules(package: str) -> dict[str, Path]:
    return {f"{package}.{p.stem}" if p.stem != "__init__" else package: p
            for p in sorted((ROOT / package).glob("*.py"))}


def test_logic_never_imports_the_viewer_or_pygame() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}: {mod}"
           for path in _modules("logic").values() for mod, _names, line in _imports(path)
           if mod.split(".")[0] in FORBIDDEN]
    assert not bad, bad


def test_no_import_cycle_among_logic_modules() -> None:
    mods = _modules("logic")
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        for mod, names, _line in _imports(path):
            targets = {mod} | {f"{mod}.{n}" for n in names}
            graph[m] |= {t for t in targets if t in mods and t != m and t != "logic"}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_no_module_imports_another_modules_underscore_names() -> None:
    bad = []
    for package in ("logic", "viewer"):
        for path in _modules(package).values():
            for mod, names, line in _imports(path):
                if mod.split(".")[0] in ("logic", "viewer"):
                    bad += [f"{path.relative_to(ROOT)}:{line}: {mod}.{n}" for n in names
                            if n.startswith("_") and n != "__version__"]
    assert not bad, bad


def test_the_window_class_stays_small() -> None:
    """The house issue's bound: ``viewer/app.py`` (the loop) under 350 lines; the model,
    the actions, the gestures, the panel and the view live in their own modules."""
    lines = (ROOT / "viewer" / "app.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 350, len(lines)
