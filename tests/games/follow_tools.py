"""Helpers of the followed-thread tests (issue 32): serve a thread of the test forum,
times back from now, the votes stored."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from werkzeug import Request, Response

from games.models import Phase, Submission
from tests.games.forum_server import Thread


def serve(forum, thread: Thread, path: str = "/viewtopic.php") -> None:
    """Serve ``thread`` page by page at ``path`` (``?page=N``), as it is at each request."""

    def handler(request: Request) -> Response:
        number = int(request.args.get("page", "1"))
        return Response(thread.page(number, path), content_type="text/html; charset=utf-8")

    forum.expect_request(path).respond_with_handler(handler)


def ago(minutes: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=minutes)


def standing(phase: Phase) -> dict[str, str]:
    """Each voter's last vote stored."""
    votes = {}
    for sub in Submission.objects.filter(phase=phase, kind="vote").order_by("at", "pk"):
        votes[sub.player.name] = sub.target.name if sub.target else None
    return votes
