"""Measurement and campaign scripts (not installed): each writes the figures the docs show.

Run them from the repository root, e.g. ``python benchmarks/exact_bench.py``."""
