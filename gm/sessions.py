"""Sessions in the database only (issue 9, #8: a Redis outage logs nobody out), read with
one plain SQL statement (a cursor: even a raw queryset cost more than the query).

Django's ``db`` backend builds its session query through the ORM on every request; on
the players' vote that compilation cost more than the query itself. This store reads the
same table with the same condition (the key, not expired) and is Django's otherwise:
writes, keys and expiry are untouched, and a stored text's signature is checked once per
process (the same text with the same key is the same session).
"""

from __future__ import annotations

from collections import OrderedDict
from copy import deepcopy
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.rows import columns, from_row, hot_cursor


def live_session(alias: str = "") -> str:
    """The condition a session's row is read on (its key, not expired; the parameters are
    the key and now), on the table named ``alias`` if given: the store's read and the
    vote's statement that reads the session with the voter (games/vote_fast.py)."""
    column = f"{alias}." if alias else ""
    return f"{column}session_key = %s AND {column}expire_date > %s"


_READ = "SELECT {} FROM {} WHERE {}".format(
    ", ".join(f'"{c}"' for c in columns(Session)), Session._meta.db_table, live_session()
)


# Sessions this process has verified and decoded, by their stored text and the key that
# signed them: a player's every vote reads the same session, and checking its signature
# again proves nothing new. A changed session is other text; each reader gets a copy.
_DECODED: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
DECODED_SIZE = 2048


_UNSET = object()


class SessionStore(DatabaseStore):
    _prefetched: Any = _UNSET

    def prefetch(self, session: Session | None) -> None:
        """This session's row as another statement read it, with the same condition as
        ``_get_session_from_db`` (None: no such session, or expired): the first load uses
        it instead of a query of its own (the player's vote reads it with the player)."""
        self._prefetched = session

    def decode(self, session_data: str) -> dict[str, Any]:
        key = (session_data, settings.SECRET_KEY)
        found = _DECODED.get(key)
        if found is None:
            found = super().decode(session_data)
            if not found:  # corrupted or empty: nothing worth keeping
                return found
            _DECODED[key] = found
            if len(_DECODED) > DECODED_SIZE:
                _DECODED.popitem(last=False)
        return {k: deepcopy(v) if isinstance(v, list | dict | set) else v for k, v in found.items()}

    def _get_session_from_db(self) -> Session | None:
        if self.session_key is None:  # no cookie, or a malformed one
            return None
        prefetched, self._prefetched = self._prefetched, _UNSET
        if prefetched is None:
            self._session_key = None
            return None
        if prefetched is not _UNSET and prefetched.session_key == self.session_key:
            return prefetched
        with hot_cursor() as cursor:
            cursor.execute(_READ, [self.session_key, timezone.now()])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return from_row(Session, row)
