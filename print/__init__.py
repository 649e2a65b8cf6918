"""Paper output from decks: card faces, sheet imposition and PDF via ReportLab.

This package's name shadows the builtin when imported bare: always write
``from print import sheets``, never ``import print``.
"""
