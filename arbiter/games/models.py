"""Games of an event's rounds, with their position as the rules engine left it, and their moves."""

from django.conf import settings
from django.db import models

from arbiter import messages
from arbiter.events.models import Player, Round
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
