"""Games and their players. The rules live in ``roles``; these rows persist the engine's
inputs (the deal, the seed, the options, what players submit) and its outputs (private
results, deaths, announcements)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
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
    # The rules it was dealt with (Ruleset.version): `manage.py verify_games` replays every
    # game on today's rules and shows what a rules change would move.
    rules_version = models.CharField(_("versione delle regole"), max_length=80, blank=True)
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
    auto_commit_nights = models.BooleanField(
        _("risolvi le notti da solo"), default=False,
        help_text=_("Alla scadenza dei poteri la notte viene risolta senza attendere il master."),
    )  # fmt: skip
    created_at = models.DateTimeField(_("creata il"), auto_now_add=True)
    # The one-time token of the new-game form that dealt it: the same form sent again
    # finds this game instead of dealing a second one (games/services/creation.py). Not
    # serialized: a backup does not carry it, so a game imported twice never clashes.
    creation_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, serialize=False
    )
    # Archived by its GM (issue 31 major 3): off the dashboard, kept whole, restorable.
    # Not serialized: a backup imported is a game the GM wants to see.
    archived_at = models.DateTimeField(_("archiviata il"), null=True, blank=True, serialize=False)

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
    previous_names = models.JSONField(_("nomi precedenti"), default=list, blank=True)

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
        # The players' page asks for a game's latest deadline change on every submission.
        indexes = [models.Index(fields=["game", "kind", "-at"], name="audit_game_kind_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.kind}"


class Phase(models.Model):
    """A night or a day. Its submissions are the engine's input; at commit the engine's
    exact input and output are stored, so the game can always be rebuilt by replay."""

    class Status(models.TextChoices):
        OPEN = "open", _("Aperta")
        CLOSED = "closed", _("Chiusa, in attesa del master")
        COMMITTED = "committed", _("Risolta")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases")
    label = models.CharField(_("fase"), max_length=8)  # N0, D1, N1, ...
    index = models.PositiveIntegerField()  # N0=0, D1=1, N1=2, ...
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(default=timezone.now)
    closes_at = models.DateTimeField(_("scadenza"))
    paused_at = models.DateTimeField(null=True, blank=True)  # the deadline waits while set
    day_ends_at = models.DateTimeField(null=True, blank=True)  # a day: the thread closes
    day_ended_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # After an undo the GM may keep the phase to himself: players' submissions are refused.
    players_closed = models.BooleanField(default=False)
    committed_at = models.DateTimeField(null=True, blank=True)
    opened_by = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="opened"
    )  # the commit that opened this phase (an undo takes it back)
    inputs = models.JSONField(default=dict, blank=True)  # what the engine resolved (at commit)
    overrides = models.JSONField(default=list, blank=True)  # the GM's corrections, with reasons
    outcome = models.JSONField(default=dict, blank=True)  # deaths, execution, trace, posts
    # The public result an undo took back (the one the thread was told), by seat
    # (games/text/rettifica.outcome_summary): the "Rettifica" post compares it with the
    # result that replaces it (issue 31 major 4). Empty until an undo.
    retracted = models.JSONField(default=dict, blank=True)
    # The GM's own words around the generated forum post (narration), kept with the phase.
    post_before = models.TextField(_("testo prima dell'annuncio"), blank=True, max_length=20000)
    post_after = models.TextField(_("testo dopo l'annuncio"), blank=True, max_length=20000)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="phase_unique_index"),
        ]
        indexes = [models.Index(fields=["status", "closes_at"])]

    def __str__(self) -> str:
        return f"{self.game_id} {self.label}"

    @property
    def is_night(self) -> bool:
        return self.label.startswith("N")


class CurrentSubmissions(models.Manager):
    """The submissions that stand: a row the GM corrected or removed, or an action its
    player withdrew, is kept (``Submission.every``) but no longer counts anywhere."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(superseded_at__isnull=True)


