"""gunicorn's configuration (``--config python:gm.gunicorn_conf``): access log on stdout,
with the players' link tokens redacted (issue 9, #4), and each worker's start-up objects
kept out of the cyclic garbage collector's way."""

from __future__ import annotations

import gc
from typing import Any

accesslog = "-"
logger_class = "gm.logs.RedactingGunicornLogger"


def post_worker_init(worker: Any) -> None:
    """Once a worker has loaded the site (and its URLs), freeze what exists: a full
    collection then walks only what requests made, not the modules, settings and URLconf
    that live as long as the worker (a flooded phase page paid ~30 ms for one, now and
    then; a vote, a pause)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view module now)
    gc.collect()
    gc.freeze()
