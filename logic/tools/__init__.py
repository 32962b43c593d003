"""The batch commands of the console (``pawnfence explain|classify|scan|bench|...``):
argument parsing and runs over files, on top of :mod:`logic`.  The console imports one
door, :func:`add_commands`; the modules:

* :mod:`~logic.tools.commands`: the subcommands and their options;
* :mod:`~logic.tools.scan`: games through detectors, engine and exact (``results.jsonl``);
* :mod:`~logic.tools.judge`: one position's verdicts, engine score and category;
* :mod:`~logic.tools.experiment`: the paper's Figure 4 experiment;
* :mod:`~logic.tools.bench`, :mod:`~logic.tools.bench_exact`: benchmarks;
* :mod:`~logic.tools.runlog`: progress lines and resumable result files.
"""

from logic.tools.commands import add_commands, add_exact_seconds

__all__ = ["add_commands", "add_exact_seconds"]
