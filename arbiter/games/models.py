"""Games of an event's rounds, with their position as the rules engine left it, and their moves."""

from django.conf import settings
from django.db import models

from arbiter.events.models import Player, Round
from clocks.models import Clock
from rules.outcome import Termination

START_FEN = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"


class Game(models.Model):
    class Result(models.TextChoices):
        PENDING = "", "Not played yet"
        WHITE_WINS = "2-0", "2-0"
        DRAW = "1-1", "1-1"
        BLACK_WINS = "0-2", "0-2"
        WHITE_FORFEIT_WIN = "+/-", "+/- (black forfeits)"
        BLACK_FORFEIT_WIN = "-/+", "-/+ (white forfeits)"
        DOUBLE_FORFEIT = "-/-", "-/- (both forfeit)"
        BYE = "bye", "Bye"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    # A bye is a game with `white` set, `black` empty and result "bye".
    white = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="games_as_white"
    )
    black = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="games_as_black"
    )
    result = models.CharField(
        max_length=4, choices=Result.choices, default=Result.PENDING, blank=True
    )
    termination = models.CharField(
        max_length=20, choices=[(t.value, t.label) for t in Termination], blank=True
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    pairing_note = models.JSONField(
        default=dict,
        blank=True,
        help_text="Why this pairing: score groups, floats, colour preferences.",
    )
    # The position as the rules engine left it after `ply` plies.
    start_fen = models.CharField(max_length=200, default=START_FEN)
    fen = models.CharField(max_length=200, default=START_FEN)
    ply = models.PositiveIntegerField(default=0)
    rules_state = models.JSONField(
        default=dict, blank=True, help_text="The engine's draw-rule counters and position history."
    )
    clock = models.OneToOneField(
        Clock, null=True, blank=True, on_delete=models.SET_NULL, related_name="game"
    )
    # A flag that fell (time exceeded): recorded once, by the one flag-fall service. Under the
    # event's "claim" policy the game stays open with the flag recorded until it is claimed.
    flag_side = models.CharField(
        max_length=5, choices=[("white", "White"), ("black", "Black")], blank=True
    )
    flag_at = models.DateTimeField(
        null=True, blank=True, help_text="When the flagged side's time ran out (the deadline)."
    )
    white_arrived_at = models.DateTimeField(null=True, blank=True)
    black_arrived_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "board"]
        constraints = [models.UniqueConstraint(fields=["round", "board"], name="unique_game_board")]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}: {self.white} - {self.black or 'bye'}"


class Move(models.Model):
    """One accepted ply, with the position after it and both clocks as they read after it.

    `response` keeps the answer given when the move was accepted (without the move list, which
    the rows themselves rebuild), so that a repeated `request_id` gets the first answer again.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="move_set")
    ply = models.PositiveIntegerField(help_text="1 for White's first move, 2 for Black's, ...")
    notation = models.CharField(max_length=200)
    fen_after = models.CharField(max_length=200)
    white_ms = models.BigIntegerField(null=True, blank=True)
    black_ms = models.BigIntegerField(null=True, blank=True)
    played_at = models.DateTimeField()
    request_id = models.CharField(max_length=100, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    response = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_move_ply"),
            models.UniqueConstraint(
                fields=["game", "request_id"],
                condition=~models.Q(request_id=""),
                name="unique_move_request_id",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} ply {self.ply}: {self.notation}"


class NotationSheet(models.Model):
    """One version of the written record of a game (FMJD 10.2): a player's sheet, or the
    arbiter's own version (an edit). The checking task fills `report` (rules.notation_sheet:
    the first bad move, the fixes) and `comparison` (with the entered record and the other
    sheets). One version of a game is approved as its official record."""

    class Side(models.TextChoices):
        WHITE = "white", "White's sheet"
        BLACK = "black", "Black's sheet"
        ARBITER = "arbiter", "Arbiter's version"

    class Status(models.TextChoices):
        PENDING = "pending", "Being checked"
        CHECKED = "checked", "Checked: every move legal"
        PROBLEM = "problem", "Checked: a move cannot be played"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sheets")
    side = models.CharField(max_length=7, choices=Side.choices)
    version = models.PositiveIntegerField(help_text="1, 2, ... per game and side.")
    text = models.TextField(help_text="As submitted.")
    reason = models.TextField(blank=True, help_text="Why the arbiter wrote this version.")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    checked_at = models.DateTimeField(null=True, blank=True)
    report = models.JSONField(default=dict, blank=True)
    comparison = models.JSONField(default=dict, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        # by the column: ordering by the relation would join the game's own ordering
        ordering = ["game_id", "side", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side", "version"], name="unique_sheet_version"
            ),
            # FMJD 10.2: one official record per game.
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(approved_at__isnull=False),
                name="one_approved_sheet",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.side} v{self.version}"


class PdnImport(models.Model):
    """A PDN file of many games an arbiter uploaded for an event: read by a task (progress in
    `done` of `total`), each game matched to its pairing; applied only when the arbiter says
    so, conflicting games only where confirmed (services.pdn_import)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be read"
        READING = "reading", "Being read"
        READ = "read", "Read: check the matches, then apply"
        APPLIED = "applied", "Applied"
        FAILED = "failed", "Could not be read"

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="pdn_imports")
    file_name = models.CharField(max_length=200, blank=True)
    text = models.TextField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(default=0, help_text="Games in the file.")
    done = models.PositiveIntegerField(default=0, help_text="Games read so far.")
    report = models.JSONField(default=dict, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at"]

    def __str__(self) -> str:
        return f"{self.file_name or 'PDN'} for event {self.event_id}"
