"""``generate puzzle-temple --from-corpus``: decks drawn from a mined corpus, proved as any
other, and a corpus someone edited refused with the row's lock named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generators import GAMES
from generators.common import mine
from generators.common.errors import RequestError
from generators.common.options import resolve

# a corpus is mined first (about 6 s): the whole file runs with -m slow
pytestmark = pytest.mark.slow

GAME = GAMES["puzzle-temple"]
RULES = GAME.load_rules()
MINER = GAME.load_miner()


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus") / "c.parquet"
    plan = MINER.plan(resolve(MINER.OPTIONS, {"blocks_per_face": "3", "box": "5x3"}).values)
    mine.run(GAME.name, MINER, plan, out, workers=2)
    return out


def spec(**given: Any) -> Any:
    values = resolve(RULES.OPTIONS, given).values
    return RULES.spec(values, frozenset(given))


def edited(source: Path, target: Path, column: str, rows: list[int], value: Any) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pq.read_table(source)
    values = t.column(column).to_pylist()
    for row in rows:
        values[row] = value(values[row])
    field = t.schema.field(column)
    t = t.set_column(t.column_names.index(column), field, pa.array(values, field.type))
    pq.write_table(t, target)  # the schema keeps the corpus's metadata
    return target


def test_a_deck_from_a_corpus_is_proved_and_drawn_from_it(mined: Path) -> None:
    import pyarrow.parquet as pq

    s = spec(from_corpus=str(mined), cards="6", seed="3", workers="2")
    assert s.block_set == "ubongo12" and s.blocks_per_face == (3, 3) and s.design_budget == 0
    deck = RULES.generate(s)
    check = RULES.verify(deck)
    assert check.ok, check.problems
    rows = pq.read_table(mined).to_pylist()
    known = {(r["cells"], tuple(r["blocks"])) for r in rows}
    for card in deck.cards:
        for face in card.faces:
            assert (card.lock.size, tuple(face.blocks)) in known
    assert RULES.generate(spec(from_corpus=str(mined), cards="6", seed="3", workers="1")).dumps() == deck.dumps()
    assert RULES.generate(spec(from_corpus=str(mined), cards="6", seed="4")).dumps() != deck.dumps()


@pytest.mark.parametrize("column, value, message", [
    ("solutions", lambda n: n + 98, "solution\\(s\\), the corpus says 9[89]"),
    ("difficulty", lambda bits: round(bits + 0.25, 2), "bits, the corpus says"),
])
def test_an_edited_corpus_is_refused_naming_the_lock(mined: Path, tmp_path: Path, column: str, value: Any,
                                                     message: str) -> None:
    import pyarrow.parquet as pq

    rows = list(range(pq.read_table(mined).num_rows))  # every row: whichever lock is drawn first
    target = edited(mined, tmp_path / "edited.parquet", column, rows, value)
    with pytest.raises(RequestError, match=message):
        RULES.generate(spec(from_corpus=str(target), cards="36", seed="1", workers="1"))


def test_a_corpus_of_other_blocks_or_flips_is_refused(mined: Path) -> None:
    with pytest.raises(RequestError, match="block\\(s\\) .* are not in pentominoes; use --blocks ubongo12"):
        spec(from_corpus=str(mined), blocks="pentominoes")
    with pytest.raises(RequestError, match="mined with flips on; the request has them off"):
        spec(from_corpus=str(mined), flips="false")
    with pytest.raises(RequestError, match="from-corpus: .*no such corpus file"):
        spec(from_corpus=str(mined.with_name("none.parquet")))


def test_repeated_rows_are_read_a_batch_at_a_time_and_kept_once(mined: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus whose rows were repeated (a file of 818 kB with 20 M rows grew the process
    to 4.7 GB) reads as the corpus itself: batches of rows, each lock's block sets once. A
    row that says something else of a block set an earlier row gave is named."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from generators.common import corpus
    from generators.puzzle_temple.mined import read_corpus

    monkeypatch.setattr(corpus, "BATCH_ROWS", 100)  # many batches even for a small file
    t = pq.read_table(mined)
    repeated = tmp_path / "repeated.parquet"
    pq.write_table(pa.concat_tables([t] * 5), repeated, row_group_size=333)
    once, five = read_corpus(str(mined), "from-corpus"), read_corpus(str(repeated), "from-corpus")
    assert five.locks == once.locks and len(once.locks) > 10
    n = t.num_rows
    bad = edited(mined, tmp_path / "bad.parquet", "solutions", [n - 1], lambda v: v + 1)
    doubled = tmp_path / "doubled.parquet"
    pq.write_table(pa.concat_tables([t, pq.read_table(bad)]), doubled)
    with pytest.raises(RequestError, match=f"row {2 * n} gives the lock .* an earlier row"):
        read_corpus(str(doubled), "from-corpus")