class Submission(models.Model):
    """One thing a player sent for a phase: an ability use or a vote event. Nothing is
    ever edited: a new row supersedes (the latest action of a slot counts; votes count in
    their order, with their times). A GM's correction or removal (issue 12 §3) marks the
    row superseded, with the reason: ``objects`` (and ``phase.submissions``) are the
    standing rows the engine and the counts read; ``every`` is the whole history."""

    class Kind(models.TextChoices):
        ACTION = "action", _("Azione")
        VOTE = "vote", _("Voto")
        SECRET_VOTE = "secret", _("Voto segreto")

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="submissions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="submissions")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    slot = models.CharField(max_length=24, blank=True)  # the ability key of an action
    target = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    during = models.CharField(max_length=40, blank=True)
    fake_role = models.CharField(max_length=40, blank=True)
    vision = models.BooleanField(default=False)
    abstain = models.BooleanField(default=False)
    at = models.DateTimeField(default=timezone.now)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )  # the GM, when he enters it on the player's behalf
    reason = models.CharField(max_length=300, blank=True)
    source = models.CharField(
        max_length=8, blank=True, choices=[("topic", _("dal topic"))]
    )  # "topic": read from the forum thread (games/services/topic_votes.py)
    forum_post = models.CharField(max_length=40, blank=True)  # the post's key: read once
    superseded_at = models.DateTimeField(null=True, blank=True)
    superseded_reason = models.CharField(max_length=300, blank=True)  # why (GM or player)
    replaces = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )  # the row this correction supersedes

    every = models.Manager()  # the whole history
    objects = CurrentSubmissions()  # the standing rows (the default manager)

    class Meta:
        ordering = ["phase", "at", "pk"]
        default_manager_name = "objects"
        base_manager_name = "every"
        indexes = [
            models.Index(fields=["phase", "kind", "at"]),
            # the GM's list, newest first, a page at a time (read backwards: no sort)
            models.Index(fields=["phase", "at", "id"], name="submission_phase_time"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.player_id}→{self.target_id}"


class KeptSubmission(models.Model):
    """A submission of a phase that an undo took away (the phase the undone commit had
    opened), kept to come back when that phase opens again (issue 12 §3): restored if the
    rules still allow it then, otherwise refused with the rule's reason, which the player
    and the GM are shown."""

    class Status(models.TextChoices):
        KEPT = "kept", _("In attesa")
        RESTORED = "restored", _("Ripristinato")
        REFUSED = "refused", _("Non più valido")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="kept_submissions")
    phase_index = models.PositiveIntegerField()
    phase_label = models.CharField(max_length=8)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Submission.Kind.choices)
    slot = models.CharField(max_length=24, blank=True)
    target = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    during = models.CharField(max_length=40, blank=True)
    fake_role = models.CharField(max_length=40, blank=True)
    vision = models.BooleanField(default=False)
    abstain = models.BooleanField(default=False)
    at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    reason = models.CharField(max_length=300, blank=True)
    source = models.CharField(max_length=8, blank=True)
    forum_post = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.KEPT)
    refusal = models.CharField(max_length=300, blank=True)  # the rule that refuses it now
    kept_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "phase_index", "at", "pk"]

    def __str__(self) -> str:
        return f"kept {self.kind} {self.player_id} for {self.phase_label}"


