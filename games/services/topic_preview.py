"""Reading a page of the game's forum thread (issue 12 §1, issue 28): what saving it would
do, post by post, with the doubtful lines the GM settles. Nothing here writes; the save is
games/services/topic_votes.py."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Rebuilt, RuleViolation, Vote, rebuild
from games.forum import (
    Clock,
    ForumPost,
    NameMatch,
    NameMatcher,
    Parser,
    ThreadError,
    VoteLine,
    VoteSyntax,
    fold,
    parse_thread,
)
from games.forum.dates import approximate
from games.forum.names import AMBIGUOUS, APPROX, UNKNOWN
from games.models import Phase, Player, Submission
from games.selectors.window import (
    BEFORE,
    FUTURE,
    forum_time_place,
    local_stamp,
    place_note,
)
from games.selectors.window import LATE as LATE_POST
from games.services.topic_settings import topic_settings
from games.text.words import refusal

NEW, CHANGED, WITHDRAWN = "new", "changed", "withdrawn"  # what saving stores
SAME, NOTHING, ALREADY = "same", "nothing", "already"  # nothing to store
OUTSIDE, REFUSED, ASK = "outside", "refused", "ask"  # not stored unless the GM settles it
EDITED_LATE = "edited_late"  # edited at or after the deadline: the previous vote stands
LATE = "late"  # at or after the deadline: listed apart, never stored (issue 28 class 6)
STORED = (NEW, CHANGED, WITHDRAWN)
WITHDRAW = "-"  # a decision: the line is a withdrawal


@dataclass
class Row:
    """One post that says something about a vote, as the preview shows it."""

    key: str
    post: ForumPost
    said: VoteLine
    at: dt.datetime | None
    voter: Player | None = None
    voter_match: NameMatch | None = None
    target: Player | None = None
    target_match: NameMatch | None = None
    withdraw: bool = False
    status: str = ASK
    note: str = ""
    before: Player | None = None  # the target this vote replaces
    edited_late: bool = False  # edited at or after the deadline (counted or not)
    maybe_quoted: bool = False  # read inside a copied quote whose end the page hides
    mention: str = ""  # no vote read, but the post mentions one (a message id of games.forum)
    voter_choices: list[Player] = field(default_factory=list)
    target_choices: list[Player] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return self.status in STORED


@dataclass
class ImportPreview:
    phase: Phase
    fmt: str  # the parser's label ("" when nothing was recognised)
    posts: int = 0
    rows: list[Row] = field(default_factory=list)
    gm_posts: int = 0
    chatter: int = 0  # posts with no vote in them
    # The instant relative forum times ("12 minuti fa") were read against: the save of
    # this preview reads them against it again, so it stores what the preview showed.
    read_at: dt.datetime | None = None

    def count(self, *statuses: str) -> int:
        return sum(1 for r in self.rows if r.status in statuses)

    @property
    def to_store(self) -> list[Row]:
        return [r for r in self.rows if r.stored]

    @property
    def problems(self) -> list[Row]:
        return [r for r in self.rows if r.status in (ASK, REFUSED, OUTSIDE)]

    @property
    def in_time(self) -> list[Row]:
        return [r for r in self.rows if r.status != LATE]

    @property
    def late(self) -> list[Row]:
        """Posts at or after the deadline (by their forum time): shown apart, never
        stored as in time (issue 28 class 6)."""
        return [r for r in self.rows if r.status == LATE]


def _clock(phase: Phase, now: dt.datetime, known: set[str]) -> Clock:
    """Relative dates ("Oggi", "Ieri alle 21:47", "3 ore fa") resolve against ``now``,
    the moment the page was copied (the forum wrote them then), whatever the phase's
    date; the known names help find authors."""
    zone = ZoneInfo(phase.game.time_zone)
    return Clock.copied_at(now, zone, frozenset(fold(name).strip() for name in known))


THREAD_ERRORS = {  # the message ids of games.forum.ThreadError
    "thread.too_long": gettext_lazy(
        "Pagina troppo lunga (più di %(limit)d caratteri): incolla una pagina del topic "
        "alla volta."),
    "thread.too_many_posts": gettext_lazy(
        "Pagina salvata con troppi messaggi (più di %(limit)d): salva una pagina del topic "
        "alla volta."),
    "thread.too_deep": gettext_lazy(
        "Pagina salvata con elementi annidati troppo a fondo (più di %(limit)d): non è "
        "una pagina del topic."),
    "thread.too_many_tags": gettext_lazy(
        "Pagina salvata troppo complessa (più di %(limit)d elementi HTML): salva una "
        "pagina del topic alla volta."),
}  # fmt: skip
MENTIONS = {  # the message ids of VoteSyntax.mention
    "mention.vote": gettext_lazy("non contato: parla di un voto, ma non nella forma del voto"),
    "mention.withdraw": gettext_lazy(
        "non contato: parla di ritirare il voto, ma non nella forma del ritiro"),
    "mention.bold_name": gettext_lazy("non contato: scrive in grassetto il nome di un giocatore"),
}  # fmt: skip


def _key(post: ForumPost, said: VoteLine, at: dt.datetime | None) -> str:
    stamp = at.strftime("%Y%m%d%H%M") if at else post.when_text
    raw = "|".join((fold(post.author).strip(), stamp, fold(said.text).strip()))
    return hashlib.sha1(raw.encode()).hexdigest()


def topic_import_preview(
    *,
    phase: Phase,
    text: str,
    fmt: str = "",
    decisions: Mapping[str, str] | None = None,
    now: dt.datetime | None = None,
    gm_username: str = "",
    parsed: tuple[Parser | None, list[ForumPost]] | None = None,
) -> ImportPreview:
    """What saving ``text`` would do, post by post (nothing is stored). ``decisions``:
    the GM's answers for doubtful lines, ``v<key>`` (the voter's seat) and ``t<key>``
    (the target's seat, or "-" for a withdrawal). ``parsed``: the page already read by
    ``topic_parse`` with the same arguments (a save reads it before taking the lock).
    ValidationError (in Italian) when the page is too big to read."""
    game = phase.game
    now = now or timezone.now()
    decisions = decisions or {}
    settings = topic_settings(game)
    built = rebuild(game)
    players = {p.seat: p for p in built.players}
    living = [players[p.seat] for p in built.players if built.state.by_name[p.name].alive]
    aliases = {**{old: p.seat for p in players.values() for old in p.previous_names},
               **settings.aliases}  # fmt: skip
    names = NameMatcher({seat: p.name for seat, p in players.items()}, aliases)
    gm = {fold(n).strip() for n in [*settings.gm_names, gm_username] if n}
    known = {p.name for p in players.values()} | set(aliases) | gm
    parser, posts = parsed or _parse(text, _clock(phase, now, known), fmt)
    preview = ImportPreview(phase, parser.label if parser else "", len(posts), read_at=now)
    syntax = VoteSyntax(settings.vote_lines, settings.withdraw_lines,
                        [*(p.name for p in players.values()), *aliases])  # fmt: skip
    for post in posts:
        if fold(post.author).strip() in gm:
            preview.gm_posts += 1
            continue
        said = syntax.read_post(post.lines)
        quoted = False
        if said is None and post.unsure:  # a vote perhaps inside a quote: the GM says
            said = syntax.read_post(post.unsure)
            if said is not None:
                said, quoted = VoteLine(said.text, unreadable=True), True
        mention = ""
        if said is None and (found := syntax.mention(post.lines)) is not None:
            mention, line = found  # listed, not counted: the GM reads it
            said = VoteLine(line, unreadable=True)
        if said is None:
            preview.chatter += 1
            continue
        row = Row(_key(post, said, post.at), post, said, post.at, withdraw=said.withdraw,
                  maybe_quoted=quoted, mention=mention)  # fmt: skip
        _identify(row, names, players, living, decisions)
        preview.rows.append(row)
    _classify(preview, phase, built, now, edited_late_counts=settings.edited_late_counts)
    return preview


def _parse(text: str, clock: Clock, fmt: str) -> tuple[Parser | None, list[ForumPost]]:
    try:
        return parse_thread(text, clock, fmt)
    except ThreadError as exc:
        raise ValidationError(str(THREAD_ERRORS[exc.code]) % {"limit": exc.limit}) from exc


def topic_parse(
    *, phase: Phase, text: str, fmt: str, now: dt.datetime, gm_username: str
) -> tuple[Parser | None, list[ForumPost]]:
    """The page read as ``topic_import_preview`` reads it (no lock, no write)."""
    game = phase.game
    settings = topic_settings(game)
    players = list(game.players.all())
    aliases = {*(old for p in players for old in p.previous_names), *settings.aliases}
    gm = {fold(n).strip() for n in [*settings.gm_names, gm_username] if n}
    known = {p.name for p in players} | aliases | gm
    return _parse(text, _clock(phase, now, known), fmt)


def _choices(match: NameMatch | None, players: dict[int, Player], living: list[Player]) -> list:
    first = [players[k] for k in (match.candidates if match else ())]
    return first + [p for p in living if p not in first]


def _identify(
    row: Row,
    names: NameMatcher,
    players: dict[int, Player],
    living: list[Player],
    decisions: Mapping[str, str],
) -> None:
    """Who wrote it and for whom: sure names are taken, the rest wait for the GM."""
    row.voter_match = names.match(row.post.author)
    if row.voter_match.sure:
        row.voter = players[row.voter_match.key]
    else:
        row.voter_choices = _choices(row.voter_match, players, living)
    if not row.said.withdraw and not row.said.unreadable:
        row.target_match = names.match(row.said.name)
        if row.target_match.sure:
            row.target = players[row.target_match.key]
    if row.said.unreadable or (row.target_match and not row.target_match.sure):
        row.target_choices = _choices(row.target_match, players, living)
    chosen_voter = decisions.get(f"v{row.key[:12]}", "")
    chosen_target = decisions.get(f"t{row.key[:12]}", "")
    if row.voter is None and chosen_voter.isdigit() and int(chosen_voter) in players:
        row.voter = players[int(chosen_voter)]
    if row.target_choices and chosen_target == WITHDRAW:
        row.withdraw, row.target = True, None
    elif row.target_choices and chosen_target.isdigit() and int(chosen_target) in players:
        row.target = players[int(chosen_target)]


def _classify(
    preview: ImportPreview,
    phase: Phase,
    built: Rebuilt,
    now: dt.datetime,
    *,
    edited_late_counts: bool = False,
) -> None:
    """Each row's status, walking the phase's votes and the new ones in time order.
    ``edited_late_counts``: the game counts a vote edited at or after the deadline, with
    a warning, instead of keeping the previous vote (a thread setting, issue 28)."""
    done = set(  # a post read once, even if the GM later corrected or removed its vote
        Submission.every.filter(phase=phase).exclude(forum_post="")
        .values_list("forum_post", flat=True)
    )  # fmt: skip
    existing = list(
        Submission.objects.filter(phase=phase, kind=Submission.Kind.VOTE)
        .select_related("player", "target").order_by("at", "pk")
    )  # fmt: skip
    stored = {sub.forum_post: sub for sub in existing if sub.forum_post}
    # Ties in time (a forum that shows minutes shows a minute's posts alike) go in the
    # page's order: a vote stored from a post of this page takes that post's place, so a
    # post above it, read again, is not taken for a later change; a vote cast otherwise
    # comes first.
    place_of = {row.key: index for index, row in enumerate(preview.rows)}
    timeline: list[tuple[dt.datetime, int, object]] = []
    for sub in existing:
        timeline.append((sub.at, place_of.get(sub.forum_post, -1), sub))
    for index, row in enumerate(preview.rows):
        if row.key in done or _read_before(row, done):
            _already(row, stored.get(row.key))
        elif row.at is None:
            row.status, row.note = OUTSIDE, _("ora del post illeggibile")
        elif (place := forum_time_place(phase, row.at, now)) in (LATE_POST, BEFORE, FUTURE):
            row.status = LATE if place == LATE_POST else OUTSIDE
            row.note = place_note(phase, row.at, now)
            row.voter_choices, row.target_choices = [], []  # never stored: nothing to ask
        elif row.voter is None or (row.target is None and not row.withdraw):
            row.status, row.note = ASK, _doubt(row)
        elif row.post.edit_text and row.post.edited_at is None:
            row.status = ASK
            row.note = _("modificato, ma l'ora della modifica è illeggibile: %(edit)s") % {
                "edit": row.post.edit_text
            }
        else:
            row.status = ""
            if _edited_late(row, phase):
                row.status = EDITED_LATE if not edited_late_counts else ""
                row.edited_late = True
            timeline.append((row.at, index, row))
    standing: dict[int, Player | None] = {}
    rules, state = built.rules, built.state
    for _at, _order, item in sorted(timeline, key=lambda e: (e[0], e[1])):
        if isinstance(item, Submission):
            standing[item.player_id] = item.target
            continue
        row: Row = item
        before = standing.get(row.voter.pk)
        row.before = before
        if row.status == EDITED_LATE:  # shown with the vote that stands, not counted
            late = _("modificato dopo la scadenza (%(edit)s): vale il voto precedente, %(before)s")
            row.note = late % {
                "edit": local_stamp(phase, row.post.edited_at),
                "before": before.name if before else _("nessuno")}  # fmt: skip
            continue
        try:
            rules.check_vote(
                state,
                preview.phase.label,
                Vote(row.voter.name, row.target.name if row.target else None, 0, False, False),
            )
        except RuleViolation as exc:
            row.status, row.note = REFUSED, refusal(exc, phase.game.setup)
            continue
        if row.withdraw:
            row.status = WITHDRAWN if before is not None else NOTHING
        elif before is None:
            row.status = NEW
        else:
            row.status = SAME if before.pk == row.target.pk else CHANGED
        if row.status in STORED:
            standing[row.voter.pk] = row.target
        if row.edited_late:  # counted all the same: the GM is warned
            warning = _(
                "modificato dopo la scadenza (%(edit)s): conta lo stesso, come vuole "
                "l'impostazione del topic"
            )
            row.note = warning % {"edit": local_stamp(phase, row.post.edited_at)}


def _already(row: Row, sub: Submission | None) -> None:
    """A post read before is settled: it asks nothing again (issue 31 minor: an imported
    vote still asked "Chi è «zef»?") and shows the vote it stored, while that stands."""
    row.status, row.voter_choices, row.target_choices = ALREADY, [], []
    if sub is not None:
        row.voter, row.target, row.withdraw = sub.player, sub.target, sub.target is None


def _edited_late(row: Row, phase: Phase) -> bool:
    """A post edited at or after the deadline (a paused day has none yet)."""
    edited = row.post.edited_at
    return edited is not None and not phase.paused_at and edited >= phase.closes_at


DRIFT = (-2, -1, 1, 2)  # minutes: a "N minuti fa" time read again from a later copy


def _read_before(row: Row, done: set[str]) -> bool:
    """A post whose time counts back from when the page was shown ("12 minuti fa") is
    recognised a minute or two off (the same post, from a later copy of the page)."""
    if row.at is None or not approximate(row.post.when_text):
        return False
    return any(_key(row.post, row.said, row.at + dt.timedelta(minutes=m)) in done for m in DRIFT)


def _doubt(row: Row) -> str:
    """Why the GM is asked about ``row``, in a few words."""
    reasons = []
    if row.voter is None:
        reasons.append(_("autore non riconosciuto") if row.voter_match.kind == UNKNOWN
                       else _("autore da confermare"))  # fmt: skip
    if row.mention:
        reasons.append(str(MENTIONS[row.mention]))
    elif row.maybe_quoted:
        reasons.append(_("forse dentro una citazione"))
    elif row.said.unreadable:
        reasons.append(_("riga non leggibile"))
    elif row.target is None and not row.withdraw:
        kind = row.target_match.kind if row.target_match else UNKNOWN
        reasons.append({AMBIGUOUS: _("nome ambiguo"), APPROX: _("nome approssimato")}.get(
            kind, _("nome sconosciuto")))  # fmt: skip
    return ", ".join(reasons)
