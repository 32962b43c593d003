"""The viewer's figures.  What one picture shows is a :class:`~viewer.figures.frame.Frame`;
the figure is laid out once (:mod:`viewer.figures.figure`: banner, board, text and legend
as placed parts, the board's primitives from :mod:`viewer.figures.scene`, the legend's
from :mod:`viewer.figures.legend`, the squares' textures as geometry from
:mod:`viewer.figures.textures`, text measured through :class:`viewer.figures.textfit.Metrics`),
and back ends only translate it: pygame (:mod:`viewer.figures.raster`, with the
:class:`~viewer.figures.render.Painter` the window draws with: PNG and GIF), SVG
(:mod:`viewer.figures.svg`), TikZ (:mod:`viewer.figures.tikz`) and LaTeX's ``chessboard``
(:mod:`viewer.figures.latex`), one row each of :data:`viewer.figures.export.FORMATS`; the
report page (:mod:`viewer.figures.report`) inlines the SVG's boards.  Imports the model,
never the window."""
