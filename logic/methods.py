"""The registry's entries: every detector method, in menu order.

Adding a method is one new module (a :class:`~logic.registry.Method` subclass and
its instance) and one entry here.
"""

from __future__ import annotations

from logic.exact import EXACT
from logic.extended import EXTENDED
from logic.flood import FLOOD
from logic.paper import PAPER
from logic.registry import METHODS, register

__all__ = ["METHODS", "PAPER", "FLOOD", "EXACT", "EXTENDED"]

for _method in (PAPER, FLOOD, EXACT, EXTENDED):
    register(_method)
