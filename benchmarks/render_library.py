"""Render every library diagram with ``pawnfence render``: each method of ``--methods``
(default paper, flood, extended) for both sides, into one folder, to compare the pictures
of two versions byte for byte.

    python -m benchmarks.render_library OUTDIR [--ext png] [--methods paper,flood,extended]
    python -m benchmarks.render_library --compare DIR_A DIR_B
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path


def render_all(out: Path, ext: str, methods: list[str], extra: list[str]) -> list[Path]:
    """Every diagram x method x side rendered in ``out``; returns the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from logic.diagrams import load_diagrams
    from viewer.cli import main

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for d in load_diagrams():
        for method in methods:
            for side in ("white", "black"):
                path = out / f"{d.id}-{method}-{side}.{ext}"
                code = main(["render", "--diagram", d.id, "--method", method, "--side", side,
                             "--out", str(path), *extra], out=io.StringIO())
                if code != 0:
                    raise SystemExit(f"render failed ({code}): {path}")
                written.append(path)
    return written


def compare(a: Path, b: Path) -> int:
    """Print the files of ``a`` whose bytes differ from (or are missing in) ``b``;
    returns how many."""
    bad = 0
    for p in sorted(a.iterdir()):
        q = b / p.name
        if not q.exists() or q.read_bytes() != p.read_bytes():
            print(f"differs: {p.name}")
            bad += 1
    print(f"{bad} of {len(list(a.iterdir()))} differ")
    return bad


def main_(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--ext", default="png")
    ap.add_argument("--methods", default="paper,flood,extended")
    ap.add_argument("--extra", default="", help="more render options, space separated")
    args = ap.parse_args(argv)
    if args.compare:
        return 1 if compare(*args.dirs[:2]) else 0
    files = render_all(args.dirs[0], args.ext, args.methods.split(","), args.extra.split())
    print(f"wrote {len(files)} files in {args.dirs[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
