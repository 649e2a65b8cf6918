"""Templeforge's pure logic: shapes, pieces, tilings and their proofs.

Imports numpy and OR-Tools only; nothing here prints, draws or writes files.
"""
