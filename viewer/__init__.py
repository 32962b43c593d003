"""pawnfence's pygame board editor and animator (issue: Viewer).

The viewer only draws the step records that :mod:`logic` emits; it never
decides anything about fences itself.
"""
