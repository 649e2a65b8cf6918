"""The compiled kernels (numba, ``cache=True``) call none of numba's generated sorts.

Why: numba names the functions it generates (its sorts among them: ``np.sort``,
``np.argsort``, ``ndarray.sort``, ``sorted``, and what is built on them) with a counter
that runs per process, and its sorts are made by one factory for every kind of sort, so
two processes can give the same name and the same argument types to an argsort and a plain
sort. A kernel cached by one process (an xdist worker, a build worker) and a kernel cached
by another, loaded together later, then share one of the two bodies: a wrong answer or a
crash, depending on which process cached what first ("Compile error when loading code cached
by a fork", https://github.com/numba/numba/issues/10486). Seen here: Shifting Stones' compiled games and the region
counter's argsort, cached by two test workers, gave wrong moves, an empty region and a
segmentation fault when one process loaded both. Our kernels sort with plain loops, or hand
their results to numpy outside the kernel.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("solver", "generators", "cad", "templeforge", "bench")
#: Calls that compile to one of numba's generated sorts (or a search or selection built on them).
SORTS = {"sort", "argsort", "sorted", "searchsorted", "unique", "median", "percentile", "quantile",
         "partition", "argpartition", "lexsort", "nanmedian", "nanpercentile", "nanquantile"}


def _compiled(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "vectorize", "guvectorize", "generated_jit"):
            return True
    return False


def _kernels() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            found += [(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", node) for node in ast.walk(tree)
                      if isinstance(node, ast.FunctionDef) and _compiled(node)]
    return found


def test_there_are_kernels_to_check() -> None:
    names = {where.split()[-1] for where, _ in _kernels()}
    assert {"_unions", "_play", "_measure"} <= names  # the scan finds the kernels (a region, a game, a payment)


def test_no_kernel_calls_a_numba_sort() -> None:
    bad = []
    for where, fn in _kernels():
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in SORTS:
                    bad.append(f"{where}: calls {name} (line {node.lineno})")
    assert not bad, "numba sorts in cached kernels collide across processes (see this file's docstring):\n" + \
        "\n".join(bad)


def test_the_kernels_own_sorts_sort_as_numpy_does() -> None:
    import numpy as np

    from generators.shifting_stones import fast

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 40):
        a = rng.integers(0, 9, 50)
        want = a.copy()
        want[:n] = np.sort(want[:n])
        fast._sort_ints(a, n)
        assert a.tolist() == want.tolist()
        values = rng.integers(0, 4, 50).astype(np.float64)  # ties: kept in index order
        order = np.zeros(50, np.int64)
        fast._order_by_value(values, n, order)
        assert order[:n].tolist() == np.argsort(-values[:n], kind="stable").tolist()
