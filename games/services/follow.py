"""The thread the site reads by itself (issue 32, "Segui il topic"). The GM gives the
game thread's address; Celery beat's tick claims the threads whose next read is due and
queues one task each (``games.follow_read``, the ordinary queue, never in a request); a
read fetches the last page reached (games/services/follow_http.py: public addresses only,
bounded, polite), keeps each post once (and its previous text when it changed), and
stores the day's sure votes exactly as a pasted page's "Salva" does
(games/services/topic_votes.py), so the count is current all day. After the deadline and
a short grace, a final read; then the day's result is ready for the GM to commit, or
committed by itself when nothing needs settling and the GM chose so. A failed read
counts nothing: the day waits, the GM is told why, and the paste still works.

The schedule: one read a minute per thread, one every ``TABULA_FOLLOW_RUSH_SECONDS``
(never under 10 s) in the last 10 minutes before the deadline; on 429 and 5xx the
forum's Retry-After, or a backoff doubling from a minute to half an hour."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from dataclasses import replace
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.forum import PARSERS, Clock, ForumPost, ThreadError, fold, parse_thread
from games.forum.html import next_page
from games.models import FollowedThread, Game, Phase, ThreadPost, ThreadRead
from games.selectors.window import past_deadline
from games.services.follow_http import (
    FORMS,
    Fetched,
    FetchError,
    checked,
    fetch,
    gated,
    raw_next_page,
    raw_page,
    readable_url,
)
from games.services.game import audit
from games.services.phases import current_phase, phase_commit
from games.services.topic_preview import ImportPreview, topic_import_preview
from games.services.topic_settings import topic_settings
from games.services.topic_votes import topic_rows_store

log = logging.getLogger(__name__)
RUSH = dt.timedelta(minutes=10)  # before a deadline: reads come faster
FLOOR = dt.timedelta(seconds=10)  # never two requests to a thread closer than this
LEASE = dt.timedelta(minutes=3)  # a claimed read not done by then is claimed again
BACKOFF_MAX = dt.timedelta(minutes=30)


def _grace() -> dt.timedelta:
    return dt.timedelta(seconds=settings.TABULA_FOLLOW_GRACE_SECONDS)


@transaction.atomic
def follow_start(
    *,
    game: Game,
    user: AbstractBaseUser,
    url: str,
    form: str = "page",
    fmt: str = "",
    auto_commit: bool = False,
) -> FollowedThread:
    """Follow ``game``'s thread at ``url`` from now on (again from its first page when the
    address changes). ValidationError (Italian) for an address the site may not read."""
    if form not in FORMS or (fmt and fmt not in PARSERS):
        raise ValidationError(_("Forma leggibile o forum sconosciuti."))
    try:
        checked(readable_url(url, form))
    except FetchError as exc:
        raise ValidationError(follow_reason(exc.code, exc.detail)) from exc
    thread = FollowedThread.objects.select_for_update().filter(game=game).first()
    if thread is None:
        thread = FollowedThread(game=game)
    if thread.url != url or thread.form != form:
        thread.page_url, thread.etag, thread.last_modified = "", "", ""
    thread.url, thread.form, thread.fmt, thread.auto_commit = url, form, fmt, auto_commit
    thread.state, thread.reason, thread.detail, thread.failures = (
        FollowedThread.State.ACTIVE,
        "",
        "",
        0,
    )
    thread.next_read_at = timezone.now()
    thread.save()
    audit(game, "follow_start", user=user, url=url, form=form, auto_commit=auto_commit)
    return thread


def follow_pause(*, game: Game, user: AbstractBaseUser) -> None:
    """Stop reading the thread (the posts read are kept; the paste still works)."""
    FollowedThread.objects.filter(game=game).update(state=FollowedThread.State.PAUSED,
                                                    next_read_at=None)  # fmt: skip
    audit(game, "follow_pause", user=user)


def follow_claim_due(now: dt.datetime | None = None) -> list[int]:
    """The followed threads whose read is due, each claimed by a compare-and-set (its next
    read moved a lease ahead), so two ticks queue it once."""
    now = now or timezone.now()
    due = Q(state=FollowedThread.State.ACTIVE, next_read_at__lte=now,
            game__status=Game.Status.RUNNING)  # fmt: skip
    claimed = []
    for pk, at in FollowedThread.objects.filter(due).values_list("pk", "next_read_at")[:500]:
        won = FollowedThread.objects.filter(pk=pk, next_read_at=at).update(next_read_at=now + LEASE)
        if won:
            claimed.append(pk)
    return claimed


def next_read(phase: Phase | None, thread: FollowedThread, now: dt.datetime) -> dt.datetime:
    """When to read next: a minute on (faster in the last 10 minutes before a day's
    deadline), and the final read at the deadline plus the grace; never under 10 s."""
    every = dt.timedelta(seconds=settings.TABULA_FOLLOW_EVERY_SECONDS)
    if phase is None or phase.is_night:
        return now + every
    if phase.status == Phase.Status.OPEN and phase.paused_at is None:
        left = phase.closes_at - now
        if dt.timedelta(0) <= left <= RUSH:
            every = min(every, dt.timedelta(seconds=settings.TABULA_FOLLOW_RUSH_SECONDS))
    at = now + every
    final_at = phase.closes_at + _grace()
    if thread.final_phase_id != phase.pk and phase.paused_at is None and now < final_at:
        # between the deadline and the final read, no read but the final one
        at = final_at if at > phase.closes_at else at
    return max(at, now + FLOOR)


def _backoff(thread: FollowedThread, retry_after: float | None) -> dt.timedelta:
    doubled = dt.timedelta(seconds=settings.TABULA_FOLLOW_EVERY_SECONDS) * 2 ** min(
        thread.failures, 6
    )
    wait = max(doubled, dt.timedelta(seconds=retry_after or 0))
    return max(FLOOR, min(wait, BACKOFF_MAX) if retry_after is None else wait)


def _post_keys(posts: list[ForumPost], page: str) -> list[str]:
    """Each post's key: the page it is on, its author, its time and its place among his
    posts of that time on the page (a forum that shows minutes shows two posts of one
    minute alike, and they may fall on two pages). An edit keeps it; a post stays on its
    page as the thread grows (a deletion that moves posts back a page shows them again
    as new: they repeat the votes they held, at their own time). A post that gives its
    own number (Discourse's raw text) is keyed by it alone."""
    seen: dict[tuple[str, str], int] = {}
    keys = []
    for post in posts:
        if post.number:  # the forum's own number (Discourse raw): one post, edited or not
            keys.append(hashlib.sha1(f"#{post.number}".encode()).hexdigest())
            continue
        who, moment = fold(post.author).strip(), post.at.isoformat() if post.at else ""
        place = seen[who, moment] = seen.get((who, moment), -1) + 1
        raw = f"{page}|{who}|{moment}|{place}"
        keys.append(hashlib.sha1(raw.encode()).hexdigest())
    return keys


def _known(game: Game) -> frozenset[str]:
    settings_ = topic_settings(game)
    names = [p.name for p in game.players.all()]
    names += [*settings_.aliases, *settings_.gm_names, game.gm.get_username()]
    return frozenset(fold(n).strip() for n in names if n)


def _keep(
    thread: FollowedThread, posts: list[ForumPost], page: str, now: dt.datetime
) -> tuple[int, int]:
    """Keep the posts read: new ones added, changed ones updated with their previous text
    kept. Returns (new, changed)."""
    keys = _post_keys(posts, page)
    known = {p.key: p for p in ThreadPost.objects.filter(thread=thread, key__in=keys)}
    order = ThreadPost.objects.filter(thread=thread).count()
    new = changed = 0
    for post, key in zip(posts, keys, strict=True):
        if post.at is None:  # an unreadable time: nothing can be counted from it
            continue
        kept = known.get(key)
        if kept is not None and post.number and post.at > kept.at:
            # Discourse's raw text gives a post's last edit time: the post keeps the
            # time first read, the later one is its edit's
            post = replace(post, at=kept.at, edited_at=post.at)
        if kept is None:
            order += 1
            known[key] = ThreadPost.objects.create(
                thread=thread, key=key, author=post.author, at=post.at, seconds=post.seconds,
                lines=post.lines, unsure=post.unsure, when_text=post.when_text[:100],
                edited_at=post.edited_at, edit_text=post.edit_text[:300], read_at=now,
                order=order,
            )  # fmt: skip
            new += 1
        elif kept.lines != post.lines or kept.edited_at != post.edited_at:
            kept.previous_lines = kept.lines if kept.lines != post.lines else kept.previous_lines
            kept.lines, kept.unsure, kept.changed_at = post.lines, post.unsure, now
            kept.edited_at, kept.edit_text = post.edited_at, post.edit_text[:300]
            kept.save(update_fields=["previous_lines", "lines", "unsure", "changed_at",
                                     "edited_at", "edit_text"])  # fmt: skip
            changed += 1
    return new, changed


def thread_posts(thread: FollowedThread, since: dt.datetime | None = None) -> list[ForumPost]:
    """The posts kept, as the thread readers give them (from ``since`` on)."""
    rows = ThreadPost.objects.filter(thread=thread).order_by("at", "order")
    if since is not None:
        rows = rows.filter(at__gte=since)
    return [ForumPost(p.author, p.at, p.seconds, list(p.lines), p.order, list(p.unsure),
                      p.when_text, p.edited_at, p.edit_text) for p in rows]  # fmt: skip


def followed_preview(
    *, thread: FollowedThread, phase: Phase, decisions: dict[str, str] | None = None
) -> ImportPreview:
    """The day's posts read so far, as the paste's preview shows them (the same
    decisions for the GM: ambiguous names, edited votes, unreadable lines)."""
    posts = thread_posts(thread, since=phase.opened_at)
    parser = PARSERS.get(thread.fmt)
    return topic_import_preview(phase=phase, text="", decisions=decisions, now=timezone.now(),
                                gm_username=thread.game.gm.get_username(),
                                parsed=(parser, posts))  # fmt: skip


def _fail(thread: FollowedThread, read: ThreadRead, exc: FetchError, now: dt.datetime) -> None:
    read.status, read.note = exc.status, exc.code
    thread.failures += 1
    thread.reason = exc.code
    thread.detail = (exc.detail or (str(exc.status) if exc.status else ""))[:300]
    if exc.lasting:
        thread.state, thread.next_read_at = FollowedThread.State.FAILING, None
    else:
        thread.next_read_at = now + _backoff(thread, exc.retry_after)


def follow_read(thread_id: int, now: dt.datetime | None = None) -> str:
    """One read of a followed thread (the task's whole job): ``read``, ``final``,
    ``failed`` or ``skipped``."""
    now = now or timezone.now()
    thread = FollowedThread.objects.select_related("game", "game__gm").filter(pk=thread_id).first()
    if thread is None or thread.state != FollowedThread.State.ACTIVE:
        return "skipped"
    game = thread.game
    phase = current_phase(game)
    day = phase if phase is not None and not phase.is_night else None
    final = (day is not None and thread.final_phase_id != day.pk and day.paused_at is None
             and now >= day.closes_at + _grace())  # fmt: skip
    if (day is not None and not final and thread.final_phase_id != day.pk
            and day.paused_at is None and now >= day.closes_at):  # fmt: skip
        # a read queued before the deadline and run after it: only the final read counts
        # now, a grace later (the forum is asked once in the rush after the deadline)
        FollowedThread.objects.filter(pk=thread.pk).update(next_read_at=day.closes_at + _grace())
        return "skipped"
    url = thread.page_url or readable_url(thread.url, thread.form)
    read = ThreadRead(thread=thread, at=now, url=url[:500], final=final)
    try:
        fetched = fetch(url, etag=thread.etag, last_modified=thread.last_modified)
        posts: list[ForumPost] = []
        if fetched.status == 200 and not _raw_past_end(thread, url, fetched.text):
            clock = Clock.copied_at(now, ZoneInfo(game.time_zone), _known(game))
            try:
                parser, posts = parse_thread(fetched.text, clock, thread.fmt)
            except ThreadError as exc:
                raise FetchError("follow.too_large", detail=str(exc.limit)) from exc
            if not posts:
                raise FetchError("follow.login" if gated(fetched.text) else "follow.no_posts",
                                 status=200)  # fmt: skip
            thread.fmt = thread.fmt or (parser.key if parser else "")
    except FetchError as exc:
        _fail(thread, read, exc, now)
        read.save()
        thread.save()
        log.info("follow: thread %s failed: %s %s", thread.pk, exc.code, exc.status)
        return "failed"
    read.status = fetched.status
    with transaction.atomic():
        read.posts_new, read.posts_changed = _keep(thread, posts, url, now)
        following = _following(thread, fetched, len(posts))
        thread.page_url = (following or fetched.url)[:500]
        if following is None:
            thread.etag, thread.last_modified = fetched.etag[:200], fetched.last_modified[:100]
        else:
            thread.etag, thread.last_modified = "", ""
        thread.failures, thread.reason, thread.detail = 0, "", ""
        thread.last_read_at = now
        # The final read reaches the last page, or a page whose last post is after the
        # deadline (the pages after it hold only later posts: none counts). Not so in
        # Discourse's raw text, whose times are the last edits': it reads to the end.
        final = final and (following is None
                           or (thread.form != "discourse_raw" and _past(posts, day)))  # fmt: skip
        thread.next_read_at = (
            now + FLOOR if following and not final else next_read(day, thread, now)
        )
        if day is not None:
            read.note = _count(thread, day, final, read)
        if final:
            thread.final_phase = day
        read.save()
        thread.save()
    return "final" if final else "read"


def _raw_past_end(thread: FollowedThread, url: str, text: str) -> bool:
    """A Discourse raw page past the thread's end (an empty 200: the page before it was
    full, this one is not written yet): nothing new, not a failure."""
    return thread.form == "discourse_raw" and raw_page(url) > 1 and not text.strip()


def _following(thread: FollowedThread, fetched: Fetched, posts: int) -> str | None:
    """The page to read next when ``fetched`` is not the thread's last page."""
    if fetched.status != 200:
        return None
    if thread.form == "discourse_raw":  # plain text: its pages are numbered, not linked
        return raw_next_page(fetched.url, posts)
    return next_page(fetched.text, fetched.url)


def _past(posts: list[ForumPost], day: Phase | None) -> bool:
    times = [p.at for p in posts if p.at is not None]
    return day is not None and bool(times) and max(times) >= day.closes_at


def _count(thread: FollowedThread, day: Phase, final: bool, read: ThreadRead) -> str:
    """Store the day's sure votes read so far; after the final read, commit the day when
    the GM chose so and nothing needs settling. A note for the read log."""
    Phase.objects.select_for_update().filter(pk=day.pk).first()
    day.refresh_from_db()
    if day.status == Phase.Status.COMMITTED or not topic_settings(thread.game).votes_from_topic:
        return ""
    preview = followed_preview(thread=thread, phase=day)
    try:
        with transaction.atomic():
            topic_rows_store(phase=day, preview=preview, user=thread.game.gm)
    except ValidationError:
        return "follow.not_stored"  # the day takes no votes now (an undo): the GM decides
    if not final:
        return ""
    ready = not preview.problems and past_deadline(day, timezone.now())
    if ready and thread.auto_commit:
        phase_commit(phase=day, user=None)
        return "follow.committed"
    return "follow.ready" if ready else "follow.to_settle"


def follow_reason(code: str, detail: str = "") -> str:
    """Why a followed thread cannot be read, for the GM (Italian first)."""
    reasons = {
        "follow.scheme": _("Serve un indirizzo http:// o https:// del topic."),
        "follow.private": _("L'indirizzo porta a una rete privata o locale: il sito legge "
                            "solo forum pubblici."),
        "follow.no_host": _("Il nome del forum non si risolve: controlla l'indirizzo."),
        "follow.robots": _("Il robots.txt del forum non permette la lettura automatica: "
                           "incolla la pagina."),
        "follow.login": _("Il forum chiede di accedere o un captcha: il sito non può "
                          "leggerlo da solo. Incolla la pagina."),
        "follow.refused": _("Il forum rifiuta il sito (accesso negato): incolla la pagina."),
        "follow.status": _("Il forum risponde con un errore: controlla l'indirizzo."),
        "follow.busy": _("Il forum è occupato o sovraccarico: il sito riprova più tardi."),
        "follow.slow": _("Il forum è troppo lento a rispondere: il sito riprova più tardi."),
        "follow.network": _("Il forum non risponde: il sito riprova più tardi."),
        "follow.too_large": _("La pagina è troppo grande per essere letta: scegli una forma "
                              "leggibile più piccola o incolla la pagina."),
        "follow.redirects": _("Troppi rimandi da una pagina all'altra."),
        "follow.no_posts": _("In questa pagina non trovo messaggi del topic: controlla "
                             "l'indirizzo e la forma leggibile."),
        "follow.not_stored": _("La giornata non accetta voti adesso: decidi tu."),
        "follow.ready": _("Lettura finale fatta: il risultato è pronto."),
        "follow.to_settle": _("Lettura finale fatta: ci sono righe da decidere."),
        "follow.committed": _("Lettura finale fatta: giornata risolta da sola."),
    }  # fmt: skip
    text = reasons.get(code, code)
    shown = ("follow.status", "follow.no_host", "follow.busy", "follow.refused")
    return f"{text} ({detail})" if detail and code in shown else text


@transaction.atomic
def follow_settle(
    *, phase: Phase, decisions: dict[str, str], user: AbstractBaseUser, resolve: bool = False
) -> ImportPreview:
    """The GM's decisions on the followed thread's doubtful posts (the paste preview's:
    ``v<key>``/``t<key>``), stored like a pasted page's; ``resolve``: then commit the day,
    once its deadline has passed."""
    thread = FollowedThread.objects.select_related("game__gm").get(game=phase.game)
    Phase.objects.select_for_update().filter(pk=phase.pk).first()
    if resolve and not past_deadline(phase, timezone.now()):
        raise ValidationError(_("La scadenza non è ancora passata: salva senza risolvere."))
    preview = followed_preview(thread=thread, phase=phase, decisions=decisions)
    topic_rows_store(phase=phase, preview=preview, user=user)
    audit(phase.game, "follow_settle", user=user, phase=phase.label,
          stored=len(preview.to_store))  # fmt: skip
    if resolve:
        phase_commit(phase=phase, user=user)
    return preview
