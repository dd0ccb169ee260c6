"""Sessions in the database only (issue 9, #8: a Redis outage logs nobody out), read with
one plain SQL statement (a cursor: even a raw queryset cost more than the query).

Django's ``db`` backend builds its session query through the ORM on every request; on
the players' vote that compilation cost more than the query itself. This store reads the
same table with the same condition (the key, not expired) and is Django's otherwise:
writes, keys, expiry and signing are untouched.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from games.rows import columns, from_row

_READ = "SELECT {} FROM {} WHERE session_key = %s AND expire_date > %s".format(
    ", ".join(f'"{c}"' for c in columns(Session)), Session._meta.db_table
)


class SessionStore(DatabaseStore):
    def _get_session_from_db(self) -> Session | None:
        if self.session_key is None:  # no cookie, or a malformed one
            return None
        with connection.cursor() as cursor:
            cursor.execute(_READ, [self.session_key, timezone.now()])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return from_row(Session, row)
