"""Swiss pairing by weighted matching inside score brackets.

Absolute rules (never broken), FIDE C.04.1 basic rules for Swiss systems:
- b: two players meet at most once (a forfeited game does not count as a meeting: the
  services leave it out of PlayerState.opponents);
- c, d: with an odd number to pair, one pairing-allocated bye, never to a player who already
  had one (or a forfeit win: the services set had_bye for it) while someone else can take it;
- every active player is paired; requested byes and absences are honoured.
If no pairing without a rematch exists, PairingError says so.

Colour rules (C.04.1 f, g; see colours.py): colour difference within -2..+2 and never the
same colour three times in a row. They are held whenever some pairing holds them; only when
none exists does a second pass allow them to be broken, each exception weighing more than
every other criterion so that there are few; each is counted in
`stats["colour_exceptions"]`, marked on the board and warned about.
A second bye is avoided before a colour exception.

Quality, in this order of weight (the edge weights of the matching):
1. nearest scores (C.04.1 e): a pair with a score difference d costs (d^2 + d) units, so
   floats are as few and as short as possible;
2. colour preferences (C.04.1 h): a strong preference unmet costs three times a mild one;
3. nobody floats the same way two rounds running;
4. the Dutch order: in a bracket of 2k players, the i-th of the top half meets the i-th of
   the bottom half; floaters from above meet the top of the bracket; the lowest-ranked
   player of an odd bracket floats down.

Method. Players are ranked by score, rating, pairing number (round 1: by rating, or by a
drawn lot when `lot_seed` is given; the lot also draws the initial colour). The bye goes to
the lowest-ranked player of the lowest score group who has not had one, provided the others
can then all be paired. Brackets are paired top down:
- a bracket of at most SMALL_BRACKET players by one exact maximum-weight matching
  (Edmonds' blossom algorithm, networkx);
- a larger one chunk by chunk (CHUNK pairs of the top half against the same pairs of the
  bottom half): the best transposition by the Hungarian algorithm, improved by exchanges
  between pairs; when a chunk cannot be paired that way, the blossom algorithm on the chunk,
  its unmatched players carried into the next chunk;
- after each bracket a completability test (matching.can_pair_all, exact) checks that the
  floaters and every lower player can still all be paired. If not, the bracket floats more
  players down (its lowest one, two, then three pairs), and as a last resort it is merged
  with the next score group and paired together;
- the last EXACT_ALL players are paired by one exact matching.
Since every step keeps the remaining players completable, a legal pairing is always found
when one exists: never a greedy pass that can dead-end.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from .colours import (
    BLACK,
    STRENGTH_NAMES,
    STRONG,
    WHITE,
    ColourInfo,
    allocate,
    breaks_rules,
)
from .matching import can_pair_all, exact_matching, min_cost_assignment
from .types import Board, PairingError, PairingResult, PlayerState

P_EXCEPTION = 10**13
P_SCORE = 10**9
P_STRONG = 30_000
P_MILD = 10_000
P_REFLOAT = 5_000
P_ORDER = 10
ORDER_CAP = 200
BASE = 10**16

EXACT_ALL = 24  # when this few players remain, pair them all by one exact matching
SMALL_BRACKET = 24  # brackets up to this size are matched at once
CHUNK = 8  # pairs per chunk in large brackets
WINDOW = 12  # pairs apart that may still exchange partners across chunks


class _W:
    """A player as the algorithm works with it."""

    __slots__ = ("p", "id", "score", "ci", "met", "rank", "last_float", "kind")

    def __init__(self, p: PlayerState, rank: int):
        self.p = p
        self.id = p.id
        self.score = p.score
        self.ci = ColourInfo(p)
        self.met = frozenset(p.opponents)
        self.rank = rank
        self.last_float = p.floats[-1] if p.floats else None
        cw, cb = self.ci.can_white, self.ci.can_black
        self.kind = 0 if cw and cb else 1 if cw else 2 if cb else 3


class _Pairer:
    def __init__(self, strict: bool):
        self.strict = strict
        self.cache: dict[tuple[int, int], tuple[int, bool] | None] = {}

    # -- the cost of one pair -------------------------------------------------------------
    def pair_cost(self, a: _W, b: _W) -> tuple[int, bool] | None:
        """(penalty, higher-ranked gets white) for a pair, or None if forbidden."""
        if a.rank > b.rank:
            a, b = b, a
        key = (a.id, b.id)
        if key in self.cache:
            return self.cache[key]
        result = None
        if b.id not in a.met:
            alloc = allocate(a.p, a.ci, b.p, b.ci, True, self.strict)
            if alloc is not None:
                a_white, exceptions = alloc
                d = abs(a.score - b.score)
                pen = exceptions * P_EXCEPTION + P_SCORE * (d * d + d)
                for x, white in ((a, a_white), (b, not a_white)):
                    if x.ci.pref is not None and (x.ci.pref == WHITE) != white:
                        pen += P_STRONG if x.ci.strength >= STRONG else P_MILD
                if d:
                    hi, lo = (a, b) if a.score > b.score else (b, a)
                    if hi.last_float == "down":
                        pen += P_REFLOAT
                    if lo.last_float == "up":
                        pen += P_REFLOAT
                result = (pen, a_white)
        self.cache[key] = result
        return result

    def legal(self, a: _W, b: _W) -> bool:
        if b.id in a.met:
            return False
        if not self.strict:
            return True
        return (a.ci.can_white and b.ci.can_black) or (a.ci.can_black and b.ci.can_white)

    def kind(self, w: _W) -> int:
        return w.kind if self.strict else 0

    def completable(self, players: Sequence[_W]) -> bool:
        return can_pair_all(players, self.legal, self.kind)

    # -- brackets -------------------------------------------------------------------------
    def weight_fn(self, mdps: Sequence[_W], residents: Sequence[_W], bracket_score: int | None):
        """Edge weight for a bracket: MDPs (floaters from above) meet the top residents;
        residents follow the top-half / bottom-half order; leaving someone unpaired costs
        its bonus (MDPs most, then players who floated down last round, then by rank)."""
        pos: dict[int, tuple[bool, int]] = {}
        for i, w in enumerate(mdps):
            pos[w.id] = (True, i)
        for i, w in enumerate(residents):
            pos[w.id] = (False, i)
        half = len(residents) // 2
        size = len(residents)
        bonus: dict[int, int] = {}
        for w in mdps:
            diff = w.score - (bracket_score if bracket_score is not None else w.score)
            bonus[w.id] = P_SCORE * (4 * diff + 2)
        for i, w in enumerate(residents):
            bonus[w.id] = (2 * P_REFLOAT if w.last_float == "down" else 0) + (size - i) * P_ORDER

        def weight(a: _W, b: _W) -> int | None:
            cost = self.pair_cost(a, b)
            if cost is None:
                return None
            ma, ia = pos[a.id]
            mb, ib = pos[b.id]
            if not ma and not mb:
                dev = abs(abs(ib - ia) - half)
            elif ma and mb:
                dev = half
            else:
                dev = ib if ma else ia
                dev += ia if ma else ib
            return BASE - cost[0] - min(dev, ORDER_CAP) * P_ORDER + bonus[a.id] + bonus[b.id]

        return weight

    def solve_bracket(
        self,
        mdps: list[_W],
        residents: list[_W],
        bracket_score: int | None,
        must_all: bool,
    ) -> tuple[list[tuple[_W, _W]], list[_W]]:
        """Pair as many as possible; returns (pairs, players left to float down)."""
        if len(mdps) + len(residents) <= SMALL_BRACKET:
            weight = self.weight_fn(mdps, residents, bracket_score)
            return exact_matching(mdps + residents, weight)
        pairs: list[tuple[_W, _W]] = []
        homogeneous = list(residents)
        if mdps:
            window = residents[: 2 * len(mdps) + 6]
            weight = self.weight_fn(mdps, window, bracket_score)
            mdp_ids = {w.id for w in mdps}

            def mdp_weight(a: _W, b: _W) -> int | None:
                if a.id not in mdp_ids and b.id not in mdp_ids:
                    return None
                return weight(a, b)

            got, unmatched = exact_matching(mdps + window, mdp_weight)
            pairs.extend(got)
            used = {w.id for pq in got for w in pq}
            homogeneous = [w for w in mdps if w.id not in used] + [
                w for w in residents if w.id not in used
            ]
        floaters: list[_W] = []
        if len(homogeneous) % 2 and not must_all:
            pick = next(
                (w for w in reversed(homogeneous) if w.last_float != "down"), homogeneous[-1]
            )
            homogeneous.remove(pick)
            floaters.append(pick)
        got, left = self.chunked(homogeneous)
        pairs.extend(got)
        if left:
            # Dissolve the last pairs and match them again with the leftovers, exactly.
            tail = pairs[-CHUNK:]
            del pairs[-CHUNK:]
            nodes = sorted(left + [w for pq in tail for w in pq], key=lambda w: w.rank)
            weight = self.weight_fn([], nodes, bracket_score)
            got, left = exact_matching(nodes, weight)
            pairs.extend(got)
            floaters.extend(left)
        return pairs, sorted(floaters, key=lambda w: w.rank)

    def chunked(self, players: list[_W]) -> tuple[list[tuple[_W, _W]], list[_W]]:
        """Top half against bottom half, CHUNK pairs at a time, each chunk matched exactly
        (or taken as is when the ideal pairing there costs nothing)."""
        half = len(players) // 2
        top, bottom = players[:half], players[half:]
        weight = self.weight_fn([], players, None)
        pairs: list[tuple[_W, _W]] = []
        carry: list[_W] = []
        for start in range(0, half, CHUNK):
            s1, s2 = top[start : start + CHUNK], bottom[start : start + CHUNK]
            if start + CHUNK >= half:
                s2 = bottom[start:]
            if not carry and len(s1) == len(s2):
                ideal = [self.pair_cost(a, b) for a, b in zip(s1, s2, strict=True)]
                if all(c is not None and c[0] == 0 for c in ideal):
                    pairs.extend(zip(s1, s2, strict=True))
                    continue
                got = self.transpose_and_exchange(s1, s2, weight)
                if got is not None:
                    pairs.extend(got)
                    continue
            got, carry = exact_matching(carry + s1 + s2, weight)
            pairs.extend(got)
        if len(players) > 2 * CHUNK:
            self.exchange_across_chunks(pairs, weight)
        return pairs, carry

    def exchange_across_chunks(self, pairs: list[tuple[_W, _W]], weight) -> None:
        """A chunk can only balance colours inside itself: let each pair with an unmet
        colour preference exchange partners with the pairs up to WINDOW places away, in
        other chunks too, whenever the exchange gains (in place)."""
        value = [weight(a, b) for a, b in pairs]
        for _ in range(3):
            improved = False
            for i in range(len(pairs)):
                cost = self.pair_cost(*pairs[i])
                if cost is None or cost[0] < P_MILD:
                    continue  # both preferences met: nothing to gain here
                for j in range(max(0, i - WINDOW), min(len(pairs), i + WINDOW + 1)):
                    if j == i:
                        continue
                    (a, b), (c, d) = pairs[i], pairs[j]
                    for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                        wx, wy = weight(*x), weight(*y)
                        if wx is not None and wy is not None and wx + wy > value[i] + value[j]:
                            pairs[i], pairs[j] = x, y
                            value[i], value[j] = wx, wy
                            (a, b), (c, d) = x, y
                            improved = True
            if not improved:
                break

    @staticmethod
    def transpose_and_exchange(s1: list[_W], s2: list[_W], weight):
        """The best assignment of top-half to bottom-half players (transpositions, by the
        Hungarian algorithm), then exchanges between pairs while they gain: (a-b, c-d) becomes
        (a-c, b-d) or (a-d, b-c). None when no assignment avoids forbidden pairs."""
        cost = []
        for a in s1:
            row = []
            for b in s2:
                w = weight(a, b)
                row.append(None if w is None else -w)
            cost.append(row)
        columns = min_cost_assignment(cost)
        if columns is None:
            return None
        pairs = [(s1[i], s2[j]) for i, j in enumerate(columns)]
        value = [weight(a, b) for a, b in pairs]
        improved = True
        while improved:
            improved = False
            for i in range(len(pairs)):
                for j in range(i + 1, len(pairs)):
                    (a, b), (c, d) = pairs[i], pairs[j]
                    for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                        wx, wy = weight(*x), weight(*y)
                        if wx is not None and wy is not None and wx + wy > value[i] + value[j]:
                            pairs[i], pairs[j] = x, y
                            value[i], value[j] = wx, wy
                            (a, b), (c, d) = x, y
                            improved = True
        return pairs


def _rank_players(players: list[PlayerState], round_number: int, lot_seed: str | None):
    if round_number == 1 and lot_seed:
        order = sorted(players, key=lambda p: p.pairing_number)
        random.Random(lot_seed).shuffle(order)
        order.sort(key=lambda p: -p.score)  # stable: lot within score (late scores are 0)
        return order
    return sorted(players, key=lambda p: (-p.score, -(p.rating or 0), p.pairing_number))


def pair_swiss(
    players: list[PlayerState], round_number: int, *, lot_seed: str | None = None
) -> PairingResult:
    """Pair one Swiss round. Raises PairingError when no pairing without a rematch exists."""
    started = time.perf_counter()
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise PairingError("a player appears twice in the list to pair")
    warnings: list[str] = []
    requested = [p for p in players if p.active and p.bye_requested]
    to_pair = [p for p in players if p.active and not p.bye_requested]
    ranked = _rank_players(to_pair, round_number, lot_seed)
    work = [_W(p, i) for i, p in enumerate(ranked)]
    initial = WHITE
    if lot_seed:
        initial = random.Random(f"{lot_seed}/colour").choice((WHITE, BLACK))

    # A second bye is worse than a colour exception: try, in order, strict colours without a
    # second bye, colour exceptions without a second bye, then the same allowing one.
    outcome = None
    for allow_second, strict in ((False, True), (False, False), (True, True), (True, False)):
        pairer = _Pairer(strict)
        outcome = _pair_all(pairer, work, warnings, allow_second)
        if outcome is not None:
            break
    if outcome is None:
        raise PairingError(
            f"round {round_number}: the {len(work)} players to pair cannot all be paired "
            "without a rematch (every possible pairing repeats a game)"
        )
    pairs, bye, merges = outcome
    boards, stats = _make_boards(pairer, pairs, bye, requested, initial)
    if not strict:
        warnings.append(
            "no pairing holds every colour rule: colour exceptions were unavoidable "
            f"({stats['colour_exceptions']} player(s), see the boards marked colour_exception)"
        )
    stats.update(
        {
            "mode": "strict" if strict else "colour exceptions allowed",
            "merged_brackets": merges,
            "players": len(work),
            "seconds": round(time.perf_counter() - started, 4),
        }
    )
    return PairingResult(boards=boards, warnings=warnings, stats=stats)


def _pair_all(pairer: _Pairer, work: list[_W], warnings: list[str], allow_second: bool):  # noqa: C901
    # One loop pairs the score brackets top-down, carrying the floaters from one bracket to
    # the next (FIDE C.04.3): its steps share that state (C901).
    """(pairs, bye player or None, merges), or None when no pairing exists in this mode."""
    bye = None
    players = work
    if len(work) % 2:
        bye = _choose_bye(pairer, work, warnings, allow_second)
        if bye is None:
            return None
        players = [w for w in work if w is not bye]
    elif not pairer.completable(work):
        return None
    scores = sorted({w.score for w in players}, reverse=True)
    groups: dict[int, list[_W]] = {s: [] for s in scores}
    for w in players:
        groups[w.score].append(w)
    pairs: list[tuple[_W, _W]] = []
    carry: list[_W] = []
    merged = False
    merges = 0
    below = len(players)
    for gi, s in enumerate(scores):
        residents = groups[s]
        below -= len(residents)
        rest = [w for t in scores[gi + 1 :] for w in groups[t]]
        if len(carry) + len(residents) + below <= EXACT_ALL:
            nodes = sorted(carry + residents + rest, key=lambda w: w.rank)
            got, left = exact_matching(nodes, pairer.weight_fn([], nodes, None))
            if left:
                return None
            pairs.extend(got)
            return pairs, bye, merges
        last = not rest
        if merged:
            mdps, res = [], sorted(carry + residents, key=lambda w: w.rank)
        else:
            mdps, res = carry, residents
        got, floaters = pairer.solve_bracket(mdps, res, s, must_all=last)
        if last:
            if floaters:
                nodes = sorted(carry + residents, key=lambda w: w.rank)
                got, left = exact_matching(nodes, pairer.weight_fn([], nodes, None))
                if left:
                    return None
            pairs.extend(got)
            return pairs, bye, merges
        accepted = None
        if pairer.completable(floaters + rest):
            accepted = got, floaters
        else:
            # Float more players down: dissolve the lowest pairs of the bracket, one, two,
            # then three, until the players below can be paired.
            by_rank = sorted(got, key=lambda pq: max(pq[0].rank, pq[1].rank))
            for k in range(1, min(3, len(by_rank)) + 1):
                extra = [w for pq in by_rank[-k:] for w in pq]
                if pairer.completable(floaters + extra + rest):
                    accepted = by_rank[:-k], sorted(floaters + extra, key=lambda w: w.rank)
                    break
        if accepted is not None:
            pairs.extend(accepted[0])
            carry, merged = accepted[1], False
        else:
            # Last resort: pair this bracket together with the next score group.
            carry, merged = sorted(carry + residents, key=lambda w: w.rank), True
            merges += 1
    return pairs, bye, merges


def _choose_bye(
    pairer: _Pairer, work: list[_W], warnings: list[str], allow_second: bool
) -> _W | None:
    """The lowest-ranked player of the lowest score group without a bye, such that the
    others can all be paired; with `allow_second`, the lowest-ranked possible (warned)."""
    candidates = sorted(work, key=lambda w: (w.score, -w.rank))
    for w in candidates:
        if w.p.had_bye and not allow_second:
            continue
        if pairer.completable([x for x in work if x is not w]):
            if w.p.had_bye:
                warnings.append(
                    f"no. {w.p.pairing_number} gets a second bye: no player without a bye "
                    "could take it and leave the others pairable"
                )
            return w
    return None


def _side(w: _W, colour: str | None, other: _W | None) -> dict:
    fl = None
    if other is not None and other.score != w.score:
        fl = "down" if w.score > other.score else "up"
    met = True
    if colour is not None and w.ci.pref is not None:
        met = w.ci.pref == colour
    return {
        "score": w.score,
        "group": min(w.score, other.score) if other is not None else w.score,
        "float": fl,
        "colour_preference": w.ci.pref,
        "preference_met": met,
        "pairing_number": w.p.pairing_number,
    }


def _colour_phrase(w: _W, colour: str) -> str:
    name = {WHITE: "white", BLACK: "black"}
    no = w.p.pairing_number
    if w.ci.pref is None:
        return f"no. {no} had no colour preference and got {name[colour]}"
    got = "got it" if w.ci.pref == colour else f"got {name[colour]}"
    return f"no. {no} had {STRENGTH_NAMES[w.ci.strength]} preference for {name[w.ci.pref]}, {got}"


def _make_boards(pairer: _Pairer, pairs, bye, requested, initial: str):
    ordered = sorted(
        pairs,
        key=lambda pq: (
            -max(pq[0].score, pq[1].score),
            -min(pq[0].score, pq[1].score),
            min(pq[0].rank, pq[1].rank),
        ),
    )
    boards: list[Board] = []
    floats = exceptions = unmet = 0
    for number, (a, b) in enumerate(ordered, start=1):
        hi, lo = (a, b) if a.rank < b.rank else (b, a)
        cost = pairer.pair_cost(hi, lo)
        assert cost is not None  # the matching only uses allowed pairs
        hi_white = cost[1]
        if hi.ci.pref is None and lo.ci.pref is None:
            # No history: the initial colour (white, or drawn by lot) on odd boards.
            hi_white = (initial == WHITE) == (number % 2 == 1)
        white, black = (hi, lo) if hi_white else (lo, hi)
        # Colour exceptions count players whose colour breaks a hard rule (one or both).
        exc = bool(breaks_rules(white.p.colours, WHITE)) + bool(
            breaks_rules(black.p.colours, BLACK)
        )
        exceptions += exc
        note = {"white": _side(white, WHITE, black), "black": _side(black, BLACK, white)}
        unmet += (not note["white"]["preference_met"]) + (not note["black"]["preference_met"])
        group = min(white.score, black.score)
        if white.score != black.score:
            floats += 1
            up, down = (white, black) if white.score < black.score else (black, white)
            head = (
                f"Score group {group}: no. {down.p.pairing_number} ({down.score}) floats down "
                f"to meet no. {up.p.pairing_number} ({up.score})"
            )
        else:
            head = (
                f"Score group {group}: no. {white.p.pairing_number} v "
                f"no. {black.p.pairing_number}, both on {group}"
            )
        colour_text = "; ".join((_colour_phrase(white, WHITE), _colour_phrase(black, BLACK)))
        note["reason"] = f"{head}. Colours: {colour_text}."
        if exc:
            note["reason"] += " Colour rule exception: no pairing without one exists."
            note["colour_exception"] = True
        boards.append(Board(number, white.id, black.id, note))
    if bye is not None:
        side = _side(bye, None, None)
        side["float"] = "down"  # as in the Dutch system, a pairing-allocated bye is a downfloat
        note = {
            "white": side,
            "black": None,
            "bye": "pairing",
            "reason": (
                f"Bye: no. {bye.p.pairing_number} ({bye.score}) is the lowest-ranked player of "
                "the lowest score group who has not had a bye and whose bye leaves the others "
                "pairable (a bye counts as a downfloat)."
            ),
        }
        boards.append(Board(len(boards) + 1, bye.id, None, note))
    for p in sorted(requested, key=lambda p: p.pairing_number):
        note = {
            "white": {
                "score": p.score,
                "group": p.score,
                "float": None,
                "colour_preference": None,
                "preference_met": True,
                "pairing_number": p.pairing_number,
            },
            "black": None,
            "bye": "requested",
            "reason": f"Requested bye: no. {p.pairing_number} asked not to be paired this round.",
        }
        boards.append(Board(len(boards) + 1, p.id, None, note))
    stats = {
        "boards": len(ordered),
        "floats": floats,
        "colour_exceptions": exceptions,
        "preferences_unmet": unmet,
    }
    return boards, stats
