"""The FIDE (Dutch) system, C.04.3 (the text in force from 1 July 2025), by exact
maximum-weight matchings bracket by bracket.

The criteria, in their order of priority (the names used in board notes and by `check`):

    absolute  C1 no rematch (forbidden pairs too), C2 no second pairing-allocated bye (a
              forfeit win or a full-point bye counts as one), C3 two non-topscorers with the
              same absolute colour preference do not meet (topscorers: more than half the
              maximum score, pairing the last round)
    C4        completion: the players still unpaired after this bracket can all be paired
              (all but one: the bye, to a player of the lowest possible score who may take it)
    C5        as many pairs as possible in the bracket (as few downfloaters)
    C6        the downfloaters' scores as low as possible (MDPs paired before residents)
    C7, C8    the same for the next bracket (the downfloaters chosen so that it pairs best)
    C9        the bye's assignee with as few unplayed games as possible
    C10, C11  topscorers: colour difference beyond 2, or a colour three times running
    C12, C13  colour preferences unmet, then strong ones unmet
    C14-C17   repeated floats: downfloaters, upfloaters of the previous round; then those of
              two rounds before
    C18-C21   the same, scores: repeated downfloaters' scores, repeated upfloaters'
              opponents' scores (previous round, then two rounds before)

Among pairings equal on all of these, the first in the Dutch order of candidates: the
moved-down players (MDPs) paired highest first, each with the highest resident that keeps
the criteria; then in the remainder the fewest exchanges between S1 and S2, the smallest
difference of the exchanged pairing numbers, the lowest S1 players and the highest S2 players
exchanged; then transpositions, each S1 player with the highest S2 player left.

Method, as bbpPairings (the FIDE-endorsed engine) does it: one maximum-weight matching over
all players still unpaired, whose edge weights encode the criteria as digits of one large
integer (completion highest, then C5... C21, then the candidate order), so that the heaviest
matching is the lexicographically best; the current bracket's pairs are kept and the next
bracket is formed from its downfloaters. Two matchings a bracket: one that settles the
criteria and the MDPs' opponents, one for the remainder's exchanges and transpositions.

Speed: all digits together are hundreds to thousands of bits wide (the transpositions alone
a digit per S1 player), which only a matching in Python integers (networkx, exact but slow:
68 s a round at 1,000 players) can hold. A bracket of FAST_NODES players or more is solved
in rustworkx's compiled matching, whose weights are 128-bit integers, in steps that keep the
same order exactly: the criteria are re-packed for the bracket (_Compressor: only the digits
some pair has, each as wide as a matching of its players can fill, a criterion left out when
it equals a higher one on every pair), which leaves them some 30-50 bits; the MDPs' digits
follow them when they fit; the remainder is matched on the criteria and its exchanges (or,
when those digits are too wide, on the number of exchanges, which must then be none), which
fixes S1' (the higher players of its pairs); then the transpositions, S1' players in
order, their pairs fixed as they are found (an optimum's pairs, kept, are part of an optimum
of the rest: _remainder_in_steps). Each player's opponent is first guessed from the optimum
at hand (his highest S2' player that an exchange of two pairs brings in without loss); a
guess is certain, and fixed without a matching, when every higher S2' player left is proved
in no optimum by dual values by class of player (_class_duals). The others are checked in a
step's matching: the first player ranks his opponents in full, each next one a base-3 digit
(above, at, below his guess), and the players up to the first whose guess was wrong are
fixed (after such a step, one with every player ranking in full). The criteria weights of a
large bracket are computed once for each two classes of players (what they read of them).
Anything the steps do not expect falls back to the one matching of Python integers.

Colours (C.04.3 part 5): both preferences when compatible; otherwise the stronger (absolute
with the larger colour difference, absolute, strong); otherwise alternate from the latest
round where the two had different colours; otherwise the higher-ranked player's preference;
with no preference at all, the higher-ranked player takes the initial colour when his rank
is odd (1st, 3rd, ...), the other colour when it is even.

Baku acceleration (C.04.5.1) is given as `acceleration`: virtual points per player added to
the score for this round (see `baku_acceleration`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

try:
    import rustworkx as rx
except ImportError:  # pragma: no cover - networkx alone is exact too, only slower
    rx = None

from .matching import can_pair_all, perfect_matching
from .types import Board, PairingError, PairingResult, PlayerState

WHITE, BLACK = "W", "B"
DOWN, UP = "down", "up"

CRITERIA = (
    "C4 completion",
    "C5 number of pairs in the bracket",
    "C6 scores of the downfloaters",
    "C7 number of pairs in the next bracket",
    "C8 scores of the downfloaters of the next bracket",
    "C9 unplayed games of the bye's assignee",
    "C10 topscorers' colour difference beyond 2",
    "C11 topscorers' same colour three times",
    "C12 colour preferences unmet",
    "C13 strong colour preferences unmet",
    "C14 repeated downfloaters (previous round)",
    "C15 repeated upfloaters (previous round)",
    "C16 repeated downfloaters (two rounds before)",
    "C17 repeated upfloaters (two rounds before)",
    "C18 scores of repeated downfloaters (previous round)",
    "C19 scores of repeated upfloaters' opponents (previous round)",
    "C20 scores of repeated downfloaters (two rounds before)",
    "C21 scores of repeated upfloaters' opponents (two rounds before)",
)


@dataclass
class _P:
    """A player to pair, with what the criteria need computed once."""

    state: PlayerState
    index: int  # rank in the pairing order (score, then pairing number), 0 = first
    number_rank: int  # rank by pairing number alone (colours by rank, 5.2.5)
    score: int  # with acceleration
    pref: str | None
    absolute: bool
    strong: bool
    imbalance: int
    repeated: str | None  # the colour of the last two played games when the same
    played: list[str]
    played_games: int
    float1: str | None
    float2: str | None
    bye_ok: bool
    topscorer: bool

    @property
    def id(self) -> int:
        return self.state.id


def _played(colours: Iterable[str]) -> list[str]:
    return [c for c in colours if c in (WHITE, BLACK)]


def colour_data(colours: Sequence[str]) -> tuple[str | None, bool, bool, int, str | None]:
    """(preference, absolute, strong, |colour difference|, repeated colour), C.04.3 1.7."""
    played = _played(colours)
    whites, blacks = played.count(WHITE), played.count(BLACK)
    imbalance = abs(whites - blacks)
    lower = BLACK if whites > blacks else WHITE
    run = 0
    for c in reversed(played):
        if c != played[-1]:
            break
        run += 1
    repeated = played[-1] if run >= 2 else None
    if imbalance > 1:
        pref = lower
    elif run > 1:
        pref = BLACK if played[-1] == WHITE else WHITE
    elif imbalance > 0:
        pref = lower
    elif played:
        pref = BLACK if played[-1] == WHITE else WHITE
    else:
        pref = None
    absolute = imbalance > 1 or repeated is not None
    strong = not absolute and imbalance > 0
    return pref, absolute, strong, imbalance, repeated


def baku_acceleration(
    pairing_numbers: Sequence[int], rounds: int, round_number: int, points_win: int = 2
) -> dict[int, int]:
    """Baku acceleration (FIDE C.04.5.1): virtual points for group A, the first half of
    the pairing numbers rounded up to an even number, by pairing number. In the first half
    of the rounds (rounded up) group A has a win's worth: a full win in the first half of
    those, a draw's worth (half) in the rest; nothing afterwards."""
    n = len(pairing_numbers)
    group_a = 2 * ((n + 3) // 4)
    accelerated_rounds = (rounds + 1) // 2
    full_rounds = (accelerated_rounds + 1) // 2
    if round_number <= full_rounds:
        points = points_win
    elif round_number <= accelerated_rounds:
        points = points_win // 2
    else:
        points = 0
    ordered = sorted(pairing_numbers)
    return {pn: (points if i < group_a else 0) for i, pn in enumerate(ordered)}


def _compatible(
    a: _P, b: _P, forbidden: set[frozenset[int]], last_round: bool, c1: bool = True
) -> bool:
    if c1 and (b.id in a.state.opponents or (forbidden and frozenset((a.id, b.id)) in forbidden)):
        return False
    if a.absolute and b.absolute and a.pref == b.pref:  # C3
        return last_round and (a.topscorer or b.topscorer)
    return True


def _colour_bits(h: _P, lo: _P) -> tuple[int, int, int, int]:
    """1 when the pair keeps C10, C11, C12, C13 (see insertColorBits in the docstring)."""
    same = h.pref is not None and h.pref == lo.pref
    c10 = not (h.imbalance > 1 and lo.imbalance > 1 and same)
    if not (h.absolute and lo.absolute and same):
        c11 = True
    elif h.imbalance == lo.imbalance:
        c11 = h.repeated is None or h.repeated != lo.repeated
    else:
        loser = lo if h.imbalance > lo.imbalance else h  # who gets the unwanted colour
        c11 = loser.repeated != (BLACK if h.pref == WHITE else WHITE)
    c12 = not same
    c13 = (
        not (h.strong or h.absolute)
        or not (lo.strong or lo.absolute)
        or (h.absolute and lo.absolute)
        or not same
    )
    return int(c10), int(c11), int(c12), int(c13)


class _Weights:
    """The digits of the edge weights: widths fixed once per round."""

    def __init__(self, players: list[_P], played_rounds: int):
        n = len(players)
        self.count = (n + 1).bit_length() + 1  # a count of pairs or players
        # Score digits: one field per score, wide enough for every player of that score.
        scores = sorted({p.score for p in players})
        self.shift: dict[int, int] = {}
        at = 0
        for s in scores:
            self.shift[s] = at
            at += sum(1 for p in players if p.score == s).bit_length() + 1
        self.scores = at
        self.played_rounds = played_rounds
        layout = [("C4", 2 * self.count + 2), ("C5", self.count), ("C6", self.scores)]
        layout += [("C7", self.count), ("C8", self.scores), ("C9", 2 * self.count)]
        layout += [(f"C{k}", self.count) for k in (10, 11, 12, 13)]
        if played_rounds >= 1:
            layout += [("C14", self.count), ("C15", self.count)]
        if played_rounds >= 2:
            layout += [("C16", self.count), ("C17", self.count)]
        if played_rounds >= 1:
            layout += [("C18", self.scores), ("C19", self.scores)]
        if played_rounds >= 2:
            layout += [("C20", self.scores), ("C21", self.scores)]
        self.layout = layout
        self.width = sum(w for _, w in layout)
        self.offset: dict[str, int] = {}
        at = 0
        for name, width in reversed(layout):
            self.offset[name] = at
            at += width

    def pack(self, values: dict[str, int]) -> int:
        out = 0
        offset = self.offset
        for name, v in values.items():
            if v:
                out |= v << offset[name]  # each value fits its digit: no carry
        return out

    def compressor(self, weights: Iterable[int], pairs: int) -> _Compressor:
        """The same digits for one matching in the fewest bits (see _Compressor)."""
        return _Compressor(self, list(weights), pairs)

    def unpack(self, weight: int) -> dict[str, int]:
        out = {}
        for name, width in reversed(self.layout):
            out[name] = weight & ((1 << width) - 1)
            weight >>= width
        return out


SCORE_FIELDS = ("C6", "C8", "C18", "C19", "C20", "C21")
# A criterion equal on every edge of a matching to a higher one adds nothing to the order.
SAME_AS = {"C10": "C5", "C11": "C5", "C12": "C5", "C13": "C5", "C15": "C5", "C17": "C5"}
SAME_AS |= {"C19": "C6", "C21": "C6"}


class _Compressor:
    """The round's criteria digits re-packed for one group of edges: a digit (a criterion,
    or one score of a score criterion) is kept only when some edge has it, and is as wide
    as the most a matching of `pairs` pairs can add up in it; a criterion equal on every
    edge to a higher one (kept colours equal to pairs made, when none is broken) is left
    out. The order of any two matchings by the sum of their weights is unchanged, so the
    weights fit the compiled matching (128-bit integers) for a bracket of hundreds."""

    def __init__(self, w: _Weights, weights: list[int], pairs: int):
        offset = w.offset
        widths = dict(w.layout)
        union = 0
        for x in weights:
            union |= x
        dropped = set()
        for name, ref in SAME_AS.items():
            if name not in offset:
                continue
            o, r, mask = offset[name], offset[ref], (1 << widths[name]) - 1
            if all((x >> o) & mask == (x >> r) & mask for x in weights):
                dropped.add(name)
        slots = []  # (old offset, mask), highest first
        for name, width in w.layout:
            if name in dropped:
                continue
            if name in SCORE_FIELDS:
                starts = sorted(w.shift.values())
                ends = [*starts[1:], w.scores]
                subs = [(offset[name] + a, b - a) for a, b in zip(starts, ends, strict=True)]
                slots.extend(reversed(subs))
            else:
                slots.append((offset[name], width))
        self.slots: list[tuple[int, int, int]] = []  # (old offset, mask, new offset)
        self.width = 0
        for old, width in reversed(slots):
            mask = (1 << width) - 1
            most = (union >> old) & mask  # at least any edge's value
            if most:
                self.slots.append((old, mask, self.width))
                self.width += (most * pairs).bit_length()

    def __call__(self, weight: int) -> int:
        out = 0
        for old, mask, new in self.slots:
            out |= ((weight >> old) & mask) << new
        return out


def _prepare(
    players: Sequence[PlayerState],
    played_rounds: int,
    points_win: int,
    acceleration: dict[int, int] | None,
    everyone: Sequence[PlayerState] = (),
) -> list[_P]:
    """The players to pair, in the pairing order. `everyone` (the absent too) gives the
    ranks by pairing number that the colours by rank use."""
    acc = acceleration or {}
    work = []
    for p in players:
        pref, absolute, strong, imbalance, repeated = colour_data(p.colours)
        floats = tuple(p.floats)
        work.append(
            _P(
                state=p,
                index=0,
                number_rank=0,
                score=p.score + acc.get(p.id, 0),
                pref=pref,
                absolute=absolute,
                strong=strong,
                imbalance=imbalance,
                repeated=repeated,
                played=_played(p.colours),
                played_games=len(_played(p.colours)),
                float1=floats[-1] if floats else None,
                float2=floats[-2] if len(floats) >= 2 else None,
                bye_ok=not p.had_bye,
                topscorer=2 * (p.score + acc.get(p.id, 0)) > played_rounds * points_win,
            )
        )
    numbers = sorted(p.pairing_number for p in (everyone or players))
    number_rank = {n: i for i, n in enumerate(numbers)}
    work.sort(key=lambda w: (-w.score, w.state.pairing_number))
    for i, w in enumerate(work):
        w.index = i
        w.number_rank = number_rank[w.state.pairing_number]
    return work


RX_BITS = 120  # rustworkx's matching computes in 128-bit integers
GUESS = True  # the transposition steps check guessed opponents (see _guess_opponents)
FAST_NODES = 60  # a bracket of this many players or more takes the compiled path


def _matching(nodes: Sequence[_P], weight) -> dict[int, int]:
    """Maximum-weight matching: index -> index (both ways)."""
    edges = []
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            w = weight(a, b)
            if w:
                edges.append((a.index, b.index, w))
    return _mate([p.index for p in nodes], edges)


def _mate(
    nodes: list[int], edges: list[tuple[int, int, int]], fits: bool = False, positions=False
) -> dict:
    """Maximum-weight matching on (index, index, weight) edges (`positions`: positions in
    `nodes` instead): rustworkx (compiled) when the weights fit its 128-bit integers
    (`fits`: the caller knows), else networkx (Python integers, any size); both are exact
    on integer weights."""
    mate: dict[int, int] = {}
    if not positions and rx is not None and not fits:
        fits = all(w >> RX_BITS == 0 for _, _, w in edges)
    if positions or (rx is not None and fits):
        g = rx.PyGraph()
        g.add_nodes_from(nodes)
        if not positions:
            where = {p: i for i, p in enumerate(nodes)}
            edges = [(where[u], where[v], w) for u, v, w in edges]
        g.add_edges_from(edges)
        pairs = [(nodes[u], nodes[v]) for u, v in rx.max_weight_matching(g, weight_fn=int)]
    else:
        g = nx.Graph()
        g.add_nodes_from(nodes)
        g.add_weighted_edges_from(edges)
        pairs = nx.max_weight_matching(g, maxcardinality=False)
    for u, v in pairs:
        mate[u] = v
        mate[v] = u
    return mate


class _Criteria:
    """The criteria digits of every pair of a bracket's matching, computed once, and the
    same re-packed small (_Compressor) for the compiled matching."""

    def __init__(self, rnd: _Round, nodes: list[_P], base):
        sig = getattr(base, "sig", None)
        raw = self._by_class(rnd, nodes, base, sig) if sig else self._by_pair(nodes, base)
        self.cls = {p.index: sig(p) for p in nodes} if sig else None  # see _class_duals
        distinct = set(raw.values())
        compress = rnd.w.compressor(distinct, len(nodes) // 2)
        self.bits = compress.width
        small = {w: compress(w) for w in distinct}
        self.small = {k: small[w] for k, w in raw.items()}

    @staticmethod
    def _by_pair(nodes: list[_P], base) -> dict[tuple[int, int], int]:
        raw = {}
        for i, a in enumerate(nodes):
            for b in nodes[i + 1 :]:
                w = base(a, b)
                if w:
                    key = (a.index, b.index) if a.index < b.index else (b.index, a.index)
                    raw[key] = w
        return raw

    @staticmethod
    def _by_class(rnd: _Round, nodes: list[_P], base, sig) -> dict[tuple[int, int], int]:
        """The same weights as _by_pair, computed once for each two classes of players
        (`sig`: what `base` reads of a player besides who he met), the pairs who met
        (C1) or may not meet left out."""
        met = set()
        where = {p.id: p.index for p in nodes}
        for p in nodes:
            for o in p.state.opponents:
                q = where.get(o)
                if q is not None:
                    met.add((p.index, q) if p.index < q else (q, p.index))
        for f in rnd.forbidden:
            a, b = (where.get(x) for x in f) if len(f) == 2 else (None, None)
            if a is not None and b is not None:
                met.add((a, b) if a < b else (b, a))
        sigs = [sig(p) for p in nodes]
        memo: dict[tuple, int] = {}
        raw = {}
        for i, a in enumerate(nodes):
            sa, ai = sigs[i], a.index
            for j in range(i + 1, len(nodes)):
                b = nodes[j]
                bi = b.index
                if ai < bi:
                    key, ck = (ai, bi), (sa, sigs[j])
                else:
                    key, ck = (bi, ai), (sigs[j], sa)
                if key in met:
                    continue
                w = memo.get(ck)
                if w is None:
                    c3 = _compatible(a, b, set(), rnd.last_round, c1=False)
                    w = memo[ck] = base(a, b, compat=False) if c3 else 0
                if w:
                    raw[key] = w
        return raw

    def edges(self, among: set[int]) -> list[tuple[int, int, int]]:
        return [(u, v, w) for (u, v), w in self.small.items() if u in among and v in among]


def _kind(p: _P) -> tuple:
    """What _Round.values reads of a player."""
    return (
        p.score,
        p.bye_ok,
        p.pref,
        p.absolute,
        p.strong,
        p.imbalance,
        p.repeated,
        p.float1,
        p.float2,
        p.played_games,
    )


class _Round:
    def __init__(
        self,
        work: list[_P],
        played_rounds: int,
        forbidden: set[frozenset[int]],
        last_round: bool,
    ):
        self.work = work
        self.by_index = {p.index: p for p in work}
        self.w = _Weights(work, played_rounds)
        self.forbidden = forbidden
        self.last_round = last_round
        self._compat: dict[tuple[int, int], bool] = {}
        self.bye_score: int | None = None
        self.rank_unplayed: dict[int, int] = {}
        self.odd = len(work) % 2 == 1
        self.initial_mate: dict[int, int] = {}
        self.scale = 1  # scores are shown divided by this (10 for TRF tenths)
        self._kind: dict[int, tuple] = {}
        self._packed: dict[tuple, int] = {}

    def kind(self, p: _P) -> tuple:
        got = self._kind.get(p.index)
        if got is None:
            got = self._kind[p.index] = _kind(p)
        return got

    def packed(self, h: _P, lo: _P, zone: str, single_bye: bool, c4: bool = True) -> int:
        """w.pack(values(...)), C4 left out unless `c4`, remembered by what values() reads of
        the two players (many pairs alike in a large bracket)."""
        kh, kl = self._kind.get(h.index), self._kind.get(lo.index)
        if kh is None:
            kh = self._kind[h.index] = _kind(h)
        if kl is None:
            kl = self._kind[lo.index] = _kind(lo)
        key = (kh, kl, zone, single_bye, c4, self.bye_score)
        got = self._packed.get(key)
        if got is None:
            values = self.values(h, lo, zone, single_bye)
            if not c4:
                values["C4"] = 0
            got = self._packed[key] = self.w.pack(values)
        return got

    def compatible(self, a: _P, b: _P) -> bool:
        key = (a.index, b.index) if a.index < b.index else (b.index, a.index)
        got = self._compat.get(key)
        if got is None:
            got = self._compat[key] = _compatible(a, b, self.forbidden, self.last_round)
        return got

    def completable(self, players: list[_P]) -> bool:
        """C4: the players can all be paired, but one who may take the bye when odd."""
        nodes: list[_P | None] = list(players)
        if len(nodes) % 2:
            nodes.append(None)  # the bye: "plays" any player who may take it

        def legal(a: _P | None, b: _P | None) -> bool:
            if a is None or b is None:
                other = b if a is None else a
                return other is not None and self.candidate(other)
            return self.compatible(a, b)

        return can_pair_all(nodes, legal, lambda p: 0)

    def next_pairs_fully(self, floater: _P, nxt: list[_P], remaining, paired: set) -> bool:
        """Can the next bracket (the floater and the next scoregroup) pair all its players
        but one of the scoregroup when odd, the floater always, with everyone below it
        still pairable (C4)? A sufficient test: when it fails the caller solves exactly."""
        taken = paired | {q.index for q in nxt} | {floater.index}
        far = [q for q in remaining if q.index not in taken]
        nodes: list[_P | None] = [floater, *nxt]
        if len(nodes) % 2:
            nodes.append(None)  # one of the scoregroup floats on: "paired" with this

        def legal(a: _P | None, b: _P | None) -> bool:
            if a is None or b is None:
                other = b if a is None else a
                return other is not None and other is not floater
            return self.compatible(a, b)

        mate = perfect_matching(nodes, legal, lambda p: 0)
        if mate is None:
            return False
        if nodes[-1] is None:
            far.append(nodes[mate[-1]])
        return self.completable(far)

    def candidate(self, p: _P) -> bool:
        return p.bye_ok and (self.bye_score is None or p.score <= self.bye_score)

    def values(self, h: _P, lo: _P, zone: str, single_bye: bool) -> dict[str, int]:
        """The criteria digits of the pair h (higher) - lo. zone: where lo is: "current"
        (bracket), "next" (next scoregroup) or "far"."""
        w = self.w
        v = {"C4": 1 + (not self.candidate(h)) + (not self.candidate(lo))}
        if zone == "current":
            v["C5"] = 1
            v["C6"] = 1 << w.shift[h.score]
        elif zone == "next":
            v["C7"] = 1
            v["C8"] = 1 << w.shift[h.score]
        if single_bye and self.bye_score is not None:
            c9 = 0
            for p in (h, lo):
                if p.score == self.bye_score:
                    c9 += self.rank_unplayed[p.played_games]
            v["C9"] = c9
        if zone != "current":
            return v
        v["C10"], v["C11"], v["C12"], v["C13"] = _colour_bits(h, lo)
        pr = w.played_rounds
        if pr >= 1:
            v["C14"] = (lo.float1 == DOWN) + (h.score <= lo.score and h.float1 == DOWN)
            v["C15"] = int(not (h.score > lo.score and lo.float1 == UP))
            v["C18"] = ((lo.float1 == DOWN) << w.shift[lo.score]) + (
                (h.float1 == DOWN) << w.shift[h.score]
            )
            v["C19"] = 0 if (lo.float1 == UP and h.score > lo.score) else 1 << w.shift[h.score]
        if pr >= 2:
            v["C16"] = (lo.float2 == DOWN) + (h.score <= lo.score and h.float2 == DOWN)
            v["C17"] = int(not (h.score > lo.score and lo.float2 == UP))
            v["C20"] = ((lo.float2 == DOWN) << w.shift[lo.score]) + (
                (h.float2 == DOWN) << w.shift[h.score]
            )
            v["C21"] = 0 if (lo.float2 == UP and h.score > lo.score) else 1 << w.shift[h.score]
        return v

    def choose_bye_score(self) -> None:
        """The lowest score a player left unpaired (the bye) can have, C4 and C2: from the
        lowest scoregroup up, the first where a player who may take the bye leaves the others
        all pairable."""
        if not self.odd:
            return
        for score in sorted({p.score for p in self.work}):
            self.bye_score = score
            if any(p.bye_ok and p.score == score for p in self.work) and self._bye_at(score):
                break
        else:
            raise PairingError(
                "no pairing satisfies the absolute criteria (C1 no rematch, C2 one bye, "
                "C3 absolute colour preferences)"
            )
        counts = sorted(
            (p.played_games for p in self.work if p.score == self.bye_score), reverse=True
        )
        for rank, games in enumerate(counts):
            self.rank_unplayed[games] = rank
        if self.bye_score >= self.work[0].score and self.work[-1].score < self.work[0].score:
            # (One scoregroup: everyone's opponent is of the top score, whatever the matching.)
            self.initial_mate = self._initial_matching()

    def _bye_at(self, score: int) -> bool:
        nodes: list[_P | None] = [*self.work, None]

        def legal(a: _P | None, b: _P | None) -> bool:
            if a is None or b is None:
                other = b if a is None else a
                return other is not None and other.bye_ok and other.score == score
            return self.compatible(a, b)

        return can_pair_all(nodes, legal, lambda p: 0)

    def _initial_matching(self) -> dict[int, int]:
        """The first matching (completion, the bye as low as possible, the top scoregroup
        paired within itself): C9's first bracket looks at it."""
        level = {s: i for i, s in enumerate(sorted({p.score for p in self.work}))}
        nb = len(level).bit_length() + 1
        c = self.w.count
        top = self.work[0].score

        def weight(a: _P, b: _P) -> int:
            if not self.compatible(a, b):
                return 0
            w = 1 + (not a.bye_ok) + (not b.bye_ok)
            hi = a if a.index < b.index else b
            return (
                (w << (2 * nb + c)) | ((level[a.score] + level[b.score]) << c) | (hi.score >= top)
            )

        return _matching(self.work, weight)


def pair_dutch(
    players: Sequence[PlayerState],
    round_number: int,
    *,
    rounds: int | None = None,
    points_win: int = 2,
    initial_colour: str = WHITE,
    acceleration: dict[int, int] | None = None,
    forbidden: Iterable[tuple[int, int]] = (),
    score_scale: int = 1,
) -> PairingResult:
    """Pair round `round_number` by the FIDE Dutch system.

    `players` as for pair_swiss (inactive ones and requested byes are left out: a requested
    bye gets a board of its own); `rounds` the number of rounds of the event (for the
    topscorers of the last round, C3); `acceleration` virtual points by player id.
    """
    started = time.perf_counter()
    played_rounds = round_number - 1
    requested = [p for p in players if p.active and p.bye_requested]
    to_pair = [p for p in players if p.active and not p.bye_requested]
    # Colours by rank count the players paired now or in an earlier round (bbpPairings'
    # "valid" players: a game, a forfeit or the bye): not one who has only ever been absent.
    ranked = [
        p
        for p in players
        if p.active or p.paired_before or p.had_bye or any(c in "WB" for c in p.colours)
    ]
    work = _prepare(to_pair, played_rounds, points_win, acceleration, ranked)
    forb = {frozenset(f) for f in forbidden}
    last_round = rounds is not None and played_rounds >= rounds - 1
    rnd = _Round(work, played_rounds, forb, last_round)
    rnd.scale = score_scale
    pairs: list[tuple[_P, _P]] = []
    notes: dict[int, dict] = {}
    bye: _P | None = None
    if work:
        rnd.choose_bye_score()
        pairs, bye, notes = _pair_brackets(rnd)
    boards = _boards(pairs, bye, requested, notes, initial_colour, score_scale)
    stats = {
        "system": "dutch",
        "players": len(work),
        "floats": sum(1 for a, b in pairs if a.score != b.score),
        "brackets": len({n["bracket"] for n in notes.values() if "bracket" in n}),
        "seconds": round(time.perf_counter() - started, 4),
    }
    return PairingResult(boards=boards, warnings=[], stats=stats)


def _pair_brackets(rnd: _Round):  # noqa: C901 - C.04.3's bracket steps in their order, read as one
    work = rnd.work
    groups: list[list[_P]] = []
    for p in work:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    remaining = list(work)  # every player not yet paired, in rank order
    carried: list[_P] = []  # MDPs
    pairs: list[tuple[_P, _P]] = []
    notes: dict[int, dict] = {}
    bye: _P | None = None
    single_bye = rnd.odd and rnd.bye_score is not None and rnd.bye_score >= work[0].score
    if single_bye:
        top = work[0].score
        for p in groups[0]:
            o = rnd.initial_mate.get(p.index)
            if o is not None and rnd.by_index[o].score < top:
                single_bye = False
                break
    initial_single = single_bye
    for gi, group in enumerate(groups):
        bracket = carried + group
        nxt = groups[gi + 1] if gi + 1 < len(groups) else []
        in_bracket = {p.index for p in bracket}
        in_next = {p.index for p in nxt}
        mdp = {p.index for p in carried}
        zone_of = {}
        for p in remaining:
            zone_of[p.index] = (
                "current" if p.index in in_bracket else "next" if p.index in in_next else "far"
            )

        def base(
            a: _P, b: _P, zone_of=zone_of, mdp=mdp, single=single_bye, c4=True, compat=True
        ) -> int:
            if a.index in mdp and b.index in mdp:
                return 0  # MDPs are paired with residents, never with each other
            if compat and not rnd.compatible(a, b):
                return 0
            h, lo = (a, b) if a.index < b.index else (b, a)
            zl, zh = zone_of[lo.index], zone_of[h.index]
            if zh == "far" or zl == "far":
                zone = "far"
                use_single = initial_single
            else:
                zone = zl
                use_single = single
            return rnd.packed(h, lo, zone, use_single, c4)

        residents = [p for p in bracket if p.index not in mdp]
        # First on the bracket alone, then on the bracket and the next scoregroup, without
        # the completion digit: when the players left can all be paired (C4), the answer is
        # the answer of the whole (the digits below C4 come from those groups only).
        # Otherwise, and where the bye's scoregroup is next (whether C9 counts there depends
        # on how everyone left is matched), on every player left.
        solved = None
        near_bye = initial_single or (
            rnd.odd and rnd.bye_score is not None and bool(nxt) and rnd.bye_score >= nxt[0].score
        )

        def no_c4(a: _P, b: _P, base=base, compat=True) -> int:
            return base(a, b, c4=False, compat=compat)

        def sig(p: _P, zone_of=zone_of, mdp=mdp) -> tuple:
            """What base reads of a player but whom he met (see _Criteria)."""
            return (p.index in mdp, zone_of[p.index], rnd.kind(p))

        base.sig = no_c4.sig = sig
        if not near_bye and len(bracket) % 2 == 0 and len(bracket) < len(remaining):
            # An even bracket that pairs completely on its own, leaving the others pairable:
            # nothing below can beat it (C5 is at its maximum, C6 and the next bracket do
            # not depend on how it pairs inside), so it is solved on itself alone.
            solved = _solve_bracket(rnd, bracket, carried, residents, no_c4)
            paired = 2 * (len(solved[0]) + len(solved[1]))
            left = [p for p in remaining if p.index not in {q.index for q in bracket}]
            if paired != len(bracket) or not rnd.completable(left):
                solved = None
        elif not near_bye and not single_bye and nxt and len(bracket) < len(remaining):
            # An odd bracket with one downfloater: solved on itself when the next bracket
            # then pairs as well as it can whoever floats (C7, C8 at their maximum: all of
            # it paired, the floater included) and the scoregroups below still pair (C4).
            solved = _solve_bracket(rnd, bracket, carried, residents, no_c4)
            paired = {q.index for pr in solved[0] + solved[1] for q in pr}
            floaters = [q for q in bracket if q.index not in paired]
            if len(floaters) != 1 or not rnd.next_pairs_fully(floaters[0], nxt, remaining, paired):
                solved = None
        if solved is None and not near_bye and len(bracket) + len(nxt) < len(remaining):
            local = bracket + nxt
            solved = _solve_bracket(rnd, local, carried, residents, no_c4)
            used = {i for i in solved[2]} | {p.index for pr in solved[0] for p in pr}
            left = [p for p in remaining if p.index not in used]
            if not rnd.completable(left):
                solved = None
        if solved is None:
            solved = _solve_bracket(rnd, remaining, carried, residents, base)
        mdp_pairs, rem_pairs, mate, n_pairs, remainder = solved
        m = len(carried)
        # Notes: why each board, why each floater.
        bracket_name = f"{_pts(group[0].score, rnd.scale)} ({len(bracket)} players"
        bracket_name += f", {m} moved down)" if m else ")"
        decided = _why_not_first(rnd, remainder, n_pairs, rem_pairs)
        for h, _lo in mdp_pairs:
            notes.setdefault(h.index, {}).update(
                {
                    "bracket": bracket_name,
                    "role": f"moved down from {_pts(h.score, rnd.scale)}, paired first (MDP) with the "
                    "highest resident the criteria allow",
                }
            )
        s1 = {p.index for p in remainder[:n_pairs]}
        for h, lo in rem_pairs:
            exchanged = h.index not in s1 or lo.index in s1
            role = "remainder, exchange between S1 and S2" if exchanged else "remainder, S1"
            role += " against S2" if not exchanged else ""
            notes[h.index] = {"bracket": bracket_name, "role": role, "decided_by": decided}
        paired_here = {p.index for pair in mdp_pairs + rem_pairs for p in pair}
        floating = [p for p in bracket if p.index not in paired_here]
        if floating:
            why = (
                "an odd bracket leaves one player (C5)"
                if len(floating) == 1 and len(bracket) % 2
                else f"only {len(paired_here) // 2} pairs are possible here without a rematch "
                "or two equal absolute colour preferences (C1, C3), leaving the players below "
                "pairable (C4)"
            )
            chosen = (
                "chosen by C6-C21 (scores, the next bracket, colours, repeated floats), then "
                "as the lowest in the order of candidates"
            )
            for p in floating:
                notes.setdefault(p.index, {})["float"] = f"{why}; {chosen}"
        pairs.extend(mdp_pairs)
        pairs.extend(rem_pairs)
        paired = {p.index for pair in mdp_pairs + rem_pairs for p in pair}
        carried = [p for p in bracket if p.index not in paired]
        remaining = [p for p in remaining if p.index not in paired]
        # C9 is looked at (as bbpPairings does) only while the bye's scoregroup and the
        # players moved down to it are, in the matching so far, paired among themselves.
        single_bye = False
        if rnd.odd and nxt and rnd.bye_score is not None and rnd.bye_score >= nxt[0].score:
            single_bye = all(
                rnd.by_index[mate.get(p.index, p.index)].score >= nxt[0].score
                for p in carried + nxt
            )
        for p in carried:
            notes[p.index]["floated_from"] = bracket_name
    if len(carried) > 1:
        raise PairingError("no pairing completes the round (C4)")
    if carried:
        bye = carried[0]
        if not bye.bye_ok:
            raise PairingError("no pairing gives the bye to a player who may take it (C2)")
    return pairs, bye, notes


def _solve_bracket(rnd: _Round, nodes: list[_P], carried: list[_P], residents: list[_P], base):
    """Phase 1: the criteria, the MDPs paired (highest first) and their opponents (each the
    highest resident possible), as digits below the criteria. Phase 2: the remainder (its
    pairs, exchanges and transpositions). Returns (MDP pairs, remainder pairs, the final
    matching, the remainder's number of pairs, the remainder)."""
    m = len(carried)
    if not m and len(nodes) == len(residents) and _alike(rnd, nodes):
        # Every pair of the bracket possible and worth the same on every criterion (a
        # first round): the first candidate, S1 i-th against S2 i-th, is the pairing.
        half = len(nodes) // 2
        rem_pairs = list(zip(nodes[:half], nodes[half : 2 * half], strict=True))
        mate = {}
        for a, b in rem_pairs:
            mate[a.index], mate[b.index] = b.index, a.index
        return [], rem_pairs, mate, half, list(nodes)
    rpos = {p.index for p in residents}
    crit = _Criteria(rnd, nodes, base) if len(nodes) >= FAST_NODES and rx is not None else None
    mate1 = None
    mdp_pairs = []
    if m:
        mate1 = _mdp_matching(nodes, carried, residents, base, crit)
        for p in carried:
            o = mate1.get(p.index)
            if o is not None and o in rpos:
                mdp_pairs.append((p, rnd.by_index[o]))
    taken = {p.index for pair in mdp_pairs for p in pair}
    rest = [p for p in nodes if p.index not in taken]
    remainder = [p for p in residents if p.index not in taken]
    in_rem = {p.index: i for i, p in enumerate(remainder)}

    def count(mate) -> int:
        return sum(1 for p in remainder if mate.get(p.index, -1) in in_rem) // 2

    # The criteria digits fix how many pairs the remainder has, whatever the digits below
    # them: try the most (the usual case), and again with the count found.
    n_pairs = count(mate1) if mate1 is not None else len(remainder) // 2
    mate = _remainder_matching(rest, remainder, n_pairs, base, crit) if rest else {}
    if count(mate) != n_pairs:
        n_pairs = count(mate)
        mate = _remainder_matching(rest, remainder, n_pairs, base, crit)
    rem_pairs = []
    for p in remainder:
        o = mate.get(p.index)
        if o is not None and o in in_rem and o > p.index:
            rem_pairs.append((p, rnd.by_index[o]))
    for a, b in mdp_pairs:
        mate[a.index], mate[b.index] = b.index, a.index
    return mdp_pairs, rem_pairs, mate, n_pairs, remainder


def _alike(rnd: _Round, nodes: list[_P]) -> bool:
    """The players are alike for every criterion (what _Round.values reads of them, no
    absolute colour preference) and none has met another or is forbidden to: every pair
    has the same weight in a bracket of their own."""
    if len(nodes) < 2 or rnd.forbidden or nodes[0].absolute:
        return False
    kind = _kind(nodes[0])
    ids = {p.id for p in nodes}
    return all(_kind(p) == kind and not any(o in ids for o in p.state.opponents) for p in nodes)


def _mdp_matching(nodes, carried, residents, base, crit: _Criteria | None) -> dict:
    """Phase 1's matching: below the criteria, which MDPs are paired (the highest first),
    then each one's opponent (the highest resident first)."""
    m = len(carried)
    r = len(residents)
    rpos = {p.index: i for i, p in enumerate(residents)}
    mpos = {p.index: i for i, p in enumerate(carried)}
    digit = (r + 1).bit_length()
    low1 = m + m * digit

    def digits(h: int, lo: int) -> int:
        if h in mpos and lo in rpos:
            i = mpos[h]
            return ((1 << (m - 1 - i)) << (m * digit)) + ((r - rpos[lo]) << ((m - 1 - i) * digit))
        return 0

    if crit is not None and crit.bits + low1 <= RX_BITS:
        edges = [(u, v, (w << low1) + digits(u, v)) for (u, v), w in crit.small.items()]
        return _mate([p.index for p in nodes], edges, fits=True)

    def weight1(a: _P, b: _P) -> int:
        wt = base(a, b)
        if not wt:
            return 0
        h, lo = (a, b) if a.index < b.index else (b, a)
        return (wt << low1) + digits(h.index, lo.index)

    return _matching(nodes, weight1)


def _why_not_first(rnd: _Round, remainder, n_pairs: int, rem_pairs) -> str:
    """Why the remainder is not paired by the first candidate (S1 i-th against S2 i-th):
    the first criterion on which that candidate loses, or that it is the one chosen."""
    first = list(zip(remainder[:n_pairs], remainder[n_pairs : 2 * n_pairs], strict=False))
    chosen = {(h.index, lo.index) for h, lo in rem_pairs}
    if {(h.index, lo.index) for h, lo in first} == chosen:
        return "the first candidate (S1 i-th against S2 i-th), no other better"
    for h, lo in first:
        if lo.id in h.state.opponents:
            return (
                f"the first candidate would repeat no. {h.state.pairing_number} - "
                f"no. {lo.state.pairing_number} (C1)"
            )
        if not rnd.compatible(h, lo):
            return (
                f"the first candidate would pair no. {h.state.pairing_number} and no. "
                f"{lo.state.pairing_number}, same absolute colour preference (C3)"
            )

    def totals(pairs) -> dict[str, int]:
        out: dict[str, int] = {}
        for h, lo in pairs:
            for k, v in rnd.values(h, lo, "current", False).items():
                out[k] = out.get(k, 0) + v
        return out

    a, b = totals(rem_pairs), totals(first)
    for name in CRITERIA[5:]:
        key = name.split()[0]
        if a.get(key, 0) != b.get(key, 0):
            return f"the first candidate is worse on {name}"
    return "the first candidate leaves a downfloater the brackets below pair worse (C4, C7, C8)"


def _remainder_matching(
    rest: list[_P], remainder: list[_P], n_pairs: int, base, crit: _Criteria | None = None
) -> dict:
    """The remainder's candidate order as digits below the criteria: fewest exchanges,
    smallest difference of the exchanged numbers, the lowest S1 and the highest S2 players
    exchanged, then each S1 player (in order) with the highest opponent possible. In one
    matching of Python integers, or (a large bracket) in compiled matchings of 128-bit
    weights, _remainder_in_steps."""
    if crit is not None:
        mate = _remainder_in_steps(rest, remainder, n_pairs, crit)
        if mate is not None:
            return mate
    rsize = len(remainder)
    pos = {p.index: i for i, p in enumerate(remainder)}
    s2 = rsize - n_pairs
    cnt = (rsize + 1).bit_length() + 1
    bsn = (rsize * rsize + 1).bit_length() + 1
    digit = (rsize + 1).bit_length()
    f_trans = rsize * digit
    f_s2 = s2 + 1
    f_s1 = n_pairs + n_pairs.bit_length() + 1
    low = cnt + bsn + f_s1 + f_s2 + f_trans

    def weight(a: _P, b: _P) -> int:
        wt = base(a, b)
        if not wt:
            return 0
        wt <<= low
        h, lo = (a, b) if a.index < b.index else (b, a)
        if h.index in pos and lo.index in pos:
            i, k = pos[h.index], pos[lo.index]
            in_s1 = i < n_pairs
            x = (
                (int(in_s1) << (bsn + f_s1 + f_s2 + f_trans))
                | ((rsize - i) << (f_s1 + f_s2 + f_trans))
                | (((1 << n_pairs) - (1 << i) if in_s1 else 0) << (f_s2 + f_trans))
                | ((0 if in_s1 else 1 << (s2 - 1 - (i - n_pairs))) << f_trans)
                | ((rsize - k) << ((rsize - 1 - i) * digit))
            )
            wt += x
        return wt

    return _matching(rest, weight)


def _remainder_in_steps(  # noqa: C901 - the steps of one exact method, read as one
    rest: list[_P], remainder: list[_P], n_pairs: int, crit: _Criteria
) -> dict | None:
    """The remainder's matching of _remainder_matching, in compiled matchings whose weights
    fit 128 bits: first the criteria and the exchanges (which players are the higher of the
    remainder's pairs: S1'), or, when those digits are too wide, the criteria and the
    number of exchanges, which must be none (S1' = S1); then the transpositions a few S1'
    players at a time, in order, each with the highest S2' player possible: each step's
    matching is best on the criteria and on those players' opponents, whose pairs are then
    fixed (an optimum's pairs kept are part of an optimum of the rest). Only S1'-S2' pairs
    are left to the remainder in these steps: every optimum on the criteria among them has
    the exchanges of S1', so their digits are not needed. None when a step finds what
    this method does not expect (the one-matching method is then used)."""
    rsize = len(remainder)
    pos = {p.index: i for i, p in enumerate(remainder)}
    s2 = rsize - n_pairs
    cnt = (rsize + 1).bit_length() + 1
    bsn = (rsize * rsize + 1).bit_length() + 1
    f_s2 = s2 + 1
    f_s1 = n_pairs + n_pairs.bit_length() + 1
    nodes = [p.index for p in rest]
    alive = set(nodes)
    base_edges = crit.edges(alive)

    def remainder_pairs(mate) -> list[tuple[int, int]]:
        return [(u, mate[u]) for u in pos if mate.get(u, -1) in pos and u < mate[u]]

    e_bits = cnt + bsn + f_s1 + f_s2
    if crit.bits + e_bits <= RX_BITS:
        edges = []
        for u, v, w in base_edges:
            w <<= e_bits
            if u in pos and v in pos:
                i = pos[u]
                in_s1 = i < n_pairs
                w |= (
                    (int(in_s1) << (bsn + f_s1 + f_s2))
                    | ((rsize - i) << (f_s1 + f_s2))
                    | (((1 << n_pairs) - (1 << i) if in_s1 else 0) << f_s2)
                    | (0 if in_s1 else 1 << (s2 - 1 - (i - n_pairs)))
                )
            edges.append((u, v, w))
        mate = _mate(nodes, edges, fits=True)
        pairs = remainder_pairs(mate)
        if len(pairs) != n_pairs:
            return mate  # the criteria give another number of pairs: asked again with it
        higher = {u for u, _ in pairs}
    else:
        edges = [
            (u, v, (w << cnt) | int(u in pos and v in pos and pos[u] < n_pairs))
            for u, v, w in base_edges
        ]
        mate = _mate(nodes, edges, fits=True)
        pairs = remainder_pairs(mate)
        if len(pairs) != n_pairs:
            return mate
        if any(pos[u] >= n_pairs for u, _ in pairs):
            return None  # exchanges: their digits are too wide for this method
        higher = {p.index for p in remainder[:n_pairs]}
    s1 = [p.index for p in remainder if p.index in higher]
    s2_ = [p.index for p in remainder if p.index not in higher]
    value = {u: len(s2_) - k for k, u in enumerate(s2_)}  # the higher, the more
    digit = (len(s2_) + 1).bit_length()
    room = RX_BITS - crit.bits
    if room < digit:
        return None
    # A step's digits: the first S1' player's opponents ranked in full, then two bits for
    # each next one, relative to a guess (see _guess_opponents); without guesses (GUESS
    # off) every player of the step ranks his opponents in full.
    full = room // digit  # players a step when each ranks his opponents in full
    step = 1  # with guesses
    while (len(s2_) + 1) * 3**step < 1 << room:
        step += 1
    low = room
    guessing = GUESS
    edges_left = [  # the criteria above the step's digits
        (u, v, w << low)
        for u, v, w in base_edges
        if not (u in pos and v in pos) or (u in higher and v in value)
    ]
    options: dict[int, list[int]] = {u: [] for u in s1}  # S2' opponents, highest first
    for u, v, _ in edges_left:
        if u in higher and v in value:
            options[u].append(v)
    for u in s1:
        options[u].sort(key=value.__getitem__, reverse=True)
    weight = {(u, v): w for u, v, w in edges_left} if GUESS else {}
    # The weight of each two classes of players (S1', S2'), when the steps' graph has only
    # the remainder, paired in full: for _class_duals.
    classes: dict[tuple, int] | None = None
    if GUESS and crit.cls and len(pos) == len(rest) and 2 * n_pairs == rsize:
        classes = {}
        for (u, v), w in weight.items():
            if u in higher and v in value:
                key = (crit.cls[u], crit.cls[v])
                if classes.setdefault(key, w) != w:
                    classes = None
                    break
    fixed: dict[int, int] = {}

    def fix(u: int, o: int) -> None:
        fixed[u], fixed[o] = o, u
        alive.discard(u)
        alive.discard(o)

    every = sorted(alive)  # the step graphs' nodes (the fixed ones left without edges)
    at = {p: i for i, p in enumerate(every)}
    compacted = len(alive)
    while s1:
        if GUESS:
            # Guesses from the optimum found, by exchanges of two pairs that keep it
            # optimal; the leading players whose guess is their highest opponent left are
            # certain (an optimum pairs them so, none can do better): fixed without a
            # matching.
            cert = _class_duals(mate, alive, crit.cls, classes, value) if classes else None
            guess, sim, sure = _guess_opponents(s1[:step], options, alive, mate, weight, cert)
            if sure:
                mate = sim
                for u in s1[:sure]:
                    fix(u, guess[u])
                s1 = s1[sure:]
                continue
        else:
            u = s1[0]
            top = next((v for v in options[u] if v in alive), None)
            if top is not None and mate.get(u) == top:
                fix(u, top)
                s1 = s1[1:]
                continue
        chunk = s1[:step] if guessing else s1[:full]
        if len(alive) < 0.8 * compacted:  # the fixed players' edges left out now and then
            edges_left = [e for e in edges_left if e[0] in alive and e[1] in alive]
            compacted = len(alive)
        digits = _step_digits(chunk, guess if guessing else None, value, digit, low, step)
        edges = [
            (at[u], at[v], w + digits[u](v) if u in digits and v in value else w)
            for u, v, w in edges_left
            if u in alive and v in alive
        ]
        mate = _mate(every, edges, fits=True, positions=True)
        for c, u in enumerate(chunk):
            o = mate.get(u)
            if o is None or o not in value:
                return None
            if guessing and c and o != guess[u]:
                break  # this one's best is not the guess: ranked in full next step
            fix(u, o)
        # A step of guesses that fixed fewer than a step in full would have: the next one
        # in full, then guesses again.
        done = sum(1 for u in chunk if u in fixed)
        guessing = GUESS and not (guessing and done < min(full, len(chunk)))
        s1 = [u for u in s1 if u not in fixed]
    for u, o in fixed.items():
        mate[u] = o
    if len(remainder_pairs(mate)) != n_pairs:
        return None
    return mate


def _class_duals(mate, alive, cls, classes, value):
    """A certificate that a pair is in no optimum (on the criteria) of the players left, or
    None: dual values by class of player (S1' classes p, S2' classes q) with p + q at least
    the weight of every two classes that have a pair, equal for those `mate` (an optimum,
    every player paired) pairs, found as shortest paths (Bellman-Ford; none when there is a
    negative cycle). These are an optimal dual of the (bipartite) matching problem, so a
    pair whose p + q exceeds its weight is in no optimum (complementary slackness)."""
    used = set()
    for u in alive:
        v = mate.get(u)
        if v is None:
            return None
        if v in value and u not in value:
            used.add((cls[u], cls[v]))
    # Arcs x -> y of length c: d[y] <= d[x] + c, with d = p for S1' classes, -q for S2'.
    arcs = []
    for (a, b), w in classes.items():
        arcs.append(((1, a), (2, b), -w))
        if (a, b) in used:
            arcs.append(((2, b), (1, a), w))
    dist = {x: 0 for arc in arcs for x in arc[:2]}
    for _ in range(len(dist) + 1):
        changed = False
        for x, y, c in arcs:
            if dist[x] + c < dist[y]:
                dist[y] = dist[x] + c
                changed = True
        if not changed:
            break
    else:
        return None

    def excluded(u: int, v: int) -> bool:
        a, b = cls[u], cls[v]
        w = classes.get((a, b))
        return w is not None and dist[(1, a)] - dist[(2, b)] > w

    return excluded


def _guess_opponents(chunk, options, alive, mate, weight, excluded=None):
    """Each player of `chunk` (S1' players in order) with a guessed opponent: his highest
    S2' player left that an exchange of two pairs brings into the optimum `mate` (on the
    criteria) without loss, else his opponent there. Returns (the guesses, the optimum with
    them, how many leading players are certain: each guessed his highest opponent left but
    those `excluded` (no optimum has the pair), so no optimum pairs him higher)."""
    sim = dict(mate)
    guess: dict[int, int] = {}
    taken: set[int] = set()
    sure = 0
    certain = True

    def w(a: int, b: int):
        return weight.get((a, b) if a < b else (b, a))

    for u in chunk:
        b = sim.get(u)
        got = b
        first = True
        for v in options[u]:
            if v not in alive or v in taken:
                continue
            if v == b:
                break
            a = sim.get(v)
            if a is not None and b is not None and a not in taken:
                wab, wuv, wub, wav = w(a, b), w(u, v), w(u, b), w(a, v)
                if None not in (wab, wuv, wub, wav) and wuv + wab >= wub + wav:
                    sim[u], sim[v], sim[a], sim[b] = v, u, b, a
                    got = v
                    break
            first = first and excluded is not None and excluded(u, v)
        if got is None:
            break
        guess[u] = got
        taken.add(u)
        taken.add(got)
        certain = certain and first
        if certain:
            sure += 1
    return guess, sim, sure


def _step_digits(chunk, guess, value, digit: int, low: int, step: int) -> dict:
    """A step's digits below the criteria, by S1' player: the first ranks every S2' player
    (value, highest first); each next one (with guesses) a digit in base 3: 2 for a player
    above his guess, 1 for the guess, 0 below (what a player adds is less than one unit of
    the digit above: no carry). In any maximum matching each player's digit is the most it
    can be given the players before him; when they all got exactly theirs (the first his
    highest, the next ones 1), their opponents are the order's. Without guesses every
    player ranks in full, `digit` bits each."""
    out = {}
    if guess is None:
        for c, u in enumerate(chunk):
            out[u] = lambda v, s=low - (c + 1) * digit: value[v] << s
        return out
    out[chunk[0]] = lambda v, m=3 ** (step - 1): value[v] * m
    for c, u in enumerate(chunk[1:]):
        g = value.get(guess.get(u), 0)
        out[u] = lambda v, m=3 ** (step - 2 - c), g=g: (
            (2 if value[v] > g else 1 if value[v] == g else 0) * m
        )
    return out


def _pts(score: int, scale: int = 1) -> str:
    return f"score {score / scale:g}"


def choose_colours(h: _P, lo: _P, initial: str) -> str:
    """The colour of h (the higher-ranked player), C.04.3 part 5."""
    ph, pl = h.pref, lo.pref
    if ph is None or pl is None or ph != pl:
        if ph is not None:
            return ph
        if pl is not None:
            return BLACK if pl == WHITE else WHITE
        return initial if h.number_rank % 2 == 0 else (BLACK if initial == WHITE else WHITE)
    if h.absolute and (h.imbalance > lo.imbalance or not lo.absolute):
        return ph
    if lo.absolute and (lo.imbalance > h.imbalance or not h.absolute):
        return BLACK if pl == WHITE else WHITE
    if h.strong and not lo.strong:
        return ph
    if lo.strong and not h.strong:
        return BLACK if pl == WHITE else WHITE
    for ch, cl in zip(reversed(h.played), reversed(lo.played), strict=False):
        if ch != cl:
            return cl  # alternate: h takes what the other had then
    return ph


def _boards(pairs, bye, requested, notes, initial, scale) -> list[Board]:
    ordered = sorted(
        pairs,
        key=lambda pr: (
            -max(pr[0].score, pr[1].score),
            -(pr[0].score + pr[1].score),
            min(pr[0].index, pr[1].index),
        ),
    )
    boards = []
    for a, b in ordered:
        h, lo = (a, b) if a.index < b.index else (b, a)
        colour = choose_colours(h, lo, initial)
        white, black = (h, lo) if colour == WHITE else (lo, h)
        note = dict(notes.get(h.index, {}))
        reason = [f"Bracket {note.get('bracket', '')}: {note.get('role', '')}."]
        if note.get("decided_by"):
            reason.append(f"Candidates: {note['decided_by']}.")
        if h.score != lo.score:
            reason.append(
                f"No. {h.state.pairing_number} ({h.score / scale:g}) floated down from the "
                f"bracket {note.get('floated_from', '')} to meet no. "
                f"{lo.state.pairing_number} ({lo.score / scale:g}): "
                f"{note.get('float', 'C5, C6')}."
            )
        reason.append(_colour_reason(h, lo, colour))
        note.update(
            {
                "system": "dutch",
                "white": _side(white),
                "black": _side(black),
                "reason": " ".join(reason),
            }
        )
        boards.append(Board(len(boards) + 1, white.id, black.id, note))
    if bye is not None:
        note = {
            "system": "dutch",
            "white": _side(bye),
            "black": None,
            "bye": "pairing",
            "reason": (
                f"Pairing-allocated bye: no. {bye.state.pairing_number} is left unpaired by "
                "the lowest bracket; C4 and C2 give it to a player of the lowest score who "
                "had none, C9 to the one with the fewest unplayed games, then the lowest "
                "ranked."
            ),
        }
        boards.append(Board(len(boards) + 1, bye.id, None, note))
    for p in sorted(requested, key=lambda p: p.pairing_number):
        boards.append(
            Board(
                len(boards) + 1,
                p.id,
                None,
                {"system": "dutch", "bye": "requested", "reason": "Bye requested."},
            )
        )
    return boards


def _side(p: _P) -> dict:
    return {
        "pairing_number": p.state.pairing_number,
        "score": p.score,
        "colour_preference": p.pref,
        "absolute": p.absolute,
    }


def _colour_reason(h: _P, lo: _P, colour: str) -> str:
    name = {WHITE: "white", BLACK: "black"}
    if h.pref is None and lo.pref is None:
        return f"Colours: no preferences, the higher ranked takes {name[colour]} by rank (5.2.5)."
    if h.pref != lo.pref or h.pref is None or lo.pref is None:
        return "Colours: both preferences met (5.2.1)."
    return (
        f"Colours: both wanted {name[h.pref]}; no. {h.state.pairing_number} gets "
        f"{name[colour]} (5.2.2-5.2.4: stronger preference, then alternation, then rank)."
    )


def criteria_by_bracket(
    players: Sequence[PlayerState],
    round_number: int,
    pairs: Iterable[tuple[int, int]],
    *,
    rounds: int | None = None,
    points_win: int = 2,
    acceleration: dict[int, int] | None = None,
    forbidden: Iterable[tuple[int, int]] = (),
) -> list[tuple[int, dict[str, int]]]:
    """The quality criteria a given pairing reaches, bracket by bracket from the top:
    [(scoregroup score, {"C5": ..., ...})], each value as the matching maximises it (more
    is better). Absolute criteria broken are counted under "C1-C3"."""
    played_rounds = round_number - 1
    to_pair = [p for p in players if p.active and not p.bye_requested]
    work = _prepare(to_pair, played_rounds, points_win, acceleration, players)
    last_round = rounds is not None and played_rounds >= rounds - 1
    rnd = _Round(work, played_rounds, {frozenset(f) for f in forbidden}, last_round)
    by_id = {p.id: p for p in work}
    mate: dict[int, int] = {}
    for a, b in pairs:
        if a in by_id and b in by_id:
            mate[by_id[a].index] = by_id[b].index
            mate[by_id[b].index] = by_id[a].index
    try:
        rnd.choose_bye_score()
    except PairingError:
        rnd.bye_score = None
    broken = sum(
        1 for i, j in mate.items() if i < j and not rnd.compatible(rnd.by_index[i], rnd.by_index[j])
    )
    groups: list[list[_P]] = []
    for p in work:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    out: list[tuple[int, dict[str, int]]] = []
    carried: list[_P] = []
    done: set[int] = set()
    for gi, group in enumerate(groups):
        bracket = carried + group
        in_bracket = {p.index for p in bracket}
        nxt = {p.index for p in groups[gi + 1]} if gi + 1 < len(groups) else set()
        total: dict[str, int] = {"C1-C3": -broken if gi == 0 else 0}
        for p in bracket:
            o = mate.get(p.index)
            if o is None or o in done or o < p.index and o in in_bracket:
                continue
            h, lo = (p, rnd.by_index[o]) if p.index < o else (rnd.by_index[o], p)
            zone = "current" if lo.index in in_bracket else "next" if lo.index in nxt else "far"
            if zone == "far":
                continue
            for k, v in rnd.values(h, lo, zone, False).items():
                if k != "C4":
                    total[k] = total.get(k, 0) + v
        paired = {
            p.index
            for p in bracket
            if mate.get(p.index) is not None and mate[p.index] in in_bracket
        }
        done |= paired
        carried = [p for p in bracket if p.index not in paired]
        out.append((group[0].score, total))
    return out


def deciding_criterion(
    ours: list[tuple[int, dict[str, int]]], theirs: list[tuple[int, dict[str, int]]]
) -> tuple[str, int | None, int, int] | None:
    """The first criterion, bracket by bracket, on which two pairings differ:
    (criterion, bracket score, our value, their value), or None when equal on all."""
    order = ["C1-C3"] + [c.split()[0] for c in CRITERIA[1:]]
    names = {c.split()[0]: c for c in CRITERIA}
    names["C1-C3"] = "C1-C3 absolute criteria broken"
    for (score, a), (_, b) in zip(ours, theirs, strict=False):
        for key in order:
            if a.get(key, 0) != b.get(key, 0):
                return names[key], score, a.get(key, 0), b.get(key, 0)
    return None
