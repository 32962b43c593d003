"""The README and the manual: the tables built from the code equal the checked-in files,
every table says how it was made, the README opens with the commands CI runs, and no page
speaks of the project's own history."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from benchmarks import doc_tables
from tests.conftest import ROOT

DOCS = ROOT / "docs"
TABLES = DOCS / "tables"
README = ROOT / "README.md"

#: phrases about the project's past: a work log ("session 12", "this round"), a change
#: told as a change ("was 3, now 4", "used to", "previously"), a time line of the code
#: ("since the fix", "until commit ...", "before the change").  "no longer" and "since"
#: alone are ordinary English ("a square that no longer holds", "since the king ..."),
#: and pytest's ``scope="session"`` is not a work log.
HISTORY = re.compile(
    r"(?<![\"'])\bsessions?\b(?![\"'])"
    r"|\bwas\b[^.;:\n]{0,40},\s*now\b"
    r"|\b(?:used to|previously|formerly|until recently)\b"
    r"|\b(?:this|last|next|previous|new this) round\b"
    r"|\b(?:since|until|before|after) (?:the |this |that )?(?:fix|change|commit|refactor"
    r"|rewrite|release|version|round)\b"
    r"|\b(?:since|until) (?:then|now)\b"
    r"|\bthe old (?:code|schedule|set|method|rule)\b",
    re.IGNORECASE,
)


def history_hits(paths: list[Path]) -> list[str]:
    """``path:line: text`` for every history phrase in ``paths``."""
    hits = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if HISTORY.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    return hits


@pytest.mark.parametrize("name", doc_tables.BUILT_NAMES)
def test_built_tables_are_the_checked_in_files(name: str) -> None:
    if name == "cli" and sys.version_info[:2] != (3, 11):
        pytest.skip("argparse's help layout differs between Python versions; built on 3.11")
    path = TABLES / f"{name}.md"
    assert path.read_text(encoding="utf-8") == doc_tables.built_page(name), (
        f"{path.relative_to(ROOT)} is stale: run python benchmarks/doc_tables.py {name}")


def test_the_action_table_lists_every_action_and_bound_key() -> None:
    from viewer.model.actions import ACTIONS, KEYS, key_caption

    rows = {line.split(" | ")[0].strip("| `"): line
            for line in (TABLES / "actions.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| `")}
    assert set(rows) == set(ACTIONS)
    for name, specs in KEYS.items():
        for spec in specs:
            assert f"`{key_caption(spec)}`" in rows[name], (name, spec)


def test_the_library_table_has_every_diagram_and_method() -> None:
    import logic
    from logic.diagrams import load_diagrams

    text = (TABLES / "library.md").read_text(encoding="utf-8")
    for d in load_diagrams():
        assert f"`{d.id}`" in text
    for m in logic.STATIC_METHODS:
        assert f"{m}: White" in text and f"{m}: Black" in text


def test_every_table_says_how_it_was_made_and_is_shown() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    known = {*doc_tables.BUILT, *doc_tables.MEASURED}
    for path in sorted(TABLES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith(doc_tables.MARK), path.name
        assert re.search(r"\*Made by `[^`]+` on [^*]+\.\*\n\Z", text), path.name
        assert path.stem in known, f"{path.name}: no command writes it"
        assert f'--8<-- "tables/{path.name}"' in pages, f"{path.name} is on no page"
    for name in known:
        assert (TABLES / f"{name}.md").exists(), f"tables/{name}.md is missing"


def test_every_snippet_of_a_page_exists() -> None:
    for page in DOCS.glob("*.md"):
        for name in re.findall(r'--8<-- "([^"]+)"', page.read_text(encoding="utf-8")):
            assert (DOCS / name).exists(), (page.name, name)


def _ci_test_command() -> str:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return lines[lines.index("# The README's test command:") + 1].strip()


def test_readme_is_short_and_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL)
    run, test = blocks[0].strip(), blocks[1].strip()
    assert run.startswith("python3 -m venv .venv && .venv/bin/pip install .")
    assert run.endswith(".venv/bin/pawnfence")
    assert test == _ci_test_command()
    first_prose = text.index("Blockage detection")
    assert text.index(run) < first_prose and text.index(test) < first_prose


def test_readme_links_resolve() -> None:
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_readme_and_docs_have_no_history_words() -> None:
    paths = [README, *sorted(DOCS.rglob("*.md")), *sorted(DOCS.rglob("*.py"))]
    assert history_hits(paths) == []


def test_the_history_pattern_finds_history_and_spares_english() -> None:
    for phrase in ("session 34's fix", "since session 32", "the budget was 200,000, now 1,000,000",
                   "the code used to", "new this round", "previously 12",
                   "before the fix", "until then"):
        assert HISTORY.search(phrase), phrase
    for phrase in ("since the king cannot pass", "White was to move, so Black",
                   "the fence holds now", "a lever that breaks any fence",
                   "the board no longer shows case 1", '@pytest.fixture(scope="session")'):
        assert not HISTORY.search(phrase), phrase


def test_code_has_no_history_words() -> None:
    paths = [p for folder in ("logic", "viewer", "tests", "benchmarks")
             for p in sorted((ROOT / folder).rglob("*.py")) if p.name != "test_docs.py"]
    assert history_hits(paths) == []
