"""The balance lab's rows (docs/balance.md): a study and the partial aggregates of its
chunks, each stored by the Celery task that played it; the study merges them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class BalanceStudy(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("In coda")
        RUNNING = "running", _("In corso")
        MERGING = "merging", _("In chiusura")
        DONE = "done", _("Conclusa")
        CANCELLED = "cancelled", _("Annullata")
        FAILED = "failed", _("Non riuscita")

    class Failure(models.TextChoices):
        BROKER = "broker", _("la coda dei lavori (Redis) non era raggiungibile: riprova più tardi")
        ENGINE = "engine", _("il modello dei giocatori non sa giocare queste opzioni")
        LOST = "lost", _("i suoi lavori sono andati persi (Redis riavviato o svuotato)")

    ACTIVE = (Status.QUEUED, Status.RUNNING, Status.MERGING)  # what counts against a GM

    class Model(models.TextChoices):
        RANDOM = "random", _("Casuale")
        INFORMED = "informed", _("Informato")

    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="balance_studies"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    touched_at = models.DateTimeField(null=True, blank=True)  # its last publish or chunk
    finished_at = models.DateTimeField(null=True, blank=True)
    setup = models.CharField(max_length=40)
    model = models.CharField(max_length=12, choices=Model.choices, default=Model.RANDOM)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=0)
    variant = models.JSONField()  # roles.balance.study.Variant.as_dict()
    versus = models.JSONField(null=True, blank=True)  # the second variant, if any
    chunks = models.PositiveIntegerField()  # per variant
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    figures = models.JSONField(null=True, blank=True)  # the summary (and the comparison)
    failure = models.CharField(max_length=10, choices=Failure.choices, blank=True)

    class Meta:
        db_table = "games_balancestudy"  # the table it had in the games app
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.setup} × {self.games} ({self.model})"

    def get_absolute_url(self) -> str:
        return reverse("balance:detail", args=[self.pk])

    @property
    def chunks_total(self) -> int:
        return self.chunks * (2 if self.versus else 1)


class BalanceChunk(models.Model):
    """One chunk's counters (roles.balance.study.Aggregate.as_dict())."""

    study = models.ForeignKey(BalanceStudy, on_delete=models.CASCADE, related_name="parts")
    variant = models.PositiveSmallIntegerField()  # 0: the study's variant, 1: the second
    index = models.PositiveIntegerField()
    aggregate = models.JSONField()

    class Meta:
        db_table = "games_balancechunk"  # the table it had in the games app
        constraints = [
            models.UniqueConstraint(fields=["study", "variant", "index"], name="one_chunk_once")
        ]

    def __str__(self) -> str:
        return f"{self.study_id}/{self.variant}/{self.index}"
