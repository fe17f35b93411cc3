"""Colour rules shared by the Swiss pairing and the checker.

Only games played over the board count: "-" rounds (bye, forfeit, absence) are skipped, so
W - W is two whites in a row (FIDE C.04.1 and the Dutch system count played games only).

Hard rules (broken only when no pairing exists otherwise, and then counted as exceptions):
- the colour difference (whites minus blacks) stays within -2..+2;
- nobody gets the same colour three times in a row.

Preferences (FIDE Dutch system A.6, the usual Swiss convention):
- absolute: difference below -1 or above +1, or the last two games with the same colour:
  the other colour is the only one the hard rules allow, or nearly so;
- strong: difference +1 or -1: the colour that evens it out;
- mild: difference 0: the colour opposite to the last game;
- none: no game played yet.
"""

from __future__ import annotations

from .types import PlayerState

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
STRENGTH_NAMES = {NONE: "no", MILD: "a mild", STRONG: "a strong", ABSOLUTE: "an absolute"}
WHITE, BLACK = "W", "B"
OTHER = {WHITE: BLACK, BLACK: WHITE}


def played_colours(colours: tuple[str, ...]) -> list[str]:
    return [c for c in colours if c in (WHITE, BLACK)]


def colour_difference(colours: tuple[str, ...]) -> int:
    played = played_colours(colours)
    return played.count(WHITE) - played.count(BLACK)


def preference(colours: tuple[str, ...]) -> tuple[str | None, int]:
    """(colour wanted, strength) from the colour history."""
    played = played_colours(colours)
    if not played:
        return None, NONE
    diff = played.count(WHITE) - played.count(BLACK)
    if diff < -1:
        return WHITE, ABSOLUTE
    if diff > 1:
        return BLACK, ABSOLUTE
    if len(played) >= 2 and played[-1] == played[-2]:
        return OTHER[played[-1]], ABSOLUTE
    if diff == -1:
        return WHITE, STRONG
    if diff == 1:
        return BLACK, STRONG
    return OTHER[played[-1]], MILD


def breaks_rules(colours: tuple[str, ...], colour: str) -> list[str]:
    """The hard colour rules broken if the player gets `colour` next."""
    played = played_colours(colours)
    problems = []
    diff = played.count(WHITE) - played.count(BLACK) + (1 if colour == WHITE else -1)
    if abs(diff) > 2:
        problems.append(f"colour difference would be {diff:+d} (at most 2 either way)")
    if len(played) >= 2 and played[-1] == played[-2] == colour:
        name = "white" if colour == WHITE else "black"
        problems.append(f"{name} three times in a row")
    return problems


class ColourInfo:
    """A player's colour situation, computed once per round."""

    __slots__ = ("rounds", "played", "pref", "strength", "can_white", "can_black")

    def __init__(self, player: PlayerState):
        self.rounds = player.colours
        self.played = played_colours(player.colours)
        self.pref, self.strength = preference(player.colours)
        self.can_white = not breaks_rules(player.colours, WHITE)
        self.can_black = not breaks_rules(player.colours, BLACK)


def allocate(
    a: PlayerState, ia: ColourInfo, b: PlayerState, ib: ColourInfo, a_higher: bool, strict: bool
) -> tuple[bool, int] | None:
    """Who gets white: (a_is_white, hard-rule exceptions). None when strict and impossible.

    Order (FIDE Dutch E.1-E.5): the hard rules; both preferences when compatible; the
    stronger preference; alternate from the most recent round where they had different
    colours; the higher-ranked player's preference.
    """
    options = []
    for a_white in (True, False):
        exceptions = (0 if (ia.can_white if a_white else ia.can_black) else 1) + (
            0 if (ib.can_black if a_white else ib.can_white) else 1
        )
        options.append((a_white, exceptions))
    best = min(e for _, e in options)
    if strict and best > 0:
        return None
    legal = [o for o in options if o[1] == best]
    if len(legal) == 1:
        return legal[0]
    # Both allocations equally legal: preferences decide.
    pa, sa, pb, sb = ia.pref, ia.strength, ib.pref, ib.strength
    if pa is None and pb is None:
        return (a_higher, best)  # the caller decides by board parity (initial colour)
    if pa is None:
        return (pb == BLACK, best)
    if pb is None:
        return (pa == WHITE, best)
    if pa != pb:
        return (pa == WHITE, best)
    if sa != sb:
        return ((pa == WHITE) if sa > sb else (pb == BLACK), best)
    # Same preference, same strength: alternate from the latest round they differed.
    for ca, cb in zip(reversed(ia.rounds), reversed(ib.rounds), strict=False):
        if ca != cb and ca in OTHER and cb in OTHER:
            return (ca == BLACK, best)
    higher_pref = pa if a_higher else pb
    return ((higher_pref == WHITE) if a_higher else (higher_pref == BLACK), best)
