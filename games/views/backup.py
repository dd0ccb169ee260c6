"""The GM's backup: download a game as one JSON file, and import one (owned by the GM)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from games.selectors.pages import game_for_gm
from games.services.backup import game_export_json, game_import, parse_backup
from games.services.backup_schema import MAX_BACKUP_BYTES
from games.views.creation import dealt


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File di backup (JSON)"))
    name = forms.CharField(
        label=gettext_lazy("Nuovo nome (facoltativo)"), max_length=120, required=False,
        help_text=gettext_lazy("Se hai già una partita con lo stesso nome."),
    )  # fmt: skip


@never_cache  # a backup holds every secret of the game: no cache keeps a copy
@login_required
def game_backup(request: HttpRequest, pk: int) -> HttpResponse:
    """The game as one JSON file; the private links only when the GM asks (``links=1``)."""
    game = game_for_gm(user=request.user, pk=pk)
    keep_links = request.GET.get("links") == "1"
    response = HttpResponse(game_export_json(game, keep_links=keep_links),
                            content_type="application/json; charset=utf-8")  # fmt: skip
    filename = f"tabula-{slugify(game.name) or game.pk}-backup.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def game_import_view(request: HttpRequest) -> HttpResponse:
    """Upload a backup: the game is created for the GM who imports it, without valid links."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > MAX_BACKUP_BYTES:  # refused before a byte of it is read
                raise ValidationError(_("Il file è troppo grande (massimo %(mb)s MB).")
                                      % {"mb": MAX_BACKUP_BYTES >> 20})  # fmt: skip
            document = parse_backup(upload.read())
            game = game_import(document, gm=request.user, name=form.cleaned_data["name"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            if document.get("sealed"):
                messages.info(request, _("Il backup non conteneva una scelta segreta non ancora "
                                         "rivelata: il Bandito nascosto sceglie di nuovo dove "
                                         "nascondersi."))  # fmt: skip
            if game.players.filter(token_hash__isnull=True).exists():
                # every new link at once, in one never-cached answer, as after a deal; a
                # reload issues none again (issue 30)
                return dealt(request, game, _("Partita importata. I link privati del backup "
                                              "non valgono qui: ecco i nuovi link di tutti i "
                                              "giocatori, copiali ora e mandaglieli."))  # fmt: skip
            messages.success(request, _("Partita importata con i link privati del backup."))
            return redirect(game)
    return render(request, "games/import.html", {"form": form})
