"""A study's chunks over a pool of processes (``manage.py simulate --jobs``, the bench).

The parent warms everything a chunk reads once per ruleset (the ruleset, the abilities
that kill, the model's profile, the simulator's tables) and then forks its workers, which
inherit it all: a worker starts playing at once. A task is a chunk's index (the study
itself is inherited too); a result is the chunk's :class:`~roles.balance.study.Aggregate`,
a few hundred counters, never a game. The figures do not depend on the number of
processes nor on the order the chunks come back in.
"""

from __future__ import annotations

import multiprocessing

from roles.balance.study import Aggregate, Study, merge_all, run_chunk, warm

_study: Study | None = None  # the study being played, inherited by the forked workers


def _play(index: int) -> Aggregate:
    assert _study is not None
    return run_chunk(_study, index)


def run_parallel(study: Study, jobs: int) -> Aggregate:
    """Every chunk of ``study`` over ``jobs`` processes (in this one when ``jobs`` is 1)."""
    global _study
    warm(study)
    jobs = min(jobs, study.chunks)
    if jobs <= 1:
        return merge_all(run_chunk(study, i) for i in range(study.chunks))
    _study = study
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return merge_all(pool.imap_unordered(_play, range(study.chunks)))
    finally:
        _study = None
