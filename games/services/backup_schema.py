"""The schema of a backup file, checked before anything is stored (issue 27 §3).

A backup is hostile until proven otherwise: its size and its nesting depth are bounded
on the raw bytes (one linear scan) before ``json.loads`` sees them, then the document is
validated by pydantic against a schema made from the models themselves, so every field of
every model a backup carries is typed, bounded in length or range, and limited to its
choices (a model or field another branch adds is covered without naming it). The first
bad field is named in the refusal, as ``games.player[3].name: troppo lungo``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import cache
from typing import Annotated, Any, Literal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils.translation import gettext as _
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    create_model,
)
from pydantic import ValidationError as SchemaError

MAX_BACKUP_BYTES = 5 * 1024 * 1024  # a long played game is well under 1 MB
MAX_DEPTH = 24  # a backup nests 6 deep; the engine's stored inputs a few more
MAX_ROWS = 50_000  # rows of one model
TEXT_MAX = 100_000  # a text field without a length of its own
TEXTS = {"CharField", "SlugField", "EmailField", "URLField", "TextField", "GenericIPAddressField"}
STRUCTURE = re.compile(rb'["\\\[\]{}]')


def check_size_and_depth(raw: bytes) -> None:
    """Refuse a file too big, or nested deeper than a backup ever is, before parsing it:
    one pass over the structural characters, strings skipped (an escaped quote too)."""
    if len(raw) > MAX_BACKUP_BYTES:
        raise ValidationError(
            _("Il file è troppo grande (massimo %(mb)s MB).") % {"mb": MAX_BACKUP_BYTES >> 20}
        )
    depth, in_string, skip = 0, False, -1
    for found in STRUCTURE.finditer(raw):
        at = found.start()
        if at == skip:  # the character after a backslash
            continue
        char = raw[at]
        if in_string:
            if char == 0x5C:  # backslash
                skip = at + 1
            elif char == 0x22:  # quote
                in_string = False
        elif char == 0x22:
            in_string = True
        elif char in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                raise ValidationError(
                    _("Il file è annidato troppo in profondità (più di %(depth)s livelli): "
                      "non è un backup di Tabula.") % {"depth": MAX_DEPTH}
                )  # fmt: skip
        elif char in (0x5D, 0x7D):
            depth -= 1


def load_json(raw: bytes | str) -> Any:
    """The parsed document of a file already bounded by ``check_size_and_depth``."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    check_size_and_depth(data)
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        message = _("Il file non è un JSON valido: %(error)s") % {"error": exc}
        raise ValidationError(message) from exc


def _moment(kind: type) -> AfterValidator:
    """An ISO date, time or date-time a page can show (years 1900-2999: year 1 or 9999
    with an offset overflows the time-zone arithmetic of every page)."""

    def check(text: str) -> str:
        try:
            value = kind.fromisoformat(text)
        except ValueError as exc:
            raise ValueError("moment") from exc
        if isinstance(value, dt.date) and not 1900 <= value.year <= 2999:
            raise ValueError("moment")
        return text

    return AfterValidator(check)


def _in(choices: frozenset[Any]) -> AfterValidator:
    def check(value: Any) -> Any:
        if value not in choices:
            raise ValueError("choice")
        return value

    return AfterValidator(check)


def _reference(field: models.Field) -> Any:
    """A foreign key: the row's number, or a user's natural key (his username)."""
    if field.related_model is get_user_model():
        name = Annotated[StrictStr, Field(max_length=150)]
        return StrictInt | Annotated[list[name], Field(max_length=1)]
    return Annotated[StrictInt, Field(ge=1, le=2**63 - 1)]


def _annotation(field: models.Field) -> Any:
    """The pydantic type of one model field as Django's serializer writes it."""
    kind = field.get_internal_type()
    if field.is_relation:
        base = _reference(field)
    elif kind in TEXTS:
        base = Annotated[StrictStr, Field(max_length=field.max_length or TEXT_MAX)]
    elif kind.endswith("IntegerField") or kind == "AutoField":
        low, high = connection.ops.integer_field_range(kind)
        base = Annotated[StrictInt, Field(ge=low if low is not None else -(2**63),
                                          le=high if high is not None else 2**63 - 1)]  # fmt: skip
    elif kind == "BooleanField":
        base = StrictBool
    elif kind == "FloatField":
        base = StrictFloat | StrictInt
    elif kind == "DateTimeField":
        base = Annotated[StrictStr, Field(max_length=40), _moment(dt.datetime)]
    elif kind == "DateField":
        base = Annotated[StrictStr, Field(max_length=10), _moment(dt.date)]
    elif kind == "TimeField":
        base = Annotated[StrictStr, Field(max_length=20), _moment(dt.time)]
    elif kind == "JSONField":
        base = JsonValue  # its depth is bounded with the file's
    else:  # decimals, durations, UUIDs...: a bounded text Django's deserializer reads
        base = Annotated[StrictStr, Field(max_length=64)] | StrictInt | StrictFloat
    if field.choices:
        allowed = {value for value, _label in field.flatchoices} | ({""} if field.blank else set())
        base = Annotated[base, _in(frozenset(allowed))]
    return base | None if field.null else base


