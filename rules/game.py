"""A game record: positions, moves and the draw rules' counters (FMJD art. 6 and 7).

How the draw rules are read here (the French text of the FMJD rules binds):

* FMJD 6.1: "la même position se présente, pour la troisième fois, avec le même joueur ayant
  le trait". A position is the pieces plus the side to move. The start position counts as
  the first occurrence. Only positions since the last man move or capture can recur (those
  moves cannot be undone), so the history kept for 6.1 starts there. The game is drawn on
  the ply that produces the third occurrence.
* FMJD 6.2: "durant 25 coups successifs, il n'y a eu que déplacements de dames, sans
  déplacement de pion ni aucune prise": 25 moves of each player, i.e. 50 successive plies,
  each a non-capturing king move. Drawn on the 50th such ply; any man move or capture
  resets the count to 0.
* FMJD 6.3 / 6.4: once only the listed material is left ("trois dames, deux dames et un pion,
  une dame et deux pions contre une dame"; "deux dames, une dame et un pion, ou une dame
  contre une dame"), the game is drawn "lorsque les deux joueurs auront encore joué, chacun,
  seize [cinq] coups au maximum". The count starts after the move that creates the material
  (or at the start of the record when it begins with that material) and counts plies; each
  player has played n more moves after 2n plies, whichever colour holds the lone king and
  whichever side moved first, so the draw falls on ply 2n after the creating move (32 for
  6.3, 10 for 6.4). Later man moves and promotions that keep the material within the same
  article do not restart the count ("counted from the move that creates the material");
  a capture that turns a 6.3 material into a 6.4 one starts a new count of 5 moves each,
  since 6.4 then describes the position. A win on that same last ply (7.2.2, 7.2.3) is a
  win: results of art. 7.2 are checked before draws.
* FMJD 7.2.2 / 7.2.3: the side to move that has no piece, or no legal move, loses.

The game does not refuse moves after a draw rule applied: a PDN record of a game that went
on is still readable; `outcome()` reports the rule from the ply on which it first applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from .board import SQ_BIT
from .errors import IllegalMove, RulesError
from .outcome import Score, Termination
from .position import START_FEN, Color, Move, Position

KINGS_ONLY_LIMIT = 25  # FMJD 6.2, moves each
ENDGAME_LIMITS = {"6.3": 16, "6.4": 5}  # FMJD 6.3 / 6.4, moves each
STATE_VERSION = 1


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    score: Score
    winner: Color | None
    article: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "score": self.score.value,
            "winner": self.winner.value if self.winner else None,
            "article": self.article,
        }


def endgame_rule(position: Position) -> str | None:
    """Which of FMJD 6.3 / 6.4 the material falls under, if any.

    One side must have a lone king; the other side one of: three kings, two kings and a man,
    a king and two men (6.3); two kings, a king and a man, a king (6.4).
    """
    wm, wk, bm, bk = position.material()
    for (lm, lk), (sm, sk) in (((wm, wk), (bm, bk)), ((bm, bk), (wm, wk))):
        if lm == 0 and lk == 1:
            if (sk, sm) in ((3, 0), (2, 1), (1, 2)):
                return "6.3"
            if (sk, sm) in ((2, 0), (1, 1), (1, 0)):
                return "6.4"
    return None


class _Counters(NamedTuple):
    """Draw-rule state after a ply (immutable, so pop() restores it exactly)."""

    kings_only: int  # FMJD 6.2: successive plies that were non-capturing king moves
    rule: str | None  # FMJD 6.3 / 6.4 rule in force
    rule_plies: int  # plies played since that rule's material was created
    irreversible: int  # index in the position list of the last man move / capture


_new_counters = tuple.__new__


@lru_cache(maxsize=8192)
def _cached_position(fen: str) -> Position:
    """Positions are immutable: a service restoring one game move after move parses each
    position of its 6.1 history once, not on every move (a kings-only ending keeps 50)."""
    return Position.from_fen(fen)


class Game:
    """A game record: push/pop moves, draw-rule counters, the result when the rules give one."""

    def __init__(self, start_fen: str | None = None):
        start = Position.from_fen(start_fen) if start_fen else Position.start()
        self.start_fen = start.fen()
        self._base_ply = 0  # ply number of self._positions[0]
        self._positions: list[Position] = [start]
        # self._positions[self._floor + i] is the position before self._moves[i]; a game
        # restored by from_state keeps positions before its floor without their moves.
        self._floor = 0
        self._moves: list[Move] = []
        self._counters: list[_Counters] = [_Counters(0, endgame_rule(start), 0, 0)]
        self._restored_moves: list[str] | None = None  # moves before the floor (PDN)

    # ----- record

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def plies(self) -> int:
        return self._base_ply + len(self._positions) - 1

    @property
    def moves(self) -> list[Move]:
        self._materialize()
        return list(self._moves)

    @property
    def history(self) -> list[Position]:
        """Every position of the record, from the start to the current one."""
        self._materialize()
        return list(self._positions)

    @property
    def turn(self) -> Color:
        return self.position.turn

    def push(self, move: Move | str) -> Move:
        """Play a legal move (a `Move` or PDN text parsed against the current position).

        Raises `IllegalMove` / `AmbiguousMove` and changes nothing when the move is refused.
        """
        pos = self._positions[-1]
        if isinstance(move, str):
            move = pos.parse_move(move)
        else:
            canonical = pos._legal().get(move[5]) if isinstance(move, Move) else None
            if canonical is None:
                raise IllegalMove(str(move), "move.not_legal", pos.legal_texts())
            move = canonical
        new = pos._apply(move)
        prev = self._counters[-1]
        index = len(self._positions)
        irreversible = bool(move[2]) or not (SQ_BIT[move[0]] & pos.kings)
        # FMJD 6.2: only non-capturing king moves extend the run.
        kings_only = 0 if irreversible else prev.kings_only + 1
        # FMJD 6.3/6.4 only concern four pieces or fewer
        rule = endgame_rule(new) if (new.white | new.black).bit_count() <= 4 else None
        if rule is None:
            rule_plies = 0
        elif rule == prev.rule:
            rule_plies = prev.rule_plies + 1  # FMJD 6.3/6.4: not reset by later man moves
        else:
            rule_plies = 0  # material created by this move (or 6.3 -> 6.4): count restarts
        self._positions.append(new)
        self._moves.append(move)
        self._counters.append(
            _new_counters(
                _Counters,
                (kings_only, rule, rule_plies, index if irreversible else prev.irreversible),
            )
        )
        return move

    def pop(self) -> Move:
        """Take back the last move, restoring the previous position and counters exactly."""
        if not self._moves:
            self._materialize()
            if not self._moves:
                raise RulesError("game.nothing_to_take_back")
        self._positions.pop()
        self._counters.pop()
        return self._moves.pop()

    # ----- draw rules and result

    def repetitions(self) -> int:
        """How many times the current position has occurred (FMJD 6.1)."""
        c = self._counters[-1]
        pos = self.position
        return sum(1 for p in self._positions[c.irreversible :] if p == pos)

    def draw_state(self) -> dict[str, Any]:
        c = self._counters[-1]
        return {
            "repetitions": self.repetitions(),
            "kings_only_moves": c.kings_only // 2,
            "kings_only_plies": c.kings_only,
            "kings_only_limit": KINGS_ONLY_LIMIT,
            "endgame_rule": c.rule,
            "endgame_moves": c.rule_plies // 2,
            "endgame_plies": c.rule_plies,
            "endgame_limit": ENDGAME_LIMITS.get(c.rule) if c.rule else None,
        }

    def outcome(self) -> Outcome | None:
        """The result the rules give in the current position, or None while play goes on.

        Art. 7.2 first (a side with no piece or no move loses), then the draws of art. 6.
        """
        pos = self.position
        loser = pos.turn
        own = pos.white if pos.white_to_move else pos.black
        if not own:
            return _win(loser.opponent, Termination.NO_PIECES, "7.2.3")
        if not pos.legal_moves():
            return _win(loser.opponent, Termination.BLOCKED, "7.2.2")
        if self.repetitions() >= 3:
            return Outcome(Termination.DRAW_REPETITION, Score.DRAW, None, "6.1")
        c = self._counters[-1]
        if c.kings_only >= 2 * KINGS_ONLY_LIMIT:
            return Outcome(Termination.DRAW_25_MOVES, Score.DRAW, None, "6.2")
        if c.rule == "6.3" and c.rule_plies >= 2 * ENDGAME_LIMITS["6.3"]:
            return Outcome(Termination.DRAW_16_MOVES, Score.DRAW, None, "6.3")
        if c.rule == "6.4" and c.rule_plies >= 2 * ENDGAME_LIMITS["6.4"]:
            return Outcome(Termination.DRAW_5_MOVES, Score.DRAW, None, "6.4")
        return None

    # ----- persistence

    def move_texts(self) -> list[str]:
        """Every move of the record in PDN notation (without replaying a restored game)."""
        before = list(self._restored_moves or [])
        return before + [
            self._positions[self._floor + i].move_text(m) for i, m in enumerate(self._moves)
        ]

    def to_state(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot that `from_state` restores without replaying."""
        c = self._counters[-1]
        return {
            "version": STATE_VERSION,
            "start_fen": self.start_fen,
            "fen": self.position.fen(),
            "ply": self.plies,
            "moves": self.move_texts(),
            # FMJD 6.1: positions since the last man move or capture (the only ones that
            # can recur), oldest first, ending with the current position.
            "history": [p.fen() for p in self._positions[c.irreversible :]],
            "kings_only_plies": c.kings_only,
            "endgame_rule": c.rule,
            "endgame_plies": c.rule_plies,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        """Restore a game from `to_state` output without replaying its moves.

        The move list is replayed lazily, only if `moves`, `history` or a `pop` past the
        restored position need it. Raises `RulesError` for a state that does not hold together.
        """
        try:
            if state.get("version") != STATE_VERSION:
                raise RulesError("state.bad_version", version=state.get("version"))
            history = [_cached_position(f) for f in state["history"]]
            current = _cached_position(state["fen"])
            if not history or history[-1] != current:
                raise RulesError("state.history_mismatch")
            ply = int(state["ply"])
            moves = [str(m) for m in state["moves"]]
            if len(moves) != ply:
                raise RulesError("state.move_count", count=len(moves), ply=ply)
            rule = state["endgame_rule"]
            if rule not in (None, "6.3", "6.4"):
                raise RulesError("state.bad_endgame_rule", rule=rule)
            kings_only = int(state["kings_only_plies"])
            rule_plies = int(state["endgame_plies"])
            if rule != endgame_rule(current) or kings_only < 0 or rule_plies < 0:
                raise RulesError("state.bad_counters")
            start_fen = _cached_position(state["start_fen"]).fen()
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RulesError("state.unreadable", error=repr(exc)) from exc
        game = cls.__new__(cls)
        game.start_fen = start_fen
        game._positions = history
        game._floor = len(history) - 1
        game._base_ply = ply - game._floor
        game._moves = []
        # Only the last entry's counters are read; earlier positions are reached again only
        # through _materialize(), which rebuilds every counter by replaying.
        game._counters = [_Counters(0, None, 0, 0)] * game._floor + [
            _Counters(kings_only, rule, rule_plies, 0)
        ]
        game._restored_moves = moves
        return game

    def _materialize(self) -> None:
        """Rebuild a restored game's full record by replaying its moves from the start."""
        if self._restored_moves is None:
            return
        full = Game(self.start_fen)
        for text in self._restored_moves:
            full.push(text)
        if full.position != self._positions[self._floor]:
            raise RulesError("state.moves_mismatch")
        for m in self._moves:
            full.push(m)
        self.__dict__.update(full.__dict__)

    def __repr__(self) -> str:
        return f"<Game ply={self.plies} fen={self.position.fen()!r}>"


def _win(winner: Color, termination: Termination, article: str) -> Outcome:
    score = Score.WHITE_WINS if winner is Color.WHITE else Score.BLACK_WINS
    return Outcome(termination, score, winner, article)


__all__ = ["Game", "Outcome", "endgame_rule", "START_FEN"]