class Will(models.Model):
    """A player's will (WWW-R41..R47), kept whole; the engine cuts it when delivered.
    A draft until its dead author hands it in (``handed_in_at``) or its deadline passes;
    then it is frozen (WWW-R46, WWW-D23)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="will")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    handed_in_at = models.DateTimeField(_("consegnato il"), null=True, blank=True)

    def __str__(self) -> str:
        return f"will of {self.player_id}"


class TopicSettings(models.Model):
    """How a game reads votes from its forum thread (issue 12): whether votes are taken
    there (the players' page then says so), the vote syntax, the GM's aliases and the
    GM's own forum names (his posts never count)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="topic")
    votes_from_topic = models.BooleanField(_("i voti si danno nel topic"), default=False)
    vote_lines = models.JSONField(default=list, blank=True)  # ["[b]Voto: Nome[/b]", ...]
    withdraw_lines = models.JSONField(default=list, blank=True)  # ["#ritiro", ...]
    aliases = models.JSONField(default=dict, blank=True)  # written name -> seat
    gm_names = models.JSONField(default=list, blank=True)
    # A vote edited at or after the deadline: refused, the previous one stands (default),
    # or counted with a warning in the preview and the count (issue 28).
    edited_late_counts = models.BooleanField(
        _("un voto modificato dopo la scadenza conta (con un avviso)"), default=False
    )
    # Forum games require each player to post so many times a day (issue 32: the
    # activity table and the prod post name who is under it; 0: no minimum).
    min_posts_per_day = models.PositiveSmallIntegerField(
        _("messaggi minimi al giorno per giocatore"), default=0
    )

    def __str__(self) -> str:
        return f"topic of {self.game_id}"


class FollowedThread(models.Model):
    """A game thread the site reads by itself (issue 32): where, in which readable form,
    and the polite schedule of its reads (the next one, the backoff, the forum's ETag)."""

    class State(models.TextChoices):
        ACTIVE = "active", _("attivo")
        PAUSED = "paused", _("in pausa")
        FAILING = "failing", _("non leggibile")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="followed")
    url = models.URLField(_("indirizzo del topic"), max_length=500)
    form = models.CharField(max_length=20, default="page")  # games.services.follow_http.FORMS
    fmt = models.CharField(max_length=32, blank=True)  # a key of games.forum.PARSERS ("": detect)
    state = models.CharField(max_length=8, choices=State.choices, default=State.ACTIVE)
    reason = models.CharField(max_length=40, blank=True)  # why it is failing: a message id
    detail = models.CharField(max_length=300, blank=True)  # what the forum answered
    page_url = models.URLField(max_length=500, blank=True)  # the last page reached
    etag = models.CharField(max_length=200, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    failures = models.PositiveIntegerField(default=0)  # in a row: the backoff grows with them
    next_read_at = models.DateTimeField(null=True, blank=True, db_index=True)
    last_read_at = models.DateTimeField(null=True, blank=True)
    final_phase = models.ForeignKey(  # the day whose final read (after its deadline) is done
        "Phase", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    auto_commit = models.BooleanField(
        _("risolvi da solo il giorno quando non c'è nulla da decidere"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"followed thread of {self.game_id}"


class ThreadPost(models.Model):
    """A post the site read from a followed thread: read once, kept, and its previous
    text kept when the forum shows it changed (issue 32, edited posts)."""

    thread = models.ForeignKey(FollowedThread, on_delete=models.CASCADE, related_name="posts")
    key = models.CharField(max_length=40)  # author and time: the same post on every read
    author = models.CharField(max_length=200)
    at = models.DateTimeField()
    seconds = models.BooleanField(default=False)
    lines = models.JSONField(default=list)  # its own lines (quotes removed)
    unsure = models.JSONField(default=list, blank=True)
    when_text = models.CharField(max_length=100, blank=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    edit_text = models.CharField(max_length=300, blank=True)
    previous_lines = models.JSONField(default=list, blank=True)  # before the change we saw
    changed_at = models.DateTimeField(null=True, blank=True)  # when we saw it change
    read_at = models.DateTimeField()
    order = models.PositiveIntegerField(default=0)  # its place in the thread

    class Meta:
        constraints = [models.UniqueConstraint(fields=["thread", "key"], name="thread_post_once")]
        indexes = [models.Index(fields=["thread", "at"])]

    def __str__(self) -> str:
        return f"{self.author} {self.at:%Y-%m-%d %H:%M}"


class ThreadRead(models.Model):
    """One request to the forum, as the GM sees it: when, where, what came back."""

    thread = models.ForeignKey(FollowedThread, on_delete=models.CASCADE, related_name="reads")
    at = models.DateTimeField()
    url = models.URLField(max_length=500)
    status = models.PositiveIntegerField(default=0)  # the HTTP status (0: no answer)
    posts_new = models.PositiveIntegerField(default=0)
    posts_changed = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=40, blank=True)  # a message id (failures, final read)
    final = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["thread", "-at"])]

    def __str__(self) -> str:
        return f"{self.url} {self.status}"
