"""Games of an event's rounds, with their position as the rules engine left it, and their moves."""

from django.conf import settings
from django.db import models

from arbiter import messages
from arbiter.events.models import Event, Player, Round
from clocks.models import Clock
from rules import START_FEN
from rules.outcome import Termination


class Game(models.Model):
    class Result(models.TextChoices):
        PENDING = "", messages.label("game.result.pending")
        WHITE_WINS = "2-0", messages.label("game.result.white_wins")
        DRAW = "1-1", messages.label("game.result.draw")
        BLACK_WINS = "0-2", messages.label("game.result.black_wins")
        WHITE_FORFEIT_WIN = "+/-", messages.label("game.result.white_forfeit_win")
        BLACK_FORFEIT_WIN = "-/+", messages.label("game.result.black_forfeit_win")
        DOUBLE_FORFEIT = "-/-", messages.label("game.result.double_forfeit")
        BYE = "bye", messages.label("game.result.bye")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", messages.label("game.status.scheduled")
        RUNNING = "running", messages.label("game.status.running")
        FINISHED = "finished", messages.label("game.status.finished")

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
        max_length=20, choices=[(t.value, messages.termination(t)) for t in Termination], blank=True
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
        max_length=5,
        choices=[("white", messages.label("side.white")), ("black", messages.label("side.black"))],
        blank=True,
    )
    flag_at = models.DateTimeField(
        null=True, blank=True, help_text="When the flagged side's time ran out (the deadline)."
    )
    # A draw offer, claim or irregularity waits for an answer: the move path looks for it only
    # then (one column read with the lock, no query on the moves of other games).
    acts_pending = models.BooleanField(default=False)
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


SIDES = [("white", "White"), ("black", "Black")]


class EndingRules(models.Model):
    """An event's rules for the endings people bring about (FMJD art. 5-7 and the competition
    rules); an event without a row has the defaults, which are the FMJD procedure."""

    class MoveDuringClaim(models.TextChoices):
        CLAIM_FIRST = "claim_first", messages.label("endingrules.moveduringclaim.claim_first")
        REFUSE = "refuse", messages.label("endingrules.moveduringclaim.refuse")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="ending_rules")
    claim_articles = models.JSONField(
        default=list,
        blank=True,
        help_text="Draw rules (of 6.1, 6.2, 6.3, 6.4) that wait for a claim or a ruling instead "
        "of ending the game at once; empty: all end the game automatically.",
    )
    offer_min_moves = models.PositiveSmallIntegerField(
        default=40, help_text="A player may offer a draw once they have played this many moves."
    )
    false_claim_penalty_ms = models.PositiveIntegerField(
        default=0, help_text="Time added to the opponent's clock after a claim refused (ms)."
    )
    move_during_claim = models.CharField(
        max_length=12, choices=MoveDuringClaim.choices, default=MoveDuringClaim.CLAIM_FIRST
    )

    class FlagVsLoneKing(models.TextChoices):
        LOSS = "loss", messages.label("endingrules.flagvsloneking.loss")
        DRAW = "draw", messages.label("endingrules.flagvsloneking.draw")

    flag_vs_lone_king = models.CharField(
        max_length=4, choices=FlagVsLoneKing.choices, default=FlagVsLoneKing.LOSS
    )

    def __str__(self) -> str:
        return f"ending rules of {self.event}"


class DrawOffer(models.Model):
    """FMJD 7.3.1: a draw offered by one player after their move; a move by the opponent
    declines it, acceptance draws the game."""

    class Status(models.TextChoices):
        PENDING = "pending", messages.label("drawoffer.status.pending")
        ACCEPTED = "accepted", messages.label("drawoffer.status.accepted")
        DECLINED = "declined", messages.label("drawoffer.status.declined")
        LAPSED = "lapsed", messages.label("drawoffer.status.lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="draw_offers")
    side = models.CharField(max_length=5, choices=SIDES)
    ply = models.PositiveIntegerField(help_text="The game's ply when the offer was made.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "status"])]

    def __str__(self) -> str:
        return f"draw offer by {self.side} in game {self.game_id} at ply {self.ply}: {self.status}"


class Claim(models.Model):
    """A claim of a draw under FMJD 6.1-6.4 or of the opponent's flag, stored with the request
    and decided by a task (or the sweep) against the game's record under the game's lock."""

    class Status(models.TextChoices):
        PENDING = "pending", messages.label("claim.status.pending")
        GRANTED = "granted", messages.label("claim.status.granted")
        REFUSED = "refused", messages.label("claim.status.refused")

    ARTICLES = ("6.1", "6.2", "6.3", "6.4", "flag")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="claims")
    article = models.CharField(max_length=5, help_text="6.1, 6.2, 6.3, 6.4 or flag.")
    side = models.CharField(
        max_length=5, choices=SIDES, blank=True, help_text="The claimant (empty: the arbiter)."
    )
    flag_side = models.CharField(
        max_length=5, choices=SIDES, blank=True, help_text="A flag claim: whose flag."
    )
    ply = models.PositiveIntegerField(help_text="The game's ply when the claim was made.")
    request_id = models.CharField(max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    code = models.CharField(max_length=30, blank=True)
    explanation = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["status", "created_at"])]
        constraints = [
            models.UniqueConstraint(fields=["game", "request_id"], name="unique_claim_request_id")
        ]

    def __str__(self) -> str:
        return f"claim {self.article} in game {self.game_id} at ply {self.ply}: {self.status}"


