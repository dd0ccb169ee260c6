"""Model rows in plain SQL, for the players' vote (the hottest path of the site): the
ORM's query compilation and its insert compiler cost more there than the statements.

Rows are read and written exactly as the ORM would: every concrete column, the ORM's own
converters on the way in, each field's ``pre_save`` and ``get_db_prep_save`` on the way
out (defaults, ``auto_now_add``, JSON), so the instances are the ORM's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.utils import CursorWrapper
from django.db.models import Model

# A statement of the vote's is prepared by PostgreSQL once it ran this many times on a
# connection (psycopg's own default threshold).
PREPARE_AFTER = 5


def hot_cursor() -> CursorWrapper:
    """A cursor for the vote's few fixed statements: on PostgreSQL, with server-side
    binding, so that each is parsed and planned once per connection (psycopg prepares it
    after :data:`PREPARE_AFTER` runs) instead of on every vote; Django's own cursor
    otherwise. Django keeps prepared statements off (for transaction-mode connection
    poolers), and so do its other cursors: they bind on the client, which never prepares.
    ``TABULA_PREPARED_STATEMENTS=false`` turns this off behind such a pooler.

    The underlying cursor is kept for the connection (closing the wrapper keeps it): a
    caller runs its statement and reads its rows before the next one asks for it."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql" or not settings.TABULA_PREPARED_STATEMENTS:
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    raw = db.connection
    kept = db.__dict__.get("hot_cursor")
    if kept is None or kept.connection is not raw:
        with db.wrap_database_errors:
            if raw.prepare_threshold is None:  # this connection's other cursors never prepare
                raw.prepare_threshold = PREPARE_AFTER
            kept = db.__dict__["hot_cursor"] = _kept_cursor_class()(raw)
    return db._prepare_cursor(kept)


@cache
def _kept_cursor_class() -> type:
    """Django's server-binding cursor, closed only with its connection (PostgreSQL only:
    imported when first needed)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class KeptCursor(ServerBindingCursor):
        def close(self) -> None:
            pass  # reused by the next hot statement; the connection's close ends it

    return KeptCursor


@cache
def columns(model: type[Model]) -> tuple[str, ...]:
    """The model's concrete columns, in field order."""
    return tuple(f.column for f in model._meta.concrete_fields)


@cache
def _converters(model: type[Model]) -> list[tuple[Any, list]]:
    """Each concrete field's column and what the ORM applies to its value when read."""
    found = []
    for field in model._meta.concrete_fields:
        col = field.get_col(model._meta.db_table)
        found.append(
            (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
        )
    return found


@cache
def _attnames(model: type[Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def from_row(model: type[Model], values: Sequence, fields: Sequence[str] | None = None) -> Any:
    """An instance of ``model`` from its concrete columns' raw values, as the ORM reads it;
    ``fields``: the names of the fields read, in order, when not every one (the others
    are deferred, as with ``.only()``)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself (the proxy looks it up each time)
    found = _converters(model) if fields is None else _converters_of(model, tuple(fields))
    converted = []
    for value, (col, converters) in zip(values, found, strict=True):
        for convert in converters:
            value = convert(value, col, db)
        converted.append(value)
    names = _attnames(model) if fields is None else _attnames_of(model, tuple(fields))
    return model.from_db(DEFAULT_DB_ALIAS, names, converted)


@cache
def _converters_of(model: type[Model], fields: tuple[str, ...]) -> list[tuple[Any, list]]:
    by_name = {f.name: entry for f, entry in zip(model._meta.concrete_fields, _converters(model),
                                                  strict=True)}  # fmt: skip
    by_name.update({f.attname: by_name[f.name] for f in model._meta.concrete_fields})
    return [by_name[name] for name in fields]


@cache
def _attnames_of(model: type[Model], fields: tuple[str, ...]) -> list[str]:
    return [model._meta.get_field(name).attname for name in fields]


@cache
def _insert_fields(model: type[Model]) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@cache
def insert_names(model: type[Model]) -> tuple[str, str]:
    """The table of ``model`` and the column list of a new row (its pk left to the database)."""
    names = ", ".join(f'"{f.column}"' for f in _insert_fields(model))
    return model._meta.db_table, names


@cache
def insert_casts(model: type[Model]) -> str:
    """A placeholder per column of ``insert_names``, cast to the column's type (in
    ``INSERT ... SELECT`` a parameter takes no type from its column, as in ``VALUES``)."""
    db = connections[DEFAULT_DB_ALIAS]
    return ", ".join(f"%s::{f.cast_db_type(db)}" for f in _insert_fields(model))


def insert_values(obj: Model) -> tuple[str, str, list]:
    """The table, its column list and the values of a new row for ``obj`` (its pk left
    to the database), prepared as the ORM's insert prepares them."""
    model = type(obj)
    db = connections[DEFAULT_DB_ALIAS]
    values = [f.get_db_prep_save(f.pre_save(obj, True), db) for f in _insert_fields(model)]
    return (*insert_names(model), values)


def insert_pair(first: Model, second: Model) -> None:
    """Insert two new rows of any two tables in one statement (PostgreSQL), setting
    their primary keys: the second may name the first only through fields already set."""
    table_a, names_a, values_a = insert_values(first)
    table_b, names_b, values_b = insert_values(second)
    marks_a, marks_b = ", ".join(["%s"] * len(values_a)), ", ".join(["%s"] * len(values_b))
    pk_a, pk_b = type(first)._meta.pk.column, type(second)._meta.pk.column
    query = (
        f'WITH a AS (INSERT INTO "{table_a}" ({names_a}) VALUES ({marks_a}) RETURNING "{pk_a}")'
        f' INSERT INTO "{table_b}" ({names_b}) VALUES ({marks_b})'
        f' RETURNING (SELECT "{pk_a}" FROM a), "{pk_b}"'
    )
    with hot_cursor() as cursor:
        cursor.execute(query, [*values_a, *values_b])
        first.pk, second.pk = cursor.fetchone()
    for obj in (first, second):
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS
