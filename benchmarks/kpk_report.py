"""Print the KPK rule table of the README: every rule of the wiki's KPK page and its
corrected twin, measured on all legal positions against the bitbase.

    python benchmarks/kpk_report.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from logic import kpk_rules  # noqa: E402


def main() -> None:
    rows = kpk_rules.measure(kpk_rules.RULES + tuple(kpk_rules.CORRECTED.values()))
    n = rows[0]["positions"]
    print(f"{n} legal positions (pawn on files a-d; the rest are mirror images), "
          "both sides to move")
    print("| rule | claims | fires on | wrong | example of a wrong call | used |")
    print("|---|---|---|---|---|---|")
    used = {r.name for r in kpk_rules.SOUND}
    for r in rows:
        example = f"`{r['example']}`" if r["example"] else "-"
        mark = "yes" if r["rule"] in used else "no"
        print(f"| {r['rule']}: {r['text']} | {r['claims']} | {r['fires']} "
              f"({100 * r['fires'] / n:.2f} %) | {r['errors']} | {example} | {mark} |")


if __name__ == "__main__":
    main()
