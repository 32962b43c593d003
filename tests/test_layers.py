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


#: the viewer's wings, lowest first: a wing imports only the wings below it
WINGS = ("model", "figures", "window", "cli")


def _wing(module: str) -> str | None:
    """The wing of a ``viewer`` module (``viewer.cli`` is the console on top)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "viewer" and parts[1] in WINGS else None


def test_the_viewer_is_four_wings() -> None:
    """``viewer/`` holds the model, figures and window wings and the console on top."""
    top = {p.stem for p in (ROOT / "viewer").glob("*.py")} - {"__init__"}
    subs = {p.name for p in (ROOT / "viewer").iterdir()
            if p.is_dir() and (p / "__init__.py").exists()}
    assert top == {"cli"}, top
    assert subs == {"model", "figures", "window"}, subs


def test_no_wing_imports_up() -> None:
    """model < figures < window < cli: a wing never imports one above it (imports inside
    functions count, they run too)."""
    rank = {w: i for i, w in enumerate(WINGS)}
    bad = []
    for module, path in _modules("viewer").items():
        mine = _wing(module)
        for mod, names, line in _imports(path):
            targets = [f"{mod}.{n}" for n in names] + [mod]
            theirs = next((w for t in targets if (w := _wing(t))), None)
            if mine and theirs and rank[theirs] > rank[mine]:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {mine} imports {mod} ({theirs})")
    assert not bad, bad


def test_the_model_imports_no_pygame() -> None:
    """The state, the editor, the actions, the texts: testable without a display."""
    bad = [f"{path.relative_to(ROOT)}:{line}: {mod}"
           for path in (ROOT / "viewer" / "model").rglob("*.py")
           for mod, _names, line in _imports(path)
           if mod.split(".")[0] in ("pygame", "pygame_gui")]
    assert not bad, bad


#: where records may be built with ``tuple.__new__`` (or read with ``tuple.__getitem__``),
#: as ``file:function``: measured hot paths only, each with a comment at the site saying
#: what was measured; everywhere else records are built and read by name
TUPLE_PROTOCOL_ALLOWED = frozenset({
    # the exact prover's move generation (its comment: the NamedTuple constructor's
    # overhead on every structure's move list)
    "logic/exact/tables.py:_x_moves",
    "logic/exact/tables.py:_d_moves",
})


def _tuple_protocol_sites(path: Path, root: Path = ROOT) -> list[str]:
    """``file:function`` (``file`` relative to ``root``) of every call of ``tuple.__new__``
    or ``tuple.__getitem__`` in ``path``, directly or through a module-level alias
    (``_new = tuple.__new__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))

    def is_raw(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr in ("__new__", "__getitem__")
                and isinstance(node.value, ast.Name) and node.value.id == "tuple")

    aliases = {t.id for node in tree.body if isinstance(node, ast.Assign) and is_raw(node.value)
               for t in node.targets if isinstance(t, ast.Name)}
    rel = path.relative_to(root).as_posix()
    sites: list[str] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and (
                    is_raw(child.func)
                    or isinstance(child.func, ast.Name) and child.func.id in aliases):
                sites.append(f"{rel}:{where}")
            visit(child, where)

    visit(tree, "<module>")
    return sites


def test_records_are_built_by_name_outside_measured_hot_paths() -> None:
    """No ``tuple.__new__`` / ``tuple.__getitem__`` on a record outside
    :data:`TUPLE_PROTOCOL_ALLOWED`, and no stale entry in that list."""
    sites = {s for path in _modules("logic").values() for s in _tuple_protocol_sites(path)}
    assert not sites - TUPLE_PROTOCOL_ALLOWED, sorted(sites - TUPLE_PROTOCOL_ALLOWED)
    assert not TUPLE_PROTOCOL_ALLOWED - sites, sorted(TUPLE_PROTOCOL_ALLOWED - sites)


def test_the_tuple_protocol_check_finds_every_form(tmp_path: Path) -> None:
    """The check above sees direct calls, module-level aliases and the enclosing function."""
    src = tmp_path / "probe.py"
    src.write_text("_new = tuple.__new__\n\n\ndef f(cls, t):\n    return _new(cls, t)\n\n\n"
                   "def g(v):\n    return tuple.__getitem__(v, 2)\n\n\n"
                   "def h(cls, t):\n    return cls._make(t)\n", encoding="utf-8")
    assert _tuple_protocol_sites(src, tmp_path) == ["probe.py:f", "probe.py:g"]


def test_mypy_is_clean_on_logic() -> None:
    """``mypy logic`` (the ``[tool.mypy]`` section of pyproject.toml: strict optional) finds
    nothing; skipped where mypy is not installed."""
    api = pytest.importorskip("mypy.api")
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      str(ROOT / "logic")])
    assert status == 0, stdout + stderr


#: the most lines a module of ``viewer/`` has and the most methods a class of it has
MODULE_LINES, CLASS_METHODS = 600, 40
#: classes known to be larger, with the count they may not grow past (to be split)
LARGE_CLASSES = {"viewer.model.state.ViewerState": 48}


def test_no_viewer_module_or_class_is_too_large() -> None:
    """Small modules named for what they hold: none of ``viewer/`` over
    :data:`MODULE_LINES` lines, no class over :data:`CLASS_METHODS` methods (but the
    known ones of :data:`LARGE_CLASSES`, which may not grow)."""
    long, large = [], []
    for module, path in _modules("viewer").items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MODULE_LINES:
            long.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.ClassDef):
                n = sum(isinstance(c, ast.FunctionDef | ast.AsyncFunctionDef) for c in node.body)
                if n > LARGE_CLASSES.get(f"{module}.{node.name}", CLASS_METHODS):
                    large.append(f"{module}.{node.name}: {n} methods")
    assert not long, long
    assert not large, large
