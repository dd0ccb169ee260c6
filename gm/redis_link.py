"""A few fixed Redis commands in one round trip on a connection the process keeps, for
the players' vote (the in-flight registry and the flood limit: three round trips a vote).

redis-py's client takes a connection from its pool for every command or pipeline, times
it and counts it for its metrics, and builds a pipeline object: on a vote that cost more
than everything Redis itself did. Here the commands are packed and their replies read by
redis-py's own connection (its parser, its retry policy, its reconnection); the connection
is this process's (a forked child makes its own), used under a lock, and dropped on any
error, so that the next call starts clean. Errors are redis-py's: callers fail open.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import redis


class Link:
    """One connection to the server of ``client`` (a ``redis.Redis``), made when first
    needed with the client's own connection settings."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._lock = threading.Lock()
        self._connection: Any = None
        self._pid = 0

    def call(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Each command's raw reply, in order (one round trip); a ``redis.RedisError``
        (or ``OSError``) when the server cannot be reached or refuses one of them."""
        with self._lock:
            connection = self._connection
            if connection is None or self._pid != os.getpid():
                pool = self.client.connection_pool
                connection = pool.connection_class(**pool.connection_kwargs)
                self._connection, self._pid = connection, os.getpid()
            try:
                return connection.retry.call_with_retry(
                    lambda: _round_trip(connection, commands),
                    lambda _error: connection.disconnect(),
                )
            except BaseException:
                connection.disconnect()  # a reply may be left unread: start clean
                raise


def _round_trip(connection: Any, commands: tuple[tuple[Any, ...], ...]) -> list[Any]:
    connection.send_packed_command(connection.pack_commands(commands))
    return [connection.read_response() for _ in commands]
