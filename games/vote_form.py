"""The player's vote form, as HTML: on his page (``{% vote_form form %}``) and alone as
the htmx answer to a vote, the hottest request of the site, where Django's template
engine cost a vote more than its database work. Escaped as the templates escape."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.forms_player import VoteForm

CSRF_INPUT = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'


def _esc(value: Any) -> str:
    """``value`` escaped as the templates escape it (a plain string, a name, the quickest)."""
    if type(value) is str:
        return html.escape(value)
    return str(conditional_escape(value))


def csrf_input(token: Any) -> str:
    """What ``{% csrf_token %}`` writes for ``token`` (the context's ``csrf_token``)."""
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html(CSRF_INPUT, token)


_URLS: dict[str, str] = {}  # the form's address under each script prefix


def _vote_url() -> str:
    prefix = get_script_prefix()
    url = _URLS.get(prefix)
    if url is None:
        url = _URLS[prefix] = reverse("player_vote")
    return url


# The escaped option tags of a list of targets (a game's living players: the same list
# for every vote of a phase), each as its name, its tag up to where " selected" goes and
# the rest.
_OPTIONS: dict[tuple[str, ...], tuple[tuple[str, str, str], ...]] = {}
OPTIONS_KEPT = 512


def _options(targets: Sequence[str]) -> tuple[tuple[str, str, str], ...]:
    key = tuple(targets)
    found = _OPTIONS.get(key)
    if found is None:
        if len(_OPTIONS) >= OPTIONS_KEPT:
            _OPTIONS.clear()
        found = _OPTIONS[key] = tuple(
            (name, f'<option value="{_esc(name)}"', f">{_esc(name)}</option>") for name in key
        )
    return found


def vote_form_html(form: VoteForm, csrf_token: Any, saved: str = "") -> SafeString:
    """The form for ``form``, with the confirmation ``saved`` when there is one."""
    url = _vote_url()
    current = form.current
    chosen = current.target.name if current is not None and current.target_id else None
    out = [
        f'\n    <form method="post" action="{url}" class="card vote" hx-post="{url}"'
        f' hx-target="this" hx-swap="outerHTML">{csrf_input(csrf_token)}\n      ',
    ]
    if saved:
        out.append(f'<p class="notice ok" role="status">{_esc(saved)}</p>')
    out.append(f'\n      <input type="hidden" name="phase" value="{_esc(form.phase.pk)}">\n      ')
    if form.secret:
        out.append('<input type="hidden" name="secret" value="1">')
    heading = _("Voto segreto (solo il master lo vede)") if form.secret else _("Voto per il rogo")
    out.append(
        f'\n      <label>{_esc(heading)}\n        <select name="target">\n'
        f'          <option value="">{_esc(_("— nessuno (ritira il voto) —"))}</option>\n'
        "          "
    )
    for name, opening, closing in _options(form.targets):
        out.append(f"{opening} selected{closing}" if chosen == name else opening + closing)
    out.append("\n        </select>\n      </label>\n      ")
    if form.secret:
        checked = " checked" if current is not None and current.abstain else ""
        out.append(
            f'<label class="option"><input type="checkbox" name="abstain" value="1"{checked}>'
            f" {_esc(_('Astieniti in segreto (il voto pubblico non vale)'))}</label>"
        )
    out.append("\n      ")
    if current is not None:
        voted = chosen or _("nessuno")
        at = timezone.localtime(current.at).strftime("%H:%M")  # the date filter's "H:i"
        out.append(f'<p class="muted">{_esc(_("Voto attuale"))}: {_esc(voted)} ({at})</p>')
    out.append(f'\n      <button type="submit">{_esc(_("Vota"))}</button>\n    </form>')
    return mark_safe("".join(out))  # every value above is escaped
