"""The layers, read from the source with ``ast`` (imports inside functions included):
``logic`` is a pure library (no ``viewer``, no pygame), its modules import each other
without a cycle, and no module imports another module's underscore names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
    """Every module of ``package`` and its subpackages, by dotted name."""
    out = {}
    for p in sorted((ROOT / package).rglob("*.py")):
        parts = p.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def test_logic_never_imports_the_viewer_or_pygame() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}: {mod}"
           for path in _modules("logic").values() for mod, _names, line in _imports(path)
           if mod.split(".")[0] in FORBIDDEN]
    assert not bad, bad


def _import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules its imports run.  ``from pkg import name`` runs ``pkg.name``
    when that is a module (a package's submodule: its ``__init__`` is already running
    or done), else ``pkg``'s ``__init__``."""
    mods = {m: p for package in packages for m, p in _modules(package).items()}
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        for mod, names, _line in _imports(path):
            subs = {f"{mod}.{n}" for n in names} & mods.keys()
            targets = subs or ({mod} if mod in mods else set())
            graph[m] |= {t for t in targets if t != m and t not in packages}
    return graph


@pytest.mark.parametrize("packages", [("logic",), ("viewer",)])
def test_no_import_cycle(packages: tuple[str, ...]) -> None:
    """No cycle among the modules of ``logic`` or of ``viewer``, counting the imports
    inside functions (they run too)."""
    graph = _import_graph(packages)
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


def test_logic_has_no_exact_or_tool_module_at_the_top() -> None:
    """The prover lives in ``logic/exact/``, the batch commands in ``logic/tools/``."""
    top = {p.stem for p in (ROOT / "logic").glob("*.py")}
    assert not {t for t in top if t.startswith("exact")}, top
    assert not top & {"commands", "bench", "bench_exact", "scan", "experiment", "judge",
                      "runlog"}, top


def test_no_test_loads_a_script_by_path() -> None:
    """Tests import what they use; scripts live in ``benchmarks/``, fixtures in
    ``tests/data``."""
    bad = [p.name for p in (ROOT / "tests").glob("*.py")
           if "spec_from_file_location" in p.read_text(encoding="utf-8")
           and p.name != "test_layers.py"]
    assert not bad, bad
    assert not list((ROOT / "tests" / "data").glob("*.py")), "scripts belong in benchmarks/"


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
