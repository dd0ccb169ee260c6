"""What the GM sees of a followed thread on the phase page (issue 32): its state and why
it fails, the time of the last read, the read log, the posts needing his decision (the
paste preview's), the edited posts with both versions, the activity table (posts per
player per day against the game's minimum) and the prod post ("sollecito"). Reads only;
the preview it shows is games/services/follow.py's, hence a service module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import rebuild
from games.forum import NameMatcher
from games.models import FollowedThread, Game, Phase, Player, ThreadPost, ThreadRead
from games.selectors.board import phase_board
from games.selectors.window import past_deadline
from games.services.follow import follow_reason, followed_preview
from games.services.follow_http import FORMS
from games.services.topic_preview import ImportPreview
from games.services.topic_settings import topic_settings
from games.text.names import forum_formats

READS_SHOWN = 12
FORM_LABELS = {  # the readable forms of games.services.follow_http.FORMS
    "page": gettext_lazy("la pagina del topic così com'è"),
    "phpbb_print": gettext_lazy("phpBB: la vista di stampa"),
    "discourse_raw": gettext_lazy("Discourse: il testo /raw/"),
}


@dataclass
class Edited:
    """A post edited after it was read, or after the deadline: both versions when seen."""

    post: ThreadPost
    before: list[str]  # empty: the site first read it already edited
    late: bool  # edited at or after the day's deadline


@dataclass
class Activity:
    """Posts per living player per day of the thread, and who is under the minimum today."""

    days: list[Phase]
    rows: list[tuple[Player, list[int]]]
    minimum: int
    under: list[Player] = field(default_factory=list)  # today, under the minimum

    def prod(self, game: Game, fmt: str) -> str:
        """The ready-to-paste prod post, in the game's language: who is under the
        minimum, and nothing about roles. ``fmt``: bbcode or markdown."""
        if not self.under:
            return ""
        names = ", ".join(p.name for p in self.under)
        with translation.override(game.language):
            title = _("Sollecito di attività")
            body = _("Ricordo che ogni giocatore deve scrivere almeno %(n)d messaggi al giorno "
                     "nel topic. Oggi sono ancora sotto il minimo: %(names)s.") % {
                "n": self.minimum, "names": names}  # fmt: skip
        heading = f"[b]{title}[/b]" if fmt == "bbcode" else f"**{title}**"
        return f"{heading}\n{body}"


@dataclass
class FollowDesk:
    thread: FollowedThread | None
    reason: str = ""
    reads: list[ThreadRead] = field(default_factory=list)
    preview: ImportPreview | None = None
    edited: list[Edited] = field(default_factory=list)
    activity: Activity | None = None


def _matcher(game: Game, players: list[Player]) -> NameMatcher:
    settings = topic_settings(game)
    aliases = {**{old: p.seat for p in players for old in p.previous_names}, **settings.aliases}
    return NameMatcher({p.seat: p.name for p in players}, aliases)


def activity(game: Game, thread: FollowedThread, phase: Phase) -> Activity:
    """Posts per living player in each day's window (opened to deadline) so far."""
    players = list(game.players.all())
    by_seat = {p.seat: p for p in players}
    days = list(game.phases.filter(label__startswith="D", index__lte=phase.index)
                .order_by("index"))  # fmt: skip
    names = _matcher(game, players)
    counts: dict[int, list[int]] = {p.seat: [0] * len(days) for p in players}
    posts = ThreadPost.objects.filter(thread=thread).values_list("author", "at")
    for author, at in posts:
        match = names.match(author)
        if not match.sure:
            continue
        for index, day in enumerate(days):
            if day.opened_at <= at < day.closes_at:
                counts[match.key][index] += 1
    state = rebuild(game).state
    living = [p for p in players if state.by_name[p.name].alive]
    minimum = topic_settings(game).min_posts_per_day
    rows = [(by_seat[p.seat], counts[p.seat]) for p in living]
    under = [p for p, c in rows if minimum and days and days[-1] == phase and c[-1] < minimum]
    return Activity(days, rows, minimum, under)


def follow_desk(game: Game, phase: Phase | None) -> FollowDesk:
    """The followed thread's panel for ``phase`` (a day; None: no day to count)."""
    thread = FollowedThread.objects.filter(game=game).first()
    if thread is None:
        return FollowDesk(None)
    desk = FollowDesk(
        thread, reason=follow_reason(thread.reason, thread.detail) if thread.reason else ""
    )
    desk.reads = list(ThreadRead.objects.filter(thread=thread).order_by("-at", "-pk")[:READS_SHOWN])
    for read in desk.reads:
        read.note_text = follow_reason(read.note) if read.note else ""
    if phase is None or phase.is_night:
        return desk
    desk.preview = followed_preview(thread=thread, phase=phase)
    edited = ThreadPost.objects.filter(thread=thread, at__gte=phase.opened_at).exclude(
        previous_lines=[], edited_at__lt=phase.closes_at
    ).exclude(previous_lines=[], edited_at__isnull=True).order_by("at")  # fmt: skip
    desk.edited = [Edited(p, list(p.previous_lines),
                          p.edited_at is not None and p.edited_at >= phase.closes_at)
                   for p in edited]  # fmt: skip
    desk.activity = activity(game, thread, phase)
    return desk


def panel_context(game: Game, phase: Phase | None) -> dict[str, Any]:
    """What the followed thread's panel shows (the phase page's and its own page's)."""
    passed = phase is not None and past_deadline(phase, timezone.now())
    desk = follow_desk(game, phase)
    prods = {f"prod_{f}": desk.activity.prod(game, f) if desk.activity else ""
             for f in ("bbcode", "markdown")}  # fmt: skip
    count = []  # the live count: each candidate and the voters whose vote stands
    if desk.thread is not None and phase is not None and not phase.is_night:
        count = [(line.target.name, [b.voter for b in line.votes if not b.struck])
                 for line in phase_board(game, phase).tally]  # fmt: skip
    return {"game": game, "phase": phase, "desk": desk, **prods, "count": count,
            "formats": forum_formats(),
            "forms": [(f, FORM_LABELS[f]) for f in FORMS], "past_deadline": passed}  # fmt: skip
