"""Hypothesis profiles. The default run (and so CI) draws the same examples every time
(``derandomize``): a test that passed once passes again on the same code, and a failure is
reproduced by running it again. ``HYPOTHESIS_PROFILE=explore`` draws fresh random examples
on every run, to look for new failures; pin what it finds with ``@example``."""

import os

from hypothesis import settings

settings.register_profile("default", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
