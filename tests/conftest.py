"""Hypothesis profiles and the decks the tests share.

The default run (and so CI) draws the same examples every time (``derandomize``), with no
per-example deadline (a test must pass on a machine busy with other work): a test
that passed once passes again on the same code, and a failure is reproduced by running it
again. ``HYPOTHESIS_PROFILE=explore`` draws fresh random examples on every run, to look for
new failures; pin what it finds with ``@example``.

Small decks are read from ``tests/data/`` (``tests/test_samples.py`` holds each to the
verifier, and under ``-m slow`` to the generator); the default decks, which take seconds to
make, are generated once per run for the tests about them (all marked slow).
"""

import os

import pytest
from hypothesis import settings

from generators.puzzle_temple.deck import Deck
from generators.puzzle_temple.generate import Spec, generate
from solver.pieces import preset
from tests.data import sample

# deadline=None: no example may fail for taking long; a busy machine is slow, not wrong
# (timings belong in bench/)
settings.register_profile("default", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("explore", derandomize=False, print_blob=True, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _the_systems_slicer_bundles_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """PrusaSlicer's vendor bundles as installed with it (Debian's package in CI), never a
    newer copy in the user's own PrusaSlicer folder nor one a variable names: the printers'
    presets a test meets are the same on every machine with the same package."""
    from cad.common import vendor

    everywhere = vendor.bundle_paths
    monkeypatch.setattr(vendor, "bundle_paths",
                        lambda name: [p for p in everywhere(name) if p.is_relative_to("/usr")])


@pytest.fixture(autouse=True)
def _no_bambu_presets(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Bambu Studio or OrcaSlicer system presets (no package installs them): a user's own
    copy never changes what a test writes. ``tests/cad/test_vendor_json.py`` lays out its own."""
    from cad.common import vendor_json

    monkeypatch.setattr(vendor_json, "profile_roots", lambda: [])


@pytest.fixture()
def own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No PrusaSlicer vendor bundle at all: every printer gets Templeforge's own settings."""
    from cad.common import vendor

    monkeypatch.setattr(vendor, "bundle_paths", lambda name: [])


@pytest.fixture(scope="session")
def default_deck() -> Deck:
    """The default request (36 cards, 3 ubongo12 blocks per face, thirds, seed 0), made once
    per run: it takes seconds."""
    return generate(Spec(preset("ubongo12"), seed=0, workers=2))


@pytest.fixture(scope="session")
def stones_deck():
    """The default Shifting Stones deck (72 cards, the published mix and tiles, seed 0), made
    once per run."""
    from generators.shifting_stones.generate import generate as generate_stones
    from generators.shifting_stones.spec import Spec as StonesSpec

    return generate_stones(StonesSpec(workers=2))


@pytest.fixture(scope="session")
def small_stones_deck():
    """A 12-card Shifting Stones deck (seed 5): quick to print, model and verify."""
    return sample("shifting-stones-12-seed-5.json")


@pytest.fixture
def toy():  # type: ignore[no-untyped-def]
    """Toy Tally (``tests/toygame/``) registered for one test."""
    from generators import register, unregister
    from tests.toygame import GAME

    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.name)
