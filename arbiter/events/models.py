"""Events, players, entries and rounds: the tournament's data. Logic lives in services."""

from django.conf import settings
from django.db import models

from arbiter import messages


class Player(models.Model):
    surname = models.CharField(max_length=100)
    given_name = models.CharField(max_length=100, blank=True)
    fmjd_id = models.CharField("FMJD id", max_length=20, blank=True)
    federation = models.CharField(max_length=3, blank=True, help_text="Country code, e.g. NED.")
    rating = models.PositiveIntegerField(null=True, blank=True)
    title = models.CharField(
        max_length=10, blank=True, help_text="GMI, MI, MF, GMIF, MIF, MFF, ..."
    )
    club = models.CharField(max_length=200, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The login of the player, who may then submit sheets and claim draws.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["surname", "given_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["fmjd_id"], condition=~models.Q(fmjd_id=""), name="unique_fmjd_id"
            )
        ]

    def __str__(self) -> str:
        return f"{self.surname}, {self.given_name}" if self.given_name else self.surname


class Event(models.Model):
    class System(models.TextChoices):
        ROUND_ROBIN = "round_robin", messages.label("event.system.round_robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", messages.label("event.system.double_round_robin")
        SWISS = "swiss", messages.label("event.system.swiss")

    class PairingSystem(models.TextChoices):
        # FMJD-style Swiss (arbiter.events.pairing.swiss) or the FIDE Dutch system
        # (arbiter.events.pairing.dutch) for events that announce the FIDE rules.
        FMJD = "fmjd", messages.label("event.pairing_system.fmjd")
        DUTCH = "dutch", messages.label("event.pairing_system.dutch")
        DUTCH_BAKU = "dutch_baku", messages.label("event.pairing_system.dutch_baku")

    class Status(models.TextChoices):
        DRAFT = "draft", messages.label("event.status.draft")
        REGISTRATION = "registration", messages.label("event.status.registration")
        RUNNING = "running", messages.label("event.status.running")
        FINISHED = "finished", messages.label("event.status.finished")

    class FlagPolicy(models.TextChoices):
        # FMJD: a player who exceeds the time limit loses; the plain reading is the default.
        AUTOMATIC = "automatic", messages.label("event.flagpolicy.automatic")
        CLAIM = "claim", messages.label("event.flagpolicy.claim")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    place = models.CharField(max_length=200, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    system = models.CharField(max_length=20, choices=System.choices, default=System.SWISS)
    rounds = models.PositiveSmallIntegerField(default=7, help_text="Number of rounds (Swiss).")
    pairing_system = models.CharField(
        max_length=12,
        choices=PairingSystem.choices,
        default=PairingSystem.FMJD,
        help_text="How Swiss rounds are paired.",
    )
    # Scoring as in draughts: win 2, draw 1, loss 0 (FMJD 7); byes and forfeits configurable.
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    points_bye = models.PositiveSmallIntegerField(default=2)
    points_forfeit_win = models.PositiveSmallIntegerField(default=2)
    tiebreaks = models.JSONField(default=list, blank=True, help_text="Tie-break codes, in order.")
    time_control = models.CharField(
        max_length=100, default="50/7200:25/3600", help_text="PDN TimeControl tag, e.g. 4800+60."
    )
    flag_policy = models.CharField(
        max_length=10, choices=FlagPolicy.choices, default=FlagPolicy.AUTOMATIC
    )
    late_arrival_minutes = models.PositiveSmallIntegerField(default=60)
    # The board's tablet (accounts/devices.py, games/services/presses.py): whether a press
    # must carry the move (checked at once), or charges the clock alone, the moves being
    # filled in later from the notation sheets (FMJD 10.2).
    tablet_moves_required = models.BooleanField(default=True)
    # Network lag credited to each player per game at most (ms): the time a press spent on
    # the hall's network, as the tablet's own measure of the thinking time shows it.
    lag_quota_ms = models.PositiveIntegerField(default=5000)
    # The arbiter's policy for time the system could not take moves (issue 16): credited to
    # the running clocks (the default), or charged to the players as if the system had run.
    downtime_credit = models.BooleanField(
        default=True,
        help_text="Credit the running clocks with the time the system was down (off: charge it).",
    )

    class Numbering(models.TextChoices):
        RATING = "rating", messages.label("event.numbering.rating")
        ENTRY = "entry", messages.label("event.numbering.entry")
        LOT = "lot", messages.label("event.numbering.lot")

    numbering = models.CharField(
        max_length=10,
        choices=Numbering.choices,
        default=Numbering.RATING,
        help_text="How pairing numbers are given when the event starts.",
    )
    pairing_seed = models.CharField(
        max_length=50, blank=True, help_text="Drawn lot for round 1 (empty: by rating)."
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    published = models.BooleanField(default=False)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="organized_events",
    )
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="arbitrated_events"
    )
    # The chief arbiter, one of `arbiters`; the others are deputies.
    chief_arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chief_of_events",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", messages.label("entry.status.active")
        WITHDRAWN = "withdrawn", messages.label("entry.status.withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    pairing_number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    absent_rounds = models.JSONField(default=list, blank=True, help_text="Rounds announced absent.")
    requested_byes = models.JSONField(
        default=list, blank=True, help_text="Rounds with a requested bye."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "pairing_number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_entry_player"),
            models.UniqueConstraint(fields=["event", "pairing_number"], name="unique_entry_number"),
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.pairing_number}. {self.player}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", messages.label("round.status.draft")
        PUBLISHED = "published", messages.label("round.status.published")
        FINISHED = "finished", messages.label("round.status.finished")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    scheduled_start = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    paired_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    warnings = models.JSONField(
        default=list, blank=True, help_text="Rules the pairing breaks (machine or hand-made)."
    )
    stats = models.JSONField(default=dict, blank=True, help_text="Floats, colour exceptions.")

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class AuditEntry(models.Model):
    """Who changed what, when, from what to what, and why (pairings, results, clocks)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit_entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=50)
    target = models.CharField(max_length=200, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.target}"
