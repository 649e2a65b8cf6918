"""``templeforge mine`` and ``--cluster`` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generators import GAMES
from templeforge.cli import main

SMALL = ["--blocks-per-face", "2", "--box", "4x3"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="templeforge")
    return result.exit_code, result.stdout, result.stderr


def test_each_game_with_a_miner_is_a_subcommand_whose_help_lists_its_columns() -> None:
    code, out, _ = run("mine", "--help")
    assert code == 0
    for name, game in GAMES.items():
        if game.mine:
            assert name in out
            code, help_text, _ = run("mine", name, "--help")
            assert code == 0 and "Columns, in order:" in help_text and "--cluster" in help_text
            for column in game.load_miner().COLUMNS:
                assert f"{column.name} ({column.type})" in " ".join(help_text.split())


def test_mine_writes_then_finds_it_complete(tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    code, said, err = run("mine", "puzzle-temple", *SMALL, "--out", str(out))
    assert code == 0, err
    assert said.startswith(f"wrote {out}: ") and "from 66 chunks" in said and out.is_file()
    code, said, _ = run("mine", "puzzle-temple", *SMALL, "--out", str(out))
    assert code == 0 and "already complete for this request" in said


@pytest.mark.parametrize("args, message", [
    (["mine", "puzzle-temple", "--box", "10x10"], "--box: the region search takes boxes"),
    (["mine", "puzzle-temple", "--blocks", "nope"], "--blocks: unknown block set 'nope'"),
    (["mine", "puzzle-temple", "--cluster", "yarn"], "--cluster: expected local, dask or a Dask scheduler"),
    (["generate", "puzzle-temple", "--cluster", "spark://x"], "--cluster: expected local, dask"),
    (["verify", "x.json", "--cluster", "x"], ""),
])
def test_bad_requests_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.slow
def test_generate_and_verify_on_dask_give_the_local_bytes(tmp_path: Path) -> None:
    local, spread = tmp_path / "local.json", tmp_path / "dask.json"
    args = ["generate", "puzzle-temple", "--cards", "4", "--seed", "5", "--workers", "2"]
    assert run(*args, "--out", str(local))[0] == 0
    code, _, err = run(*args, "--out", str(spread), "--cluster", "dask")
    assert code == 0, err
    assert spread.read_bytes() == local.read_bytes()
    code, out, err = run("verify", str(spread), "--cluster", "dask", "--workers", "2")
    assert code == 0 and ": OK," in out, err


def test_the_progress_bar_shows_chunks_rows_rate_and_time_left(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from templeforge.commands import mine

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    clock = iter([100.0, 110.0, 120.0])
    monkeypatch.setattr(mine.time, "perf_counter", lambda: next(clock))
    bar = mine.Bar()
    bar(10, 100, 1234, 0)  # resumed: 10 chunks kept, none mined yet
    bar(30, 100, 5678, 20)  # 20 mined in 20 s: 1 a second, 70 left
    bar.end()
    err = capsys.readouterr().err
    assert "[##......................] 10/100 chunks, 1,234 rows, 0.00 chunks/s, ETA --:--" in err
    assert "[#######.................] 30/100 chunks, 5,678 rows, 1.00 chunks/s, ETA 1:10" in err
    assert err.endswith("\n")