class Irregularity(models.Model):
    """An irregularity of FMJD 5.4 recorded by the arbiter; only the opponent of the player
    who committed it decides: rectified, or maintained (a move of theirs accepts it, 5.7)."""

    class Kind(models.TextChoices):
        PLAYED_TWICE = "played_twice", messages.label("irregularity.kind.played_twice")
        IRREGULAR_MOVE = "irregular_move", messages.label("irregularity.kind.irregular_move")
        TOUCHED_OTHER = "touched_other", messages.label("irregularity.kind.touched_other")
        TOOK_BACK = "took_back", messages.label("irregularity.kind.took_back")
        MOVED_OPPONENT_PIECE = (
            "moved_opponent_piece",
            messages.label("irregularity.kind.moved_opponent_piece"),
        )
        NOT_CAPTURING = "not_capturing", messages.label("irregularity.kind.not_capturing")
        WRONG_CAPTURE_COUNT = (
            "wrong_capture_count",
            messages.label("irregularity.kind.wrong_capture_count"),
        )
        STOPPED_CAPTURE = "stopped_capture", messages.label("irregularity.kind.stopped_capture")
        REMOVED_WRONGLY = "removed_wrongly", messages.label("irregularity.kind.removed_wrongly")
        NOT_CROWNED = "not_crowned", messages.label("irregularity.kind.not_crowned")
        UNCROWNED_KING = "uncrowned_king", messages.label("irregularity.kind.uncrowned_king")
        TWO_HANDS = "two_hands", messages.label("irregularity.kind.two_hands")

    class Status(models.TextChoices):
        PENDING = "pending", messages.label("irregularity.status.pending")
        RECTIFIED = "rectified", messages.label("irregularity.status.rectified")
        MAINTAINED = "maintained", messages.label("irregularity.status.maintained")
        ACCEPTED = "accepted", messages.label("irregularity.status.accepted")
        LAPSED = "lapsed", messages.label("irregularity.status.lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="irregularities")
    kind = models.CharField(max_length=25, choices=Kind.choices)
    side = models.CharField(max_length=5, choices=SIDES, help_text="Who committed it.")
    ply = models.PositiveIntegerField(help_text="The game's ply when it was recorded.")
    fen_before = models.CharField(max_length=200, help_text="The position the record held.")
    fen_on_board = models.CharField(
        max_length=200, blank=True, help_text="The position as it stands on the board."
    )
    note = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(blank=True, help_text="Why, as given with the choice.")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} by {self.side} in game {self.game_id} at ply {self.ply}: {self.status}"


class NotationSheet(models.Model):
    """One version of the written record of a game (FMJD 10.2): a player's sheet, or the
    arbiter's own version (an edit). The checking task fills `report` (rules.notation_sheet:
    the first bad move, the fixes) and `comparison` (with the entered record and the other
    sheets). One version of a game is approved as its official record."""

    class Side(models.TextChoices):
        WHITE = "white", messages.label("notationsheet.side.white")
        BLACK = "black", messages.label("notationsheet.side.black")
        ARBITER = "arbiter", messages.label("notationsheet.side.arbiter")

    class Status(models.TextChoices):
        PENDING = "pending", messages.label("notationsheet.status.pending")
        CHECKED = "checked", messages.label("notationsheet.status.checked")
        PROBLEM = "problem", messages.label("notationsheet.status.problem")

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
        PENDING = "pending", messages.label("pdnimport.status.pending")
        READING = "reading", messages.label("pdnimport.status.reading")
        READ = "read", messages.label("pdnimport.status.read")
        APPLIED = "applied", messages.label("pdnimport.status.applied")
        FAILED = "failed", messages.label("pdnimport.status.failed")

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
