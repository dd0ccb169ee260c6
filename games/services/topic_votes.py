"""Votes read from the game's forum thread (issue 12 §1): the GM pastes a page of the
thread, sees what it would change, settles the doubtful lines, and saves. Every vote is
stored through ``vote_cast`` (the engine's own legality check) with the forum time and
"from the topic" as its source; a post is read once (its key is kept), so pasting the
same page again, or an overlapping later page, adds only what is new."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
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
from games.forum.votes import DEFAULT_VOTES, DEFAULT_WITHDRAWALS
from games.models import Game, Phase, Player, Submission, TopicSettings
from games.selectors.window import (
    BEFORE,
    FUTURE,
    forum_time_place,
    local_stamp,
    past_deadline,
    window_text,
)
from games.selectors.window import LATE as LATE_POST
from games.services.game import audit
from games.services.phases import phase_commit
from games.services.submissions import vote_cast
from games.text.words import refusal

NEW, CHANGED, WITHDRAWN = "new", "changed", "withdrawn"  # what saving stores
SAME, NOTHING, ALREADY = "same", "nothing", "already"  # nothing to store
OUTSIDE, REFUSED, ASK = "outside", "refused", "ask"  # not stored unless the GM settles it
EDITED_LATE = "edited_late"  # edited at or after the deadline: the previous vote stands
LATE = "late"  # at or after the deadline: listed apart, never stored (issue 28 class 6)
STORED = (NEW, CHANGED, WITHDRAWN)
WITHDRAW = "-"  # a decision: the line is a withdrawal


def topic_settings(game: Game) -> TopicSettings:
    """The game's thread settings (the Italian defaults until the GM saves his own)."""
    found = TopicSettings.objects.filter(game=game).first()
    if found is None:
        found = TopicSettings(game=game, vote_lines=list(DEFAULT_VOTES),
                              withdraw_lines=list(DEFAULT_WITHDRAWALS))  # fmt: skip
    return found


@transaction.atomic
def topic_settings_update(
    *,
    game: Game,
    user: AbstractBaseUser,
    votes_from_topic: bool,
    vote_lines: list[str],
    withdraw_lines: list[str],
    aliases: str,
    gm_names: list[str],
) -> TopicSettings:
    """Save the game's thread settings. ``aliases``: one "written name = player" a line."""
    seats = {fold(p.name): p.seat for p in game.players.all()}
    parsed: dict[str, int] = {}
    for line in aliases.splitlines():
        if not line.strip():
            continue
        written, _sep, name = line.partition("=")
        seat = seats.get(fold(name).strip())
        if not written.strip() or seat is None:
            message = _("Alias non valido: «%(line)s» (scrivi: soprannome = giocatore).")
            raise ValidationError(message % {"line": line.strip()})
        parsed[written.strip()] = seat
    if not any("nome" in fold(line) for line in vote_lines):
        raise ValidationError(_("Ogni forma di voto deve contenere «Nome» al posto del giocatore."))
    settings = topic_settings(game)
    settings.votes_from_topic = votes_from_topic
    settings.vote_lines = [v.strip() for v in vote_lines if v.strip()]
    settings.withdraw_lines = [w.strip() for w in withdraw_lines if w.strip()]
    settings.aliases = parsed
    settings.gm_names = [n.strip() for n in gm_names if n.strip()]
    settings.save()
    audit(game, "topic_settings", user=user, votes_from_topic=votes_from_topic)
    return settings


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
    _classify(preview, phase, built, now)
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


def _classify(preview: ImportPreview, phase: Phase, built: Rebuilt, now: dt.datetime) -> None:
    """Each row's status, walking the phase's votes and the new ones in time order."""
    done = set(  # a post read once, even if the GM later corrected or removed its vote
        Submission.every.filter(phase=phase).exclude(forum_post="")
        .values_list("forum_post", flat=True)
    )  # fmt: skip
    existing = list(
        Submission.objects.filter(phase=phase, kind=Submission.Kind.VOTE)
        .select_related("target").order_by("at", "pk")
    )  # fmt: skip
    timeline: list[tuple[dt.datetime, int, object]] = []
    for sub in existing:
        timeline.append((sub.at, 0, sub))
    for row in preview.rows:
        if row.key in done or _read_before(row, done):
            row.status = ALREADY
        elif row.at is None:
            row.status, row.note = OUTSIDE, _("ora del post illeggibile")
        elif (place := forum_time_place(phase, row.at, now)) == LATE_POST:
            row.status = LATE
            row.note = _("dopo la scadenza (%(deadline)s): non conta") % {
                "deadline": local_stamp(phase, phase.closes_at)
            }
        elif place in (BEFORE, FUTURE):
            row.status = OUTSIDE
            row.note = _("fuori dalla fase (%(window)s)") % {"window": window_text(phase, now)}
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
                row.status = EDITED_LATE
            timeline.append((row.at, 1, row))
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


@transaction.atomic
def topic_import_save(
    *,
    phase: Phase,
    text: str,
    fmt: str,
    decisions: Mapping[str, str],
    user: AbstractBaseUser,
    read_at: dt.datetime | None = None,
    resolve: bool = False,
) -> ImportPreview:
    """Store what the preview of the same paste and decisions shows as new, changed or
    withdrawn: each through ``vote_cast``, timed at its post, "from the topic".
    ``read_at``: the instant that preview read the paste at (its ``read_at``; None: now),
    so a relative time ("50 minuti fa") and the row's key, which the GM's decisions
    name, are the preview's even when the minute has turned since. ``resolve``: then
    commit the day, in one click ("Salva e risolvi", issue 28 class 6), once its deadline
    has passed."""
    read_at = read_at or timezone.now()
    # The page is read before the lock (a slow page never holds up a player's vote).
    parsed = topic_parse(phase=phase, text=text, fmt=fmt, now=read_at,
                         gm_username=user.get_username())  # fmt: skip
    # One save at a time per phase: a double click's second save then sees the first's
    # posts as already read instead of storing them twice.
    Phase.objects.select_for_update().filter(pk=phase.pk).first()
    if resolve and not past_deadline(phase, timezone.now()):
        raise ValidationError(_("La scadenza non è ancora passata: salva senza risolvere."))
    preview = topic_import_preview(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                   now=read_at, gm_username=user.get_username(),
                                   parsed=parsed)  # fmt: skip
    for row in sorted(preview.to_store, key=lambda r: r.at):
        submission = vote_cast(phase=phase, player=row.voter, target=row.target, at=row.at,
                               entered_by=user, reason=_("dal topic"))  # fmt: skip
        submission.source, submission.forum_post = "topic", row.key
        submission.save(update_fields=["source", "forum_post"])
    audit(phase.game, "topic_import", user=user, phase=phase.label, posts=preview.posts,
          stored=len(preview.to_store))  # fmt: skip
    if resolve:
        phase_commit(phase=phase, user=user)
    return preview
