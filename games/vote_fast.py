"""A player's vote on PostgreSQL in two statements, with no transaction of its own.

The first statement reads the player with his game, the target by name and the form's
phase with its snapshot and the database clock (``voter_read``), with the session's row
when the caller can tell whose session it likely is; the vote is judged on that snapshot;
the second statement stores the vote and its audit event only if the phase, share-locked,
still takes it exactly as it was judged (``vote_store``): open, before its deadline or
waiting, not closed to the players, the same snapshot epoch. One statement is its own
transaction: no BEGIN, no COMMIT, no third round trip.

The close of a phase is an update of its row: it waits for a store holding the share
lock, and a store waiting behind a close sees the closed row and stores nothing. When
the store finds the row changed, or anything is out of the ordinary (no snapshot yet, a
phase of another game, a closed phase), the caller takes the locked path
(``games.submitting.vote_record``), which judges again and says why it refuses.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache

from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from games.engine import rebuild, rules_for
from games.models import AuditEvent, Game, Phase, Player, Submission, TopicSettings
from games.rows import columns, from_row, hot_cursor, insert_casts, insert_names, insert_values
from games.services import audit_event
from games.snapshot import Opening
from games.submitting import Cast, check_refusal, earlier_open_sql, takes_submissions
from gm.sessions import live_session
from roles.engine.model import Vote

NOT_READ = object()  # the session, when the statement did not read it
# What the vote needs of the phase row (its large JSON columns are left unread).
PHASE_FIELDS = ("id", "game_id", "label", "index", "status", "closes_at", "paused_at",
                "players_closed", "snapshot_epoch")  # fmt: skip


@dataclass
class Voter:
    """What the first statement read: the player (with his game), the target named by
    the form (only its id and name; None when nobody of his game is so named), the form's
    phase of his game (None when it is not one) with the database clock and whether an
    earlier phase is still unresolved."""

    player: Player
    target: Player | None
    phase: Phase | None
    now: dt.datetime | None
    earlier_open: bool
    session: Session | object | None = NOT_READ  # the session's row, when read along


@cache
def _read_query(vendor: str, with_session: bool = False) -> str:
    """The first statement; on SQLite without the clock (its votes take the locked path).
    ``with_session``: the session's row too, read with the session store's condition
    (gm/sessions.py: the key, not expired), NULLs when there is none."""
    player_columns, game_columns = columns(Player), columns(Game)
    session = ""
    if with_session:
        table = Session._meta.db_table
        session = f" LEFT JOIN {table} se ON {live_session('se')}"
    return (
        "SELECT {player}, {game}, EXISTS (SELECT 1 FROM {topic} s WHERE s.game_id = p.game_id"
        " AND s.votes_from_topic), (SELECT t.id FROM {players} t WHERE t.game_id = p.game_id"
        " AND t.name = %s), {phase}, {now}, {earlier}{session_columns}"
        " FROM {players} p JOIN {games} g ON g.id = p.game_id"
        " LEFT JOIN {phases} ph ON ph.id = %s AND ph.game_id = p.game_id{session} WHERE p.id = %s"
    ).format(
        player=", ".join(f'p."{c}"' for c in player_columns),
        game=", ".join(f'g."{c}"' for c in game_columns),
        phase=", ".join(f'ph."{Phase._meta.get_field(f).column}"' for f in PHASE_FIELDS),
        topic=TopicSettings._meta.db_table, players=Player._meta.db_table,
        games=Game._meta.db_table, phases=Phase._meta.db_table,
        now="now()" if vendor == "postgresql" else "NULL", earlier=earlier_open_sql("ph"),
        session_columns="".join(f', se."{c}"' for c in columns(Session)) if with_session else "",
        session=session,
    )  # fmt: skip


def voter_read(player_pk: int, target: str, phase_pk: int | None,
               session_key: str | None = None) -> Voter | None:  # fmt: skip
    """The first statement (None when the player does not exist); ``player.votes_in_topic``
    says whether his game takes its public votes from the forum thread. With a
    ``session_key``, the statement reads that session's row too (``Voter.session``: the
    session, or None when there is none or it expired), as the session store would."""
    with hot_cursor() as cursor:
        with_session = session_key is not None
        query = _read_query(connections[DEFAULT_DB_ALIAS].vendor, with_session)
        params = [target, Phase.Status.COMMITTED, phase_pk, player_pk]
        if with_session:
            params[3:3] = [session_key, timezone.now()]
        cursor.execute(query, params)
        row = cursor.fetchone()
    if row is None:
        return None
    session = NOT_READ
    if with_session:
        split = len(row) - len(columns(Session))
        row, session_row = row[:split], row[split:]
        session = None if session_row[0] is None else from_row(Session, session_row)
    split, games = len(columns(Player)), len(columns(Game))
    player = from_row(Player, row[:split])
    player.game = from_row(Game, row[split : split + games])
    rest = row[split + games :]
    player.votes_in_topic, target_pk = bool(rest[0]), rest[1]
    target_row = None
    if target_pk is not None:
        target_row = Player.from_db(DEFAULT_DB_ALIAS, ["id", "game_id", "name"],
                                    [target_pk, player.game_id, target])  # fmt: skip
    phase_values, now, earlier_open = rest[2:-2], rest[-2], bool(rest[-1])
    phase = None
    if phase_values[0] is not None:
        phase = from_row(Phase, phase_values, PHASE_FIELDS)
    return Voter(player, target_row, phase, now, earlier_open, session)


def vote_fast(voter: Voter, *, secret: bool, abstain: bool,
              received_at: dt.datetime | None) -> Cast | None:  # fmt: skip
    """Store the vote if the phase as read takes it and the rebuilt state judges it legal,
    in one statement; the vote just stored, or None when the caller must take the locked
    path (a ``ValidationError`` when the rules refuse the vote)."""
    phase, player, target = voter.phase, voter.player, voter.target
    if phase is None or voter.now is None or phase.players_closed:
        return None
    now = voter.now if received_at is None else min(voter.now, received_at)
    if not takes_submissions(phase, now, voter.earlier_open):
        return None
    game = player.game
    rules = rules_for(game)
    state = rebuild(game).state  # judged on the committed phases; the insert's guard
    # (the phase's epoch) refuses it if a commit or an undo lands meanwhile
    vote = Vote(player.name, target.name if target else None, 0, secret, abstain)
    check_refusal(rules.key, rules.check_vote, state, phase.label, vote)
    kind = Submission.Kind.SECRET_VOTE if secret else Submission.Kind.VOTE
    submission = Submission(phase=phase, player=player, kind=kind, target=target,
                            abstain=abstain, at=now, reason="")  # fmt: skip
    event = audit_event(game, "vote", user=None, player=player, phase=phase.label,
                        secret=secret, target=target.name if target else None,
                        reason="")  # fmt: skip
    if not _store(submission, event, phase, now):
        return None
    return Cast(submission, phase, Opening(rules, state))


@cache
def _store_query() -> str:
    """The second statement: the guard is ``takes_submissions`` on the locked row, with
    the snapshot epoch the vote was judged on."""
    (sub, sub_names), (event, event_names) = insert_names(Submission), insert_names(AuditEvent)
    return (
        f"WITH ok AS (SELECT 1 FROM {Phase._meta.db_table} ph WHERE ph.id = %s AND ph.game_id = %s"
        " AND ph.status = %s AND NOT ph.players_closed AND ph.snapshot_epoch = %s"
        f" AND (ph.paused_at IS NOT NULL OR %s < ph.closes_at OR {earlier_open_sql('ph')})"
        " FOR SHARE OF ph),"
        f' a AS (INSERT INTO "{sub}" ({sub_names}) SELECT {insert_casts(Submission)}'
        " FROM ok RETURNING id)"
        f' INSERT INTO "{event}" ({event_names}) SELECT {insert_casts(AuditEvent)} FROM a'
        " RETURNING (SELECT id FROM a), id"
    )  # fmt: skip


def _store(submission: Submission, event: AuditEvent, phase: Phase, now: dt.datetime) -> bool:
    """The second statement: both rows, if the locked phase still takes the vote."""
    _, _, sub_values = insert_values(submission)
    _, _, event_values = insert_values(event)
    guard = [phase.pk, phase.game_id, Phase.Status.OPEN, phase.snapshot_epoch, now,
             Phase.Status.COMMITTED]  # fmt: skip
    with hot_cursor() as cursor:
        cursor.execute(_store_query(), [*guard, *sub_values, *event_values])
        row = cursor.fetchone()
    if row is None:
        return False
    submission.pk, event.pk = row
    for obj in (submission, event):
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS
    return True
