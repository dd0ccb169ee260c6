"""Sessions in the database only (issue 9, #8: a Redis outage logs nobody out), read with
one plain SQL statement.

Django's ``db`` backend builds its session query through the ORM on every request; on
the players' vote that compilation cost more than the query itself. This store reads the
same table with the same condition (the key, not expired) and is Django's otherwise:
writes, keys, expiry and signing are untouched.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.utils import timezone

_READ = (
    "SELECT session_key, session_data, expire_date FROM django_session"
    " WHERE session_key = %s AND expire_date > %s"
)


class SessionStore(DatabaseStore):
    def _get_session_from_db(self) -> Session | None:
        if self.session_key is None:  # no cookie, or a malformed one
            return None
        found = next(iter(Session.objects.raw(_READ, [self.session_key, timezone.now()])), None)
        if found is None:
            self._session_key = None
        return found
