"""The draw rules of FMJD art. 6 as data, and claims checked against a game record.

`rule_states(game)` says where every counter stands ("6.4: 3 of 5 moves each", "6.1: this
position has occurred twice", "6.2: 18 of 25 king moves"); `check_claim(game, article)` says
whether a claim under 6.1-6.4 is right now, with the same data as its explanation. Both are
read through `Game.draw_rules()` and `Game.check_claim()`. Words are made by the caller from
`code` and `params` (the engine returns codes, not sentences).

A claim is granted when the rule applies in the current position, and also when it applied
at an earlier ply of the record and the game went on (FMJD 6: the game *is* drawn when the
rule applies; the referee must end it even without a claim), with the ply it applied on.
A game already won under 7.2 (no pieces, no move) cannot be claimed drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .outcome import Termination

if TYPE_CHECKING:
    from .game import Game, Outcome

DRAW_ARTICLES = ("6.1", "6.2", "6.3", "6.4")
REPETITION_LIMIT = 3  # FMJD 6.1: the third occurrence
TERMINATION_OF_ARTICLE = {
    "6.1": Termination.DRAW_REPETITION,
    "6.2": Termination.DRAW_25_MOVES,
    "6.3": Termination.DRAW_16_MOVES,
    "6.4": Termination.DRAW_5_MOVES,
}


@dataclass(frozen=True)
class DrawRuleState:
    """Where one draw rule stands after the last ply of the record.

    `count` of `limit`: 6.1 occurrences of the current position (same side to move) of 3;
    6.2 king moves each of 25; 6.3 / 6.4 moves each of 16 / 5 since the material arose.
    `in_force`: 6.3 / 6.4 only count while their material is on the board (always True for
    6.1 and 6.2). `plies` counts half-moves (6.2-6.4), `since_ply` is the ply after which
    counting began; `occurred_at` (6.1) lists the plies after which the position stood
    (0: the start of the record).
    """

    article: str
    applies: bool
    in_force: bool
    count: int
    limit: int
    plies: int | None = None
    since_ply: int | None = None
    occurred_at: tuple[int, ...] = ()

    @property
    def code(self) -> str:
        return f"draw_rule.{self.article.replace('.', '_')}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "article": self.article,
            "code": self.code,
            "applies": self.applies,
            "in_force": self.in_force,
            "count": self.count,
            "limit": self.limit,
            "plies": self.plies,
            "since_ply": self.since_ply,
            "occurred_at": list(self.occurred_at),
        }


@dataclass(frozen=True)
class ClaimCheck:
    """The engine's answer to a draw claim under one article of FMJD 6.

    `code`: `granted`, `too_early` (the rule counts but has not reached its limit),
    `not_in_force` (6.3 / 6.4: the material is not on the board), `game_decided` (7.2 gives
    the game already), `unknown_article`. `params` hold the data the explanation names.
    """

    article: str
    granted: bool
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "article": self.article,
            "granted": self.granted,
            "code": f"claim.{self.code}",
            "params": dict(self.params),
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }


def rule_states(game: Game) -> list[DrawRuleState]:
    """The state of 6.1, 6.2, 6.3 and 6.4 after the last ply (no replay of a restored game)."""
    from .game import ENDGAME_LIMITS, KINGS_ONLY_LIMIT

    c = game._counters[-1]
    ply = game.plies
    first_index = game._base_ply  # ply number of game._positions[0]
    pos = game.position
    occurred = tuple(
        first_index + i
        for i in range(c.irreversible, len(game._positions))
        if game._positions[i] == pos
    )
    states = [
        DrawRuleState(
            "6.1",
            len(occurred) >= REPETITION_LIMIT,
            True,
            len(occurred),
            REPETITION_LIMIT,
            occurred_at=occurred,
        ),
        DrawRuleState(
            "6.2",
            c.kings_only >= 2 * KINGS_ONLY_LIMIT,
            True,
            c.kings_only // 2,
            KINGS_ONLY_LIMIT,
            plies=c.kings_only,
            since_ply=ply - c.kings_only,
        ),
    ]
    for article in ("6.3", "6.4"):
        limit = ENDGAME_LIMITS[article]
        if c.rule == article:
            states.append(
                DrawRuleState(
                    article,
                    c.rule_plies >= 2 * limit,
                    True,
                    c.rule_plies // 2,
                    limit,
                    plies=c.rule_plies,
                    since_ply=ply - c.rule_plies,
                )
            )
        else:
            states.append(DrawRuleState(article, False, False, 0, limit, plies=0))
    return states


def first_application(game: Game, article: str) -> int | None:
    """The first ply of the record after which `article` gave a draw, or None.

    Replays a restored game's record once (a claim is rare; a move never calls this).
    """
    from .game import ENDGAME_LIMITS, KINGS_ONLY_LIMIT

    game._materialize()
    base = game._base_ply
    if article == "6.1":
        segment, seen = None, {}
        for i, (pos, c) in enumerate(zip(game._positions, game._counters, strict=True)):
            if c.irreversible != segment:
                segment, seen = c.irreversible, {}
            seen[pos] = seen.get(pos, 0) + 1
            if seen[pos] >= REPETITION_LIMIT:
                return base + i
        return None
    for i, c in enumerate(game._counters):
        if article == "6.2" and c.kings_only >= 2 * KINGS_ONLY_LIMIT:
            return base + i
        limit = ENDGAME_LIMITS.get(article)
        if limit is not None and c.rule == article and c.rule_plies >= 2 * limit:
            return base + i
    return None


def check_claim(game: Game, article: str) -> ClaimCheck:
    """Whether a draw claimed under `article` (6.1-6.4) is right, and why (see ClaimCheck)."""
    from .game import Outcome, Score

    if article not in DRAW_ARTICLES:
        return ClaimCheck(str(article), False, "unknown_article", {"articles": list(DRAW_ARTICLES)})
    state = next(s for s in rule_states(game) if s.article == article)
    params = {**state.to_dict(), "ply": game.plies, "fen": game.position.fen()}
    del params["article"], params["code"]
    decided = game.outcome()
    if decided is not None and decided.winner is not None:
        params.update(termination=decided.termination.value, by_article=decided.article)
        return ClaimCheck(article, False, "game_decided", params)
    draw = Outcome(TERMINATION_OF_ARTICLE[article], Score.DRAW, None, article)
    first = first_application(game, article)
    if state.applies or first is not None:
        applied_at = first if first is not None else game.plies
        return ClaimCheck(article, True, "granted", {**params, "applied_at_ply": applied_at}, draw)
    if not state.in_force:
        return ClaimCheck(article, False, "not_in_force", params)
    return ClaimCheck(article, False, "too_early", params)
