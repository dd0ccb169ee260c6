"""Template tags of the fixing pages (issue 12 §3): the GM's corrections as sentences, and
the kept submissions the rules refused after an undo."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game, KeptSubmission, Phase, Player
from games.services.corrections import override_sentence, step_words
from games.services.kept import refused_notices

register = template.Library()


@register.simple_tag
def override_rows(game: Game, phase: Phase) -> list[dict[str, Any]]:
    """Each correction of ``phase``: its index (for the removal form), seat, kind and the
    sentence in the reader's language."""
    names = dict(game.players.values_list("seat", "name"))
    return [{"index": i, "seat": o.get("seat"), "kind": o.get("kind"),
             "sentence": override_sentence(game, phase.label, o, names)}
            for i, o in enumerate(phase.overrides)]  # fmt: skip


@register.simple_tag
def refused_after_undo(game: Game, player: Player | str | None = None) -> list[KeptSubmission]:
    """The player's refused kept submissions, or every one (the GM's page: no player)."""
    return refused_notices(game, player if isinstance(player, Player) else None)


@register.filter
def step_label(step: str, setup_key: str) -> str:
    """A night step in words, for the GM's correction form (``indiani`` -> "attacco degli
    Indiani")."""
    return step_words(setup_key, step)
