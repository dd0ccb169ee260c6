"""Games and their players. The rules live in ``roles``; these rows persist inputs and outputs."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("In preparazione")
        RUNNING = "running", _("In corso")
        FINISHED = "finished", _("Conclusa")

    name = models.CharField(_("nome"), max_length=120)
    setup = models.CharField(_("setup"), max_length=60)
    seed = models.BigIntegerField(_("seme"), help_text=_("Fissa ogni estrazione casuale."))
    options = models.JSONField(_("opzioni"), default=dict, blank=True)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games", verbose_name="GM"
    )
    status = models.CharField(
        _("stato"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    time_zone = models.CharField(_("fuso orario"), max_length=64, default="Europe/Rome")
    vote_close_time = models.TimeField(_("chiusura votazione"), default=dt.time(22, 0))
    day_close_time = models.TimeField(_("chiusura giorno"), default=dt.time(22, 15))
    powers_close_time = models.TimeField(_("consegna poteri"), default=dt.time(22, 30))
    created_at = models.DateTimeField(_("creata il"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("partita")
        verbose_name_plural = _("partite")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("nome sul forum"), max_length=80)
    seat = models.PositiveSmallIntegerField(_("posto"))
    role = models.CharField(_("ruolo"), max_length=40, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        verbose_name = _("giocatore")
        verbose_name_plural = _("giocatori")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="player_unique_seat"),
            models.UniqueConstraint(fields=["game", "name"], name="player_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name
