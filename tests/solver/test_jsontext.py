"""JSON text: parses back to the same value, short lists stay on one line."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from solver.jsontext import dumps

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=20,
)


@given(values)
def test_round_trips(value: object) -> None:
    assert json.loads(dumps(value)) == value


def test_cells_read_as_one_line() -> None:
    text = dumps({"piece": "L3", "cells": [[0, 0], [0, 1], [1, 0]]})
    assert '"cells": [[0, 0], [0, 1], [1, 0]]' in text
    assert text.splitlines()[0] == "{"
