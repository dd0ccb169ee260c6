"""Backup and restore: a whole game as one JSON file, and back.

The file holds every row that belongs to the game, found from the relations rather than
from a list kept by hand: the game, every model with a foreign key to it, and every model
with a foreign key to one of those (players, phases, submissions, wills, results, the
audit log, and whatever other models a later version ties to a game). Rows are written by
Django's serialization framework, so every field is carried, new ones included.

Imported on another site (or the same one), the rows get new primary keys and every
reference between them is renumbered; references to users (the GM, who entered a vote)
point to the importing GM. Private links are not carried unless the GM asks: by default
the imported players have no valid link and the GM issues new ones. A choice still sealed
(a Time Car Bandit's hiding spot before its reveal) is never carried: the file lists what
it left out, and in the imported game the Bandit chooses again (issue 27 §2).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import RuleViolation, SetupError, load_setup, rebuild
from games.models import Game, Player
from games.registry import desk_replay, desk_setups, sealed_rows
from games.services.backup_schema import check_envelope, check_rows, load_json
from games.services.game import audit
from games.text.words import refusal_line

FORMAT = "tabula.game"
FORMAT_VERSION = 1
# Fields that open a game to whoever holds an old link: carried only when the GM asks.
LINK_FIELDS = {"games.player": ("token_hash", "token_issued_at")}
# Fields of older versions' backups that this site no longer has: accepted only empty.
# A phase's "snapshot" was the engine's state as a pickle: bytes that run code when read,
# so a backup that carries one is refused, never read.
RETIRED_FIELDS = {"games.phase": ("snapshot", "snapshot_rules")}
SEALED_NOTE = (
    "A sealed choice not yet revealed (a Time Car Bandit's hiding spot) is not in this "
    "backup: in the imported game the Bandit chooses again."
)


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _links_to(model: type[models.Model], owned: Iterable[type[models.Model]]) -> list[Any]:
    """The concrete foreign keys (and one-to-ones) of ``model`` to any of ``owned``."""
    targets = set(owned)
    return [
        f for f in model._meta.concrete_fields
        if (f.many_to_one or f.one_to_one) and f.related_model in targets
    ]  # fmt: skip


@dataclass
class Owned:
    """A model whose rows belong to a game, and the lookup from its rows to the game."""

    model: type[models.Model]
    path: str  # "pk" for Game, "game", "phase__game", "player__game", ...
    links: list[Any] = field(default_factory=list)  # foreign keys to owned models

    def rows(self, game: Game) -> models.QuerySet:
        # the base manager: every row, superseded submissions included
        return self.model._base_manager.filter(**{self.path: game.pk}).order_by("pk")


def owned_models() -> list[Owned]:
    """Every model whose rows belong to a game, in an order where each row's non-null
    references to other owned rows come before it (the game first)."""
    found: dict[type[models.Model], Owned] = {Game: Owned(Game, "pk")}
    candidates = [m for m in apps.get_models() if m is not Game]
    grew = True
    while grew:  # a model tied to an owned model is owned (Submission → Phase → Game)
        grew = False
        for model in candidates:
            if model in found:
                continue
            links = _links_to(model, found)
            if not links:
                continue
            best = min(links, key=lambda f: (f.null, found[f.related_model].path.count("__")))
            parent = found[best.related_model].path
            path = best.name if parent == "pk" else f"{best.name}__{parent}"
            found[model] = Owned(model, path)
            grew = True
    for owned in found.values():
        owned.links = _links_to(owned.model, found)
    ordered: list[Owned] = []
    placed: set[type[models.Model]] = set()
    while len(ordered) < len(found):  # required references first; nullable ones may wait
        ready = [
            o for o in found.values() if o.model not in placed
            and all(f.null or f.related_model in placed or f.related_model is o.model
                    for f in o.links)
        ]  # fmt: skip
        if not ready:
            raise RuntimeError("the game's models reference each other in a required cycle")
        for owned in ready:
            ordered.append(owned)
            placed.add(owned.model)
    return ordered


def game_export(game: Game, *, keep_links: bool = False) -> dict[str, Any]:
    """The whole game as one JSON-ready document (format ``tabula.game``)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    sealed = sealed_rows(game)
    for owned in owned_models():
        left_out = sealed.get(_label(owned.model), set())
        records = serializers.serialize(
            "python", owned.rows(game).exclude(pk__in=left_out), use_natural_foreign_keys=True
        )
        hidden = () if keep_links else LINK_FIELDS.get(_label(owned.model), ())
        for record in records:
            record.pop("model")
            for name in hidden:
                record["fields"][name] = None
        rows[_label(owned.model)] = records
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "game": {"name": game.name, "setup": game.setup},
        "links": keep_links,
        # a choice still sealed (ADT-R15) is left out, and the file says so
        "sealed": [
            {"model": label, "pk": pk, "note": SEALED_NOTE}
            for label, pks in sealed.items()
            for pk in sorted(pks)
        ],
        "rows": rows,
    }


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (the order of the votes)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


