"""Standings and tie-breaks, pure Python (no Django).

Results of a game (GameRecord.result): "2-0" white won, "1-1" draw, "0-2" black won (over the
board, whatever the event's scoring); "+/-" white won by forfeit, "-/+" black won by forfeit,
"-/-" neither came (both lose); "bye" (black_id None) a pairing-allocated bye; "" not played
yet (ignored). Points come from `Scoring` (win 2, draw 1, loss 0, bye 2, forfeit win 2 by
default: FMJD scoring).

Convention for unplayed games (applied by every tie-break):
- A round is *played* only when the game was played over the board. Byes, forfeits (won or
  lost), double forfeits and rounds without any game for the player (absence, withdrawal,
  late entry) are *unplayed rounds*.
- Points always count as scored (a bye or a forfeit win gives its points).
- Solkoff family: each played round counts the opponent's actual points (byes and forfeit
  wins included); each unplayed round counts a virtual opponent with the player's own points
  ("a draw against oneself").
- Sonneborn-Berger: for each played round, the opponent's points times the fraction of the
  game won (1 for a win, 1/2 for a draw, 0 for a loss); each unplayed round counts as a draw
  against the same virtual opponent: half the player's own points.
- Number of wins, average rating of opponents, performance rating and results against the
  higher-ranked use played games only.
- Direct encounter uses every game between the tied players that has a result (a forfeit
  counts by its result; a double forfeit is no encounter), and applies only when every
  pair of them has such a game.
- Progressive score uses the points after each round, unplayed rounds included.
Values are exact: integers, or halves (a float ending in .5) for Sonneborn-Berger.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

RESULTS = {"2-0", "1-1", "0-2", "+/-", "-/+", "-/-", "bye", ""}

TIEBREAKS: dict[str, str] = {
    "solkoff": "Solkoff: sum of the opponents' points",
    "solkoff_cut1": "Truncated Solkoff: Solkoff without the lowest opponent",
    "solkoff_median": "Median Solkoff: Solkoff without the highest and the lowest opponent",
    "sonneborn_berger": "Sonneborn-Berger: opponents' points weighted by the result against them",
    "wins": "Number of games won over the board",
    "direct_encounter": "Direct encounter: points between the tied players (when all met)",
    "higher_ranked": "Points scored against opponents with at least as many points",
    "avg_rating_opponents": "Average rating of the opponents met over the board",
    "performance": "Performance rating (FIDE table) over the games played",
    "progressive": "Progressive score: sum of the running points after each round",
}

# FIDE rating regulations 8.1(a): rating difference dp for a fractional score p (0.50..1.00).
_DP = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
]  # fmt: skip


def fide_dp(p: Fraction) -> int:
    """FIDE's dp for a score fraction p, p rounded to two decimals."""
    hundredths = int(p * 100 + Fraction(1, 2))  # round half up
    if hundredths >= 50:
        return _DP[hundredths - 50]
    return -_DP[50 - hundredths]


@dataclass(frozen=True)
class GameRecord:
    round: int
    white_id: int
    black_id: int | None
    result: str


@dataclass(frozen=True)
class Scoring:
    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    forfeit_win: int = 2
    forfeit_loss: int = 0


#: The one table from a result to the points of each side, as (White's, Black's) names of a
#: Scoring field (None: no points). The event's Scoring gives the numbers (FMJD 7: 2/1/0).
#: A forfeit loser scores `forfeit_loss` (0: the game was not played), not `loss`.
RESULT_POINTS: dict[str, tuple[str | None, str | None]] = {
    "2-0": ("win", "loss"),
    "1-1": ("draw", "draw"),
    "0-2": ("loss", "win"),
    "+/-": ("forfeit_win", "forfeit_loss"),
    "-/+": ("forfeit_loss", "forfeit_win"),
    "-/-": ("forfeit_loss", "forfeit_loss"),
    "bye": ("bye", None),
    "": (None, None),
}


#: For the tie-breaks: what a round was for White and for Black, and the fraction of the game
#: each won in halves (2 a win, 1 a draw, 0 otherwise; Sonneborn-Berger weights by it).
_KINDS: dict[str, tuple[str, int, str, int]] = {
    "2-0": ("played", 2, "played", 0),
    "0-2": ("played", 0, "played", 2),
    "1-1": ("played", 1, "played", 1),
    "+/-": ("forfeit_win", 0, "forfeit_loss", 0),
    "-/+": ("forfeit_loss", 0, "forfeit_win", 0),
    "-/-": ("double_forfeit", 0, "double_forfeit", 0),
}


def points(result: str, side: str, scoring: Scoring) -> int:
    """Points that `side` ("white" or "black") scores with `result`; 0 while unplayed."""
    try:
        names = RESULT_POINTS[result]
    except KeyError:
        raise ValueError(f"unknown result {result!r}") from None
    name = names[0 if side == "white" else 1]
    return getattr(scoring, name) if name else 0


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    pairing_number: int
    rating: int | None = None
    name: str = ""


@dataclass
class StandingRow:
    rank: int
    shared_rank: str
    player_id: int
    points: int | float
    games_played: int
    values: dict[str, int | float] = field(default_factory=dict)
    explain: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Round:
    """One round of one player."""

    round: int
    opponent: int | None  # None for a bye or an absence
    kind: str  # played | forfeit_win | forfeit_loss | double_forfeit | bye | absent
    points: int
    share2: int  # twice the share of the game won, for played games: 2, 1, 0


def _half(doubled: int) -> int | float:
    """A value kept doubled (to stay in integers), halved: an int, or a float ending in .5."""
    return doubled // 2 if doubled % 2 == 0 else doubled / 2


