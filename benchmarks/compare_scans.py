"""Compare two scans of the same input (e.g. a local run and a Dask run).

    python benchmarks/compare_scans.py LOCAL_DIR DASK_DIR

Static verdicts and the static categories must be identical; exact answers are made
under a time budget, so a side one run settles may be "unknown" in the other (counted),
but a "blocked" in one run against a "breaks" in the other is a contradiction (must be 0).
Exits 1 on any difference that is not a budget effect.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

JUDGE_CATEGORIES = {"claims-blocked-exact-breaks", "exact-blocked-heuristic-misses"}


def load(folder: Path) -> dict[str, dict]:
    rows = (json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines())
    return {r["key"]: r for r in rows}


def compare(a: dict[str, dict], b: dict[str, dict]) -> dict[str, int]:
    """Counts: positions, static differences, exact sides equal, settled in one run only,
    contradictions."""
    out = {"positions_a": len(a), "positions_b": len(b), "static_differ": 0,
           "exact_sides": 0, "exact_equal": 0, "settled_in_one_only": 0, "contradictions": 0}
    for key in a.keys() & b.keys():
        ra, rb = a[key], b[key]
        cats_a = set(ra["categories"]) - JUDGE_CATEGORIES
        cats_b = set(rb["categories"]) - JUDGE_CATEGORIES
        out["static_differ"] += ra["verdicts"] != rb["verdicts"] or cats_a != cats_b
        ea, eb = ra.get("exact") or {}, rb.get("exact") or {}
        for side in ea.keys() | eb.keys():
            sa = ea.get(side, {}).get("status")
            sb = eb.get(side, {}).get("status")
            out["exact_sides"] += 1
            if sa == sb:
                out["exact_equal"] += 1
            elif "unknown" in (sa, sb):
                out["settled_in_one_only"] += 1
            else:
                out["contradictions"] += 1
    return out


def main() -> int:
    a, b = load(Path(sys.argv[1])), load(Path(sys.argv[2]))
    c = compare(a, b)
    print(json.dumps(c))
    bad = c["static_differ"] or c["contradictions"] or c["positions_a"] != c["positions_b"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
