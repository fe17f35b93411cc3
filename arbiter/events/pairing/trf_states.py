"""The pairing's inputs from a tournament report file (arbiter.events.trf.read_trf): the
PlayerState of every player before a round, as the FIDE engines read the file.

Scores are in tenths of the file's points (a 1/0.5/0 file gives 10/5/0; a 2/1/0 file 20/10/0),
so that the pairing compares them exactly. Per round:
- a game played (1 = 0 W D L): the colour counts, the opponent is met;
- a forfeit (+ -) is no game: no colour, no meeting; its winner may not get the bye;
- U (pairing-allocated bye) and F (full-point bye): no bye again (C2);
- floats as the Dutch system counts them: a game between unequal scores (with that round's
  acceleration) floats the higher down and the lower up; an unplayed round that scored more
  than a loss counts as a downfloat.
Players not paired in the round (an entry other than a game or U for that round, or, for
rounds already in the file, no entry) are marked inactive.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trf import TrfFile
from .types import PlayerState


@dataclass(frozen=True)
class TrfRoundInput:
    players: list[PlayerState]
    acceleration: dict[int, int]
    points_win: int
    initial_colour: str
    forbidden: list[tuple[int, int]]


def _tenths(x: float) -> int:
    return int(round(x * 10))


def initial_colour(trf: TrfFile) -> str:
    """The file's initial colour, else inferred as bbpPairings does: the first round's colour
    of the highest-numbered player paired in it (reversed for each player skipped)."""
    if trf.initial_colour:
        return trf.initial_colour
    flip = False
    for number in sorted(trf.players):
        cells = trf.players[number].cells
        if cells and cells[0].paired:
            if cells[0].colour in ("w", "b"):
                colour = "W" if cells[0].colour == "w" else "B"
                return ({"W": "B", "B": "W"}[colour]) if flip else colour
            flip = not flip
    return "W"


def states_before(trf: TrfFile, round_number: int) -> TrfRoundInput:
    """The inputs for pairing `round_number` (1-based) from the rounds before it."""
    win = trf.value("win")
    points_win = _tenths(win)
    accel = {n: [_tenths(x) for x in v] for n, v in trf.accelerations.items()}

    def acc(number: int, rnd: int) -> int:
        values = accel.get(number, [])
        return values[rnd - 1] if rnd - 1 < len(values) else 0

    score = {n: 0 for n in trf.players}
    colours: dict[int, list[str]] = {n: [] for n in trf.players}
    floats: dict[int, list[str | None]] = {n: [] for n in trf.players}
    opponents: dict[int, list[int]] = {n: [] for n in trf.players}
    had_bye = dict.fromkeys(trf.players, False)
    paired = set()  # in an earlier round's pairing: a game, a forfeit, the bye (bbpPairings)
    for rnd in range(1, round_number):
        before = {n: score[n] + acc(n, rnd) for n in trf.players}
        for n, e in trf.players.items():
            cell = e.cells[rnd - 1] if rnd - 1 < len(e.cells) else None
            if cell is None:
                colours[n].append("-")
                floats[n].append(None)
                continue
            if cell.opponent is not None or cell.code in ("U", "+"):
                paired.add(n)
            if cell.played:
                colours[n].append("W" if cell.colour == "w" else "B")
                opponents[n].append(cell.opponent)
                gained = _tenths(trf.value(PLAYED_CODES_KIND[cell.code]))
                other = before[cell.opponent]
                floats[n].append(
                    "down" if before[n] > other else "up" if before[n] < other else None
                )
            else:
                colours[n].append("-")
                gained = _tenths(trf.value(cell.code)) if cell.code.strip() else 0
                floats[n].append("down" if gained > _tenths(trf.value("loss")) else None)
                if cell.code == "U" or gained >= points_win:
                    had_bye[n] = True
            score[n] += gained
    players = []
    paired_rounds = trf.paired_rounds  # once: it reads the whole file
    for n, e in sorted(trf.players.items()):
        cell = e.cells[round_number - 1] if round_number - 1 < len(e.cells) else None
        active = cell.paired if cell is not None else round_number > paired_rounds
        players.append(
            PlayerState(
                id=n,
                pairing_number=n,
                rating=e.rating,
                score=score[n],
                opponents=tuple(opponents[n]),
                colours=tuple(colours[n]),
                had_bye=had_bye[n],
                floats=tuple(floats[n]),
                active=active,
                paired_before=n in paired,
            )
        )
    forbidden = []
    for group in trf.forbidden:
        forbidden += [(a, b) for i, a in enumerate(group) for b in group[i + 1 :]]
    return TrfRoundInput(
        players=players,
        acceleration={n: acc(n, round_number) for n in trf.players if acc(n, round_number)},
        points_win=points_win,
        initial_colour=initial_colour(trf),
        forbidden=forbidden,
    )


PLAYED_CODES_KIND = {"1": "win", "=": "draw", "0": "loss", "W": "win", "D": "draw", "L": "loss"}
