"""Benchmark: the memory ``generate puzzle-temple --from-corpus`` takes on a corpus of many
repeated rows, run by hand::

    .venv/bin/python bench/corpus.py [--rows 20000000]

Mines a small Puzzle Temple corpus (3 blocks a face, a 5x3 box), writes a second file
whose rows are the first's repeated until there are ``--rows`` of them (Parquet's dictionary
encoding keeps it small: a file of 818 kB with 20 M rows once grew the command to 4.7 GB),
then runs ``templeforge generate puzzle-temple --from-corpus`` on each and prints the peak
memory of each command (its resident set at most), the ratio of the two and the target
(under 500 MB for the large file).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_MB = 500


def peak_mb(args: list[str]) -> tuple[float, float]:
    """Run ``templeforge ARGS`` in a child and return its peak resident memory (MB) and time."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    run = subprocess.run([sys.executable, "-m", "templeforge", *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"templeforge {' '.join(args)} failed: {run.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest of any child so far: run the small one first
    return max(after, before) / 1024, time.perf_counter() - started


def main() -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000_000, help="rows of the repeated corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="templeforge-bench-") as tmp:
        small = Path(tmp) / "small.parquet"
        subprocess.run([sys.executable, "-m", "templeforge", "mine", "puzzle-temple", "--blocks-per-face", "3",
                        "--box", "5x3", "--out", str(small)], check=True, capture_output=True)
        t = pq.read_table(small)
        big = Path(tmp) / "repeated.parquet"
        copies = -(-args.rows // t.num_rows)
        pq.write_table(pa.concat_tables([t] * copies).slice(0, args.rows), big)
        common = ["generate", "puzzle-temple", "--cards", "2", "--seed", "1", "--workers", "1"]
        small_mb, small_s = peak_mb([*common, "--from-corpus", str(small), "--out", str(Path(tmp) / "a.json")])
        big_mb, big_s = peak_mb([*common, "--from-corpus", str(big), "--out", str(Path(tmp) / "b.json")])
        same = (Path(tmp) / "a.json").read_bytes() == (Path(tmp) / "b.json").read_bytes()
        print(f"corpus: {t.num_rows:,} rows ({small.stat().st_size / 1024:.0f} kB); repeated: {args.rows:,} rows "
              f"({big.stat().st_size / 1024:.0f} kB)")
        print("| figure | value | peer | ratio | target |")
        print("|---|---|---|---|---|")
        print(f"| peak memory of generate --from-corpus, {args.rows:,} repeated rows | {big_mb:.0f} MB "
              f"({big_s:.1f} s) | the corpus itself {small_mb:.0f} MB ({small_s:.1f} s) | {big_mb / small_mb:.2f} "
              f"| < {TARGET_MB} MB |")
        print(f"the two decks are {'the same bytes' if same else 'DIFFERENT'}")
        return 0 if big_mb < TARGET_MB and same else 1


if __name__ == "__main__":
    sys.exit(main())
