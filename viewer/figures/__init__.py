"""The viewer's figures: the scene (a figure laid out once as plain primitives) and the
back ends that only translate it (pygame PNG and GIF, SVG, LaTeX, the report page), the
frame, the export table, glyphs, pieces and text fitting.  Imports the model, never the
window."""
