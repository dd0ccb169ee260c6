"""The GM's submission list, a page of it as HTML table rows (``{% submission_rows %}``).

Drawn here rather than with template tags, as games/vote_form.py draws the vote form: the
page lists fifty rows of a dozen values each, which cost the template engine more than
the rest of the board. Escaped as the templates escape: every value through
``conditional_escape``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone
from django.utils.translation import gettext as _

from games.engine import rules_for
from games.forms_player import ability_label
from games.models import Game, Player, Submission
from roles.engine.announce import role_name

# The columns a row shows, read as named tuples (no model, no join: the players are the
# board's, the few GMs who entered a row are read apart).
LISTED = ("pk", "player_id", "kind", "slot", "target_id", "during", "fake_role", "abstain",
          "at", "entered_by_id", "reason", "superseded_at", "superseded_reason")  # fmt: skip
_SENTINEL = 987654321  # a submission id, replaced in the edit link's reversed URL


def _esc(value: Any) -> str:
    return str(conditional_escape(value))


def _entered_by(rows: list[Any]) -> dict[int, str]:
    """The accounts that entered some of ``rows`` (a GM for a player), as ``{{ user }}``
    shows them."""
    ids = {row.entered_by_id for row in rows if row.entered_by_id is not None}
    if not ids:
        return {}
    return {pk: str(user) for pk, user in get_user_model().objects.in_bulk(ids).items()}


def submission_rows_html(rows: Iterable[Any], game: Game, players: dict[int, Player]) -> SafeString:
    """The table rows of ``rows`` (``LISTED`` named tuples, newest first), with the game's
    ``players`` by id; a row of its own when there is none."""
    rows = list(rows)
    if not rows:
        return mark_safe(f'<tr><td colspan="4" class="muted">{_esc(_("Nessun invio."))}</td></tr>')
    entered = _entered_by(rows)
    kinds = {value: _esc(label) for value, label in Submission.Kind.choices}
    player_word, fix, abstained = _esc(_("giocatore")), _esc(_("Correggi")), _esc(_("astensione"))
    edit = reverse("games:submission_edit", args=[game.pk, _SENTINEL])
    edit_head, edit_tail = edit.rsplit(str(_SENTINEL), 1)
    setup, zone = game.setup, get_current_timezone()
    rules = rules_for(game)
    out = []
    for row in rows:
        struck = row.superseded_at is not None
        local = row.at.astimezone(zone)
        at = f"{local.hour:02d}:{local.minute:02d}:{local.second:02d}"
        parts = [kinds.get(row.kind, _esc(row.kind))]
        if row.slot:
            parts.append(f" ({_esc(ability_label(rules, row.slot))})")
        if row.target_id is not None:
            parts.append(f": {_esc(players[row.target_id].name)}")
        elif row.fake_role:
            parts.append(f": {_esc(role_name(row.fake_role, setup))}")
        else:
            parts.append(": —")
        if row.during:
            parts.append(f" · {_esc(role_name(row.during, setup))}")
        if row.abstain:
            parts.append(f" · {abstained}")
        if row.entered_by_id in entered:
            by = f"{_esc(entered[row.entered_by_id])} — {_esc(row.reason)}"
        else:
            by = player_word
        name, what = _esc(players[row.player_id].name), "".join(parts)
        if struck:
            out.append(
                f'\n      <tr id="submission-{row.pk}" class="superseded"><td><s>{at}</s></td>'
                f"<td>{name}</td>\n        <td><s>{what}</s>"
                f' <span class="muted">{_esc(row.superseded_reason)}</span></td>\n'
                f"        <td>{by}</td></tr>\n    "
            )
        else:
            link = f'<a href="{edit_head}{row.pk}{edit_tail}">{fix}</a>'
            out.append(
                f'\n      <tr id="submission-{row.pk}"><td>{at}</td><td>{name}</td>\n'
                f"        <td>{what}</td>\n        <td>{by} {link}</td></tr>\n    "
            )
    return mark_safe("".join(out))  # every value above is escaped
