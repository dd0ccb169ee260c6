"""The referee desks' rows: each desk game is its event log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game, Player


class TableEvent(models.Model):
    """One line of the log of an event-log referee game (BANG! con Il Ribelle!, ...): the
    GM (or a player, from his private page) records what happened at the table; the
    setup's pure referee rebuilds the state from the whole log. Names are kept as seats
    in ``data`` so a substitution renames them. A sealed event is a secret one (a Bandit's
    hiding, ADT-R15): never shown before the reveal, never undone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_events")
    seq = models.PositiveIntegerField()  # 1, 2, 3, ... in the order they were logged
    kind = models.CharField(max_length=24)
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )  # the GM who logged it
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )  # the player who sent it from his own page
    sealed = models.BooleanField(default=False)

    class Meta:
        db_table = "games_tableevent"  # the table it had in the games app
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="table_event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.kind}"
