"""No process-global cache of the site survives a test (issue 33 §6): every functools cache
a module of games/, desks/ or lab/ keeps is listed in tests/conftest.py's PROCESS_CACHES,
which an autouse fixture empties before and after each test."""

from __future__ import annotations

import importlib
import pkgutil

from games.text import rulebook
from tests.conftest import PROCESS_CACHES, ROOT

APPS = ("games", "desks", "lab")


def module_caches() -> dict[str, object]:
    """Every module-level function of the apps wrapped by functools.cache / lru_cache."""
    found = {}
    for app in APPS:
        for info in pkgutil.walk_packages([str(ROOT / app)], prefix=f"{app}."):
            if ".migrations" in info.name:
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if hasattr(value, "cache_clear") and value.__module__ == info.name:
                    found[f"{info.name}.{name}"] = value
    return found


def test_every_cache_of_the_site_is_emptied_around_each_test():
    caches = module_caches()
    assert caches  # the walk does see them
    unlisted = [name for name, cached in caches.items() if cached not in PROCESS_CACHES]
    assert unlisted == []


FILLED: list[int] = []  # part 1 ran in this process


def test_a_cache_filled_by_one_test_is_empty_in_the_next_part_1():
    """Filled here, and found empty by the next test (a file's tests run in order, a
    test's parts in one process when the run is split over several: tests/parallel.py)."""
    rulebook.rulebooks()
    assert rulebook.rulebooks.cache_info().currsize == 1
    FILLED.append(rulebook.rulebooks.cache_info().currsize)


def test_a_cache_filled_by_one_test_is_empty_in_the_next_part_2():
    assert FILLED == [1]  # part 1 filled it, here
    assert rulebook.rulebooks.cache_info().currsize == 0
