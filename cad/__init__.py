"""3D models from decks: CadQuery solids, STL and 3MF export (AMS and NO-AMS), plates.

Reads decks made by ``generators``; nothing in ``solver`` or ``generators`` imports it.
"""
