"""Games and their players. The rules live in ``roles``; these rows persist the engine's
inputs (the deal, the seed, the options, what players submit) and its outputs (private
results, deaths, announcements)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("In corso")
        FINISHED = "finished", _("Conclusa")

    class Language(models.TextChoices):
        ITALIAN = "it", "Italiano"
        ENGLISH = "en", "English"

    name = models.CharField(_("nome"), max_length=120)
    setup = models.CharField(_("setup"), max_length=60)
    seed = models.BigIntegerField(_("seme"), help_text=_("Fissa ogni estrazione casuale."))
    options = models.JSONField(_("opzioni"), default=dict, blank=True)
    draws = models.JSONField(_("estrazioni"), default=dict, blank=True)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games", verbose_name="GM"
    )
    status = models.CharField(
        _("stato"), max_length=12, choices=Status.choices, default=Status.RUNNING
    )
    language = models.CharField(
        _("lingua degli annunci"), max_length=2, choices=Language.choices, default="it"
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
    """A seat at the table. A substitution changes the name and the link, not the seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("nome sul forum"), max_length=80)
    seat = models.PositiveSmallIntegerField(_("posto"))
    role = models.CharField(_("ruolo"), max_length=40)
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    token_issued_at = models.DateTimeField(null=True, blank=True)

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


class Result(models.Model):
    """One piece of private information the engine gave a player (roles/replay spec)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    phase = models.CharField(_("fase"), max_length=8)  # "setup", "N0", "D1", ...
    to = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(max_length=24)
    about = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    value = models.JSONField(null=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "order"]
        indexes = [models.Index(fields=["to", "order"])]

    def __str__(self) -> str:
        return f"{self.phase} {self.kind} → {self.to_id}"


class AuditEvent(models.Model):
    """Who did what, when: every submission, GM edit, override, commit and undo."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True)
    kind = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.kind}"
