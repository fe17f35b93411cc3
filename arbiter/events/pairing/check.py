"""check_pairing: every rule a pairing (made by hand, or edited) breaks, one line each."""

from __future__ import annotations

from collections import Counter

from .colours import BLACK, WHITE, breaks_rules
from .types import Board, PlayerState


def check_pairing(players: list[PlayerState], boards: list[Board]) -> list[str]:  # noqa: C901
    # One check after another, in the order the docstring lists them (C901: their count).
    """The rules `boards` break for these players (empty list: none).

    Checked: unknown players; a player on two boards; a player paired against themself;
    a rematch (players who met over the board before); the colour rules (difference beyond
    +-2, the same colour three times in a row); a second pairing-allocated bye; more than
    one pairing-allocated bye, or a bye with an even number of players to pair; an active
    player left unpaired; a withdrawn or absent player paired; a player who requested a bye
    paired in a game.
    """
    by_id = {p.id: p for p in players}
    problems: list[str] = []

    def name(pid: int) -> str:
        p = by_id.get(pid)
        return f"no. {p.pairing_number}" if p else f"player id {pid}"

    seen: Counter[int] = Counter()
    pairing_byes = []
    for board in boards:
        where = f"board {board.number}"
        ids = [board.white_id] + ([board.black_id] if board.black_id is not None else [])
        for pid in ids:
            seen[pid] += 1
            if pid not in by_id:
                problems.append(f"{where}: player id {pid} is not in this event")
        if board.black_id is not None and board.black_id == board.white_id:
            problems.append(f"{where}: {name(board.white_id)} is paired against themself")
            continue
        white, black = by_id.get(board.white_id), by_id.get(board.black_id or -1)
        for p in (white, black):
            if p is None:
                continue
            if not p.active:
                problems.append(f"{where}: {name(p.id)} is withdrawn or absent but is paired")
            elif p.bye_requested and board.black_id is not None:
                problems.append(f"{where}: {name(p.id)} requested a bye but is paired in a game")
        if board.black_id is None:
            if white is not None and white.active and not white.bye_requested:
                pairing_byes.append(white)
                if white.had_bye:
                    problems.append(f"{where}: {name(white.id)} gets a second bye")
            continue
        if white is None or black is None:
            continue
        if black.id in white.opponents or white.id in black.opponents:
            problems.append(
                f"{where}: {name(white.id)} and {name(black.id)} have already played each other"
            )
        for p, colour in ((white, WHITE), (black, BLACK)):
            for rule in breaks_rules(p.colours, colour):
                problems.append(
                    f"{where}: {name(p.id)} with {'white' if colour == WHITE else 'black'}: {rule}"
                )
    for pid, count in seen.items():
        if count > 1:
            problems.append(f"{name(pid)} is on {count} boards")
    to_pair = [p for p in players if p.active and not p.bye_requested]
    for p in to_pair:
        if seen[p.id] == 0:
            problems.append(f"{name(p.id)} is active but not paired")
    if len(pairing_byes) > 1:
        names = ", ".join(name(p.id) for p in pairing_byes)
        problems.append(
            f"{len(pairing_byes)} pairing-allocated byes ({names}); at most one is needed"
        )
    elif pairing_byes and len(to_pair) % 2 == 0:
        problems.append(
            f"{name(pairing_byes[0].id)} has a bye although the {len(to_pair)} players to pair "
            "are an even number"
        )
    return problems