def game_export_json(game: Game, *, keep_links: bool = False) -> str:
    """The backup file's text."""
    return json.dumps(game_export(game, keep_links=keep_links), cls=_Encoder,
                      ensure_ascii=False, indent=1)  # fmt: skip


def parse_backup(raw: bytes | str) -> dict[str, Any]:
    """The document in a backup file, or a ValidationError saying what is wrong with it:
    bounded in size and depth before it is parsed, then checked against the schema."""
    document = load_json(raw)
    validate_document(document)
    return document


def validate_document(document: Any) -> None:
    """The document's shape: our format, a version this site reads, one game, and every
    row of every model this site knows against that model's schema (``backup_schema``)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValidationError(_("Questo file non è un backup di una partita di Tabula."))
    version = document.get("version")
    if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise ValidationError(
            _("Versione del backup non supportata: %(version)s (questo sito legge fino alla "
              "%(max)s).") % {"version": str(version)[:20], "max": FORMAT_VERSION}
        )  # fmt: skip
    rows = document.get("rows")
    if not isinstance(rows, dict) or not all(isinstance(v, list) for v in rows.values()):
        raise ValidationError(_("Il backup è incompleto: mancano le righe della partita."))
    check_envelope(document)
    if len(rows.get("games.game", [])) != 1:
        raise ValidationError(_("Il backup deve contenere esattamente una partita."))
    known = {_label(o.model): o.model for o in owned_models()}
    for label, records in rows.items():
        if label in known:  # an unknown model is refused by name in _check
            check_rows(label, known[label], records, RETIRED_FIELDS.get(label, ()))


def _check(rows: dict[str, Any], gm: AbstractBaseUser, name: str) -> list[Owned]:
    """What makes a valid file unusable here: models or a setup this site does not know,
    a name the GM already uses, links already in use."""
    order = owned_models()
    unknown = sorted(set(rows) - {_label(o.model) for o in order})
    if unknown:
        raise ValidationError(
            _("Il backup contiene dati che questo sito non conosce (%(models)s): è stato fatto "
              "con una versione più recente di Tabula.") % {"models": ", ".join(unknown)}
        )  # fmt: skip
    setup = rows["games.game"][0]["fields"].get("setup")
    try:
        if setup not in desk_setups():  # a referee desk's game is its event log
            load_setup(str(setup))
    except (SetupError, ValueError, OSError) as exc:
        raise ValidationError(_("Setup sconosciuto: %(setup)s.") % {"setup": setup}) from exc
    if Game.objects.filter(gm=gm, name=name).exists():
        raise ValidationError(
            _("Hai già una partita che si chiama «%(name)s»: scegli un altro nome per questa.")
            % {"name": name}
        )
    hashes = [r["fields"].get("token_hash") for r in rows.get("games.player", [])]
    if Player.objects.filter(token_hash__in=[h for h in hashes if h]).exists():
        raise ValidationError(
            _("I link privati di questo backup sono già in uso su questo sito: esporta di nuovo "
              "la partita senza i link.")
        )  # fmt: skip
    return order


class _Renumber:
    """The new primary keys of the imported rows, by model and old key."""

    def __init__(self, gm: AbstractBaseUser, owned: list[Owned]) -> None:
        self.gm = gm
        self.owned = {o.model for o in owned}
        self.done: set[type[models.Model]] = set()
        self.new: dict[type[models.Model], dict[Any, Any]] = {}

    def ready(self, f: Any) -> bool:
        """Whether a reference can be written now (its target's rows all have new keys)."""
        return f.related_model not in self.owned or f.related_model in self.done

    def value(self, f: Any, old: Any, label: str) -> Any:
        if old is None:
            return None
        if f.related_model is get_user_model():  # the GM, or whoever entered a vote
            return self.gm.pk
        if f.related_model not in self.owned:  # outside the game: kept (a natural key)
            return old
        target = self.new.get(f.related_model, {})
        if old not in target:
            raise ValidationError(
                _("Il backup è incompleto: %(model)s rimanda a una riga che non contiene.")
                % {"model": label}
            )
        return target[old]


@transaction.atomic
def game_import(document: dict[str, Any], *, gm: AbstractBaseUser, name: str | None = None) -> Game:
    """Create the game of a backup document for ``gm``, all or nothing: the same phases,
    submissions, wills, results and audit log, renumbered, and checked by rebuilding the
    engine's state from them."""
    validate_document(document)
    rows = document["rows"]
    game_fields = rows["games.game"][0]["fields"]
    name = str(name or game_fields.get("name") or "").strip()
    if not name:
        raise ValidationError(_("Serve un nome per la partita."))
    order = _check(rows, gm, name)
    renumber = _Renumber(gm, order)
    deferred: list[tuple[type[models.Model], Any, Any, Any]] = []  # model, field, old pk, ref
    for owned in order:
        label = _label(owned.model)
        mapping = renumber.new.setdefault(owned.model, {})
        for record in rows.get(label, []):
            data = _without_retired(label, dict(record["fields"]))
            if owned.model is Game:
                data["name"] = name
            for f in owned.model._meta.concrete_fields:
                if not f.is_relation or f.name not in data:
                    continue
                if not renumber.ready(f):  # a nullable reference forward, or to itself
                    deferred.append((owned.model, f, record.get("pk"), data[f.name]))
                    data[f.name] = None
                else:
                    data[f.name] = renumber.value(f, data[f.name], label)
            for f in owned.model._meta.many_to_many:
                if f.name in data:
                    data[f.name] = [renumber.value(f, v, label) for v in data[f.name]]
            key = owned.model._meta.pk  # a row keyed by its game (a one-to-one) keeps that link
            new_pk = renumber.value(key, record.get("pk"), label) if key.is_relation else None
            built = _build(owned.model, data, label, new_pk)
            try:
                built.save()  # raw: auto_now fields keep the exported times
            except IntegrityError as exc:
                raise ValidationError(
                    _("Il backup contiene righe in conflitto in %(model)s: %(error)s")
                    % {"model": label, "error": exc}
                ) from exc
            mapping[record.get("pk")] = built.object.pk
        renumber.done.add(owned.model)
    for model, f, old_pk, old_value in deferred:
        value = renumber.value(f, old_value, _label(model))
        model._default_manager.filter(pk=renumber.new[model][old_pk]).update(**{f.attname: value})
    game = Game.objects.get(pk=renumber.new[Game][rows["games.game"][0].get("pk")])
    try:
        if game.setup not in desk_setups():  # a Werewolf game: its engine state replays
            rebuild(game)
        else:  # a desk game: its log replays through the desk's referee
            desk_replay(game)
    except (RuleViolation, KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        werewolf = isinstance(exc, RuleViolation) and game.setup not in desk_setups()
        error = refusal_line(exc, game.setup) if werewolf else exc
        raise ValidationError(
            _("La partita del backup non si lascia ricostruire: %(error)s") % {"error": error}
        ) from exc
    audit(game, "game_imported", user=gm, exported_at=document.get("exported_at"),
          links=bool(document.get("links")))  # fmt: skip
    return game


def _without_retired(label: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the fields of older versions (empty ones only: a stored engine
    state is refused, see ``RETIRED_FIELDS``)."""
    for name in RETIRED_FIELDS.get(label, ()):
        if name not in data:
            continue
        if data.pop(name) not in (None, ""):
            raise ValidationError(
                _("Il backup contiene uno stato del motore salvato come codice eseguibile "
                  "(%(field)s): questo sito non lo accetta. Esporta di nuovo la partita con "
                  "questa versione di Tabula.") % {"field": f"{label}.{name}"}
            )  # fmt: skip
    return data


def _build(model: type[models.Model], data: dict[str, Any], label: str, pk: Any = None) -> Any:
    """One unsaved row from its serialized fields (Django's deserializer does the types)."""
    for key in data:
        try:
            model._meta.get_field(key)
        except FieldDoesNotExist as exc:
            raise ValidationError(
                _("Il backup contiene un campo che questo sito non conosce: %(field)s.")
                % {"field": f"{label}.{key}"}
            ) from exc
    record = {"model": label, "pk": pk, "fields": data}
    try:
        (obj,) = serializers.deserialize("python", [record])
    except (DeserializationError, ObjectDoesNotExist, ValueError, TypeError) as exc:
        raise ValidationError(
            _("Il backup contiene un valore non valido in %(model)s: %(error)s")
            % {"model": label, "error": exc}
        ) from exc
    return obj