def _fmt(x: int | float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _rounds_by_player(
    players: list[PlayerInfo], games: list, scoring: Scoring, after_round: int | None
) -> tuple[dict[int, list[_Round]], int]:
    ids = {p.id for p in players}
    done = [g for g in games if g.result != ""]
    for g in games:
        if g.result not in RESULTS:
            raise ValueError(
                f"round {g.round}, game {g.white_id}-{g.black_id}: unknown result "
                f"{g.result!r} (expected one of {sorted(RESULTS - {''})} or '')"
            )
        if (g.result == "bye") != (g.black_id is None):
            raise ValueError(
                f"round {g.round}, player {g.white_id}: a bye has no opponent, and only a bye"
            )
        for pid in (g.white_id, g.black_id):
            if pid is not None and pid not in ids:
                raise ValueError(f"round {g.round}: player id {pid} is not in the player list")
    last = after_round if after_round is not None else max((g.round for g in done), default=0)
    rounds: dict[int, dict[int, _Round]] = defaultdict(dict)
    pending: dict[int, set[int]] = defaultdict(set)
    zero = 0
    for g in games:
        if g.round > last:
            continue
        if g.result == "":
            pending[g.white_id].add(g.round)
            if g.black_id is not None:
                pending[g.black_id].add(g.round)
            continue
        w, b, r = g.white_id, g.black_id, g.result
        pw, pb = points(r, "white", scoring), points(r, "black", scoring)
        if r == "bye":
            rounds[w][g.round] = _Round(g.round, None, "bye", pw, zero)
            continue
        # (kind of round, fraction of the game won) for White and for Black
        kw, fw, kb, fb = _KINDS[r]
        rounds[w][g.round] = _Round(g.round, b, kw, pw, fw)
        rounds[b][g.round] = _Round(g.round, w, kb, pb, fb)
    out: dict[int, list[_Round]] = {}
    for p in players:
        mine = rounds.get(p.id, {})
        seq = []
        for rnd in range(1, last + 1):
            if rnd in mine:
                seq.append(mine[rnd])
            elif rnd not in pending[p.id]:
                seq.append(_Round(rnd, None, "absent", 0, zero))
        out[p.id] = seq
    return out, last


_KIND_TEXT = {
    "forfeit_win": "won by forfeit",
    "forfeit_loss": "lost by forfeit",
    "double_forfeit": "double forfeit",
    "bye": "bye",
    "absent": "no game",
}


def compute_standings(  # noqa: C901 - counts the nested function of each tie-break
    players: list[PlayerInfo],
    games: list[GameRecord],
    *,
    tiebreaks: list[str],
    scoring: Scoring = Scoring(),  # a frozen dataclass: safe as a default
    after_round: int | None = None,
) -> list[StandingRow]:
    """The ranking after `after_round` (default: the last round with a result), points
    first, then the tie-breaks in the order given; equal on everything: a shared place."""
    unknown = [c for c in tiebreaks if c not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break code(s) {unknown}; known: {sorted(TIEBREAKS)}")
    info = {p.id: p for p in players}
    history, _last = _rounds_by_player(players, games, scoring, after_round)
    points = {pid: sum(r.points for r in seq) for pid, seq in history.items()}

    def label(pid: int) -> str:
        p = info[pid]
        return f"no. {p.pairing_number}" + (f" {p.name}" if p.name else "")

    def opponent_values(pid: int) -> tuple[list[int], list[str]]:
        vals, lines = [], []
        for r in history[pid]:
            if r.kind == "played":
                v = points[r.opponent]
                lines.append(f"R{r.round}: {label(r.opponent)} has {v}")
            else:
                v = points[pid]
                lines.append(f"R{r.round}: {_KIND_TEXT[r.kind]}, virtual opponent with own {v}")
            vals.append(v)
        return vals, lines

    def solkoff(pid, cut_low, cut_high):
        vals, lines = opponent_values(pid)
        total = sum(vals)
        # The lowest is cut from 2 rounds on, the highest (median) from 3 rounds on, so that
        # Solkoff >= truncated >= median always holds.
        if cut_low and len(vals) >= 2:
            lo = min(vals)
            total -= lo
            lines.append(f"minus the lowest, {lo}")
        if cut_high and len(vals) >= 3:
            hi = max(vals)
            total -= hi
            lines.append(f"minus the highest, {hi}")
        if cut_low and len(vals) < (3 if cut_high else 2):
            lines.append(f"only {len(vals)} round(s): fewer cut")
        lines.append(f"= {total}")
        return total, lines

    def sonneborn_berger(pid):
        # Kept doubled (a draw is half the opponent's points) so that it stays in integers.
        doubled, lines = 0, []
        for r in history[pid]:
            if r.kind == "played":
                opp = points[r.opponent]
                v2 = opp * r.share2
                what = ("lost", "drew", "won")[r.share2]
                lines.append(
                    f"R{r.round}: {what} against {label(r.opponent)} ({opp}): {_fmt(_half(v2))}"
                )
            else:
                v2 = points[pid]
                lines.append(
                    f"R{r.round}: {_KIND_TEXT[r.kind]}, a draw against own {points[pid]}: "
                    f"{_fmt(_half(v2))}"
                )
            doubled += v2
        total = _half(doubled)
        lines.append(f"= {_fmt(total)}")
        return total, lines

    def wins(pid):
        won = [r for r in history[pid] if r.kind == "played" and r.share2 == 2]
        lines = [f"R{r.round}: beat {label(r.opponent)}" for r in won]
        lines.append(f"= {len(won)} win(s) over the board")
        return len(won), lines

    def higher_ranked(pid):
        total, lines = 0, []
        for r in history[pid]:
            if r.kind == "played" and points[r.opponent] >= points[pid]:
                total += r.points
                lines.append(
                    f"R{r.round}: {r.points} against {label(r.opponent)} "
                    f"({points[r.opponent]} points)"
                )
        lines.append(f"= {total} against opponents with at least {points[pid]} points")
        return total, lines

    def rated_games(pid):
        return [
            r for r in history[pid] if r.kind == "played" and info[r.opponent].rating is not None
        ]

    def avg_rating(pid):
        games_ = rated_games(pid)
        lines = [f"R{r.round}: {label(r.opponent)} {info[r.opponent].rating}" for r in games_]
        if not games_:
            return 0, ["no rated opponent met over the board: 0"]
        total = sum(info[r.opponent].rating for r in games_)
        avg = int(Fraction(total, len(games_)) + Fraction(1, 2))
        lines.append(f"= {total} / {len(games_)} = {avg} (rounded)")
        return avg, lines

    def performance(pid):
        games_ = rated_games(pid)
        if not games_:
            return 0, ["no rated opponent met over the board: 0"]
        total = sum(info[r.opponent].rating for r in games_)
        ra = int(Fraction(total, len(games_)) + Fraction(1, 2))
        p = Fraction(sum(r.share2 for r in games_), 2 * len(games_))
        dp = fide_dp(p)
        return ra + dp, [
            f"average opponent rating {ra} over {len(games_)} game(s)",
            f"score fraction {float(p):.2f}, FIDE dp {dp:+d}",
            f"= {ra + dp}",
        ]

    def progressive(pid):
        running, total, lines = 0, 0, []
        for r in history[pid]:
            running += r.points
            total += running
            lines.append(f"after R{r.round}: {running}")
        lines.append(f"= {total}")
        return total, lines

    simple = {
        "solkoff": lambda pid: solkoff(pid, False, False),
        "solkoff_cut1": lambda pid: solkoff(pid, True, False),
        "solkoff_median": lambda pid: solkoff(pid, True, True),
        "sonneborn_berger": sonneborn_berger,
        "wins": wins,
        "higher_ranked": higher_ranked,
        "avg_rating_opponents": avg_rating,
        "performance": performance,
        "progressive": progressive,
    }

    keys: dict[int, list[int | float]] = {pid: [points[pid]] for pid in history}
    values: dict[int, dict[str, int | float]] = {pid: {} for pid in history}
    explain: dict[int, dict[str, list[str]]] = {pid: {} for pid in history}
    for code in tiebreaks:
        if code == "direct_encounter":
            results = _direct_encounter(history, keys, label)
        else:
            results = {pid: simple[code](pid) for pid in history}
        for pid, (value, lines) in results.items():
            keys[pid].append(value)
            values[pid][code] = value
            explain[pid][code] = lines

    order = sorted(history, key=lambda pid: ([-k for k in keys[pid]], info[pid].pairing_number))
    rows: list[StandingRow] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        shared = str(i + 1) if i == j else f"{i + 1}-{j + 1}"
        for k in range(i, j + 1):
            pid = order[k]
            rows.append(
                StandingRow(
                    rank=k + 1,
                    shared_rank=shared,
                    player_id=pid,
                    points=points[pid],
                    games_played=sum(1 for r in history[pid] if r.kind == "played"),
                    values=values[pid],
                    explain=explain[pid],
                )
            )
        i = j + 1
    return rows


def _direct_encounter(history, keys, label):
    """Points scored against the others of the tie group (equal points and equal previous
    tie-breaks), when every pair of the group has a game with a result; else 0 for all."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for pid in history:
        groups[tuple(keys[pid])].append(pid)
    out = {}
    for members in groups.values():
        if len(members) == 1:
            out[members[0]] = (0, ["not tied with anyone: 0"])
            continue
        met = defaultdict(list)
        for pid in members:
            for r in history[pid]:
                if r.opponent in members and r.kind != "double_forfeit":
                    met[(pid, r.opponent)].append(r)
        missing = [(a, b) for a, b in combinations(members, 2) if not met[(a, b)]]
        if missing:
            a, b = missing[0]
            text = (
                f"tied with {len(members) - 1} other(s), but {label(a)} and {label(b)} "
                "have not met: not applied, 0"
            )
            for pid in members:
                out[pid] = (0, [text])
            continue
        for pid in members:
            total, lines = 0, []
            for other in members:
                if other == pid:
                    continue
                for r in met[(pid, other)]:
                    total += r.points
                    lines.append(f"R{r.round}: {r.points} against {label(other)}")
            lines.append(f"= {total} against the {len(members) - 1} tied player(s)")
            out[pid] = (total, lines)
    return out