Strict = ConfigDict(extra="forbid", strict=True)


@cache
def row_schema(model: type[models.Model], retired: tuple[str, ...] = ()) -> TypeAdapter:
    """The rows of ``model`` in a backup: ``[{"pk": n, "fields": {...}}, ...]``. A field
    missing keeps its default (an older backup); one the model lacks is refused; the
    ``retired`` fields of older versions are let through for the importer to judge."""
    fields: dict[str, Any] = {
        f.name: (_annotation(f), None)
        for f in model._meta.concrete_fields if not (f.primary_key and not f.is_relation)
    }  # fmt: skip
    for f in model._meta.many_to_many:
        fields[f.name] = (Annotated[list[_reference(f)], Field(max_length=MAX_ROWS)], None)
    for name in retired:
        fields[name] = (Annotated[StrictStr, Field(max_length=MAX_BACKUP_BYTES)] | None, None)
    label = model._meta.label_lower
    values = create_model(f"Fields_{label.replace('.', '_')}", __config__=Strict, **fields)
    row = create_model(
        f"Row_{label.replace('.', '_')}", __config__=Strict,
        pk=(Annotated[StrictInt, Field(ge=1, le=2**63 - 1)] | None, None), fields=(values, ...),
    )  # fmt: skip
    return TypeAdapter(Annotated[list[row], Field(max_length=MAX_ROWS)])


class Envelope(BaseModel):
    """What surrounds the rows; the rows of each model are checked by ``row_schema``."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["tabula.game"]
    version: StrictInt
    exported_at: Annotated[StrictStr, Field(max_length=40)] | None = None
    game: dict[Annotated[StrictStr, Field(max_length=40)], JsonValue] | None = None
    links: StrictBool = False
    sealed: list[JsonValue] = Field(default_factory=list, max_length=MAX_ROWS)
    rows: dict[Annotated[StrictStr, Field(max_length=80)], list[JsonValue]]


PROBLEMS = {
    "string_too_long": "troppo lungo",
    "too_long": "troppe voci",
    "missing": "manca",
    "extra_forbidden": "campo sconosciuto",
    "literal_error": "valore non ammesso",
    "greater_than_equal": "fuori intervallo",
    "less_than_equal": "fuori intervallo",
}


def _problem(error: Any) -> str:
    kind = error["type"]
    if kind in PROBLEMS:
        return _(PROBLEMS[kind])
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return _("tipo sbagliato")
    context = error.get("ctx") or {}
    if "moment" in str(context.get("error", "")):
        return _("data o ora non valida")
    if "choice" in str(context.get("error", "")):
        return _("valore non ammesso")
    return _("valore non valido")


def _where(prefix: str, loc: tuple[Any, ...]) -> str:
    """``games.player[3].name`` from a pydantic location under ``prefix``."""
    text = prefix
    for part in loc:
        if part == "fields":
            continue
        if isinstance(part, int):
            text += f"[{part}]"
        elif not str(part).startswith(("function-", "json-or-python")) and "[" not in str(part):
            text += f".{part}" if text else str(part)
    return text


def refusal(error: SchemaError, prefix: str = "") -> ValidationError:
    """The first bad field of a backup, named, with what is wrong with it."""
    first = error.errors(include_url=False)[0]
    return ValidationError(
        _("Il backup non è valido: %(where)s: %(problem)s.")
        % {"where": _where(prefix, first["loc"]), "problem": _problem(first)}
    )


def check_envelope(document: dict[str, Any]) -> None:
    try:
        Envelope.model_validate(document)
    except SchemaError as exc:
        raise refusal(exc) from exc


def check_rows(label: str, model: type[models.Model], rows: Any, retired: tuple[str, ...]) -> None:
    """The rows of one known model, against its schema."""
    try:
        row_schema(model, retired).validate_python(rows)
    except SchemaError as exc:
        raise refusal(exc, label) from exc
