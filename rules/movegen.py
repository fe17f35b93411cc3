"""Move generation on raw bitboards (FMJD art. 3 and 4). Internal: `Position` wraps it.

Every function takes the side to move as ``own`` and the other side as ``opp`` (bitboards of
the padded layout in `rules.board`), ``kings`` (both colours) and ``white`` (True when the side
to move is White, which fixes the direction of its men). Nothing here builds objects in the
inner loops; routes are tuples of ints.
"""

from .board import ALL, MAN_JUMPS, RAYS


def _slide(gen: int, empty: int, delta: int) -> int:
    """Every square reachable from ``gen`` by sliding over free squares in one direction."""
    out = 0
    if delta > 0:
        gen = (gen << delta) & empty
        while gen:
            out |= gen
            gen = (gen << delta) & empty
    else:
        d = -delta
        gen = (gen >> d) & empty
        while gen:
            out |= gen
            gen = (gen >> d) & empty
    return out


def capturing_men(men: int, opp: int, empty: int) -> int:
    """The men that can take at least one piece (FMJD 4.2), by shifts: a man whose neighbour
    in some direction is an opponent's piece with a free square behind it."""
    return (
        ((((empty >> 5) & opp) >> 5) & men)
        | ((((empty >> 6) & opp) >> 6) & men)
        | ((((empty << 5) & opp) << 5) & men)
        | ((((empty << 6) & opp) << 6) & men)
    )


def has_capture(own: int, opp: int, kings: int) -> bool:
    """Whether the side to move has any capture (FMJD 4.1), with shifts only."""
    empty = ALL & ~(own | opp)
    men = own & ~kings
    # FMJD 4.2: a man takes an adjacent piece, forwards or backwards.
    if men and (
        ((((men << 5) & opp) << 5) & empty)
        or ((((men << 6) & opp) << 6) & empty)
        or ((((men >> 5) & opp) >> 5) & empty)
        or ((((men >> 6) & opp) >> 6) & empty)
    ):
        return True
    k = own & kings
    return bool(k) and king_can_capture(k, opp, empty)


def king_can_capture(k: int, opp: int, empty: int) -> bool:
    """FMJD 4.3: whether a king of ``k`` can take a piece at any distance on its diagonal."""
    for delta in (5, 6):
        reach = k | _slide(k, empty, delta)
        if (((reach << delta) & opp) << delta) & empty:
            return True
        reach = k | _slide(k, empty, -delta)
        if (((reach >> delta) & opp) >> delta) & empty:
            return True
    return False


def capture_targets(own: int, opp: int, kings: int) -> tuple[int, list[tuple[int, int, int]]]:
    """The legal captures as (from bit, to bit, captured bitboard), deduplicated.

    FMJD 4.13: only the captures taking the most pieces (a king counts as one; 4.14: no
    priority for kings) are legal. Routes taking the same set of pieces from the same start
    to the same end are one move. Returns (pieces taken, moves); (0, []) when none.
    """
    best = 0
    found: set[tuple[int, int, int]] = set()
    men = own & ~kings
    base_empty = ALL & ~(own | opp)

    k = own & kings
    while k:
        f = k & -k
        k ^= f
        empty = base_empty | f  # the king's own square is free while it captures (FMJD 4.8)

        # FMJD 4.3/4.6/4.8: depth-first over the king's jumps; a jumped piece stays on the
        # board (and blocks) until the capture ends, and is never jumped twice.
        stack = [(f.bit_length() - 1, 0, 0)]
        while stack:
            j, cap, n = stack.pop()
            extended = False
            for ray in RAYS[j]:
                it = iter(ray)
                for _idx, b in it:
                    if b & empty:
                        continue
                    # an own piece (FMJD 4.7) or one already jumped (4.8) ends the ray
                    if b & opp and not b & cap:
                        ncap = cap | b
                        for idx2, b2 in it:
                            if not b2 & empty:
                                break
                            extended = True
                            stack.append((idx2, ncap, n + 1))
                    break
            if not extended and n:
                if n > best:
                    best = n
                    found = {(f, 1 << j, cap)}
                elif n == best:
                    found.add((f, 1 << j, cap))

    men = capturing_men(men, opp, base_empty)
    singles = []  # one-piece man captures: distinct by construction, no set needed
    while men:
        f = men & -men
        men ^= f
        empty = base_empty | f
        for vb, land, lb in MAN_JUMPS[f.bit_length() - 1]:
            if not (vb & opp and lb & empty):
                continue
            # FMJD 4.5: can the man go on from the landing square?
            for vb2, _land2, lb2 in MAN_JUMPS[land]:
                if vb2 & opp and vb2 != vb and lb2 & empty:
                    break
            else:
                if best <= 1:
                    best = 1
                    singles.append((f, lb, vb))
                continue
            stack = [(land, vb, 1)]
            while stack:
                j, cap, n = stack.pop()
                extended = False
                for vb2, land2, lb2 in MAN_JUMPS[j]:
                    if vb2 & opp and not vb2 & cap and lb2 & empty:
                        extended = True
                        stack.append((land2, cap | vb2, n + 1))
                if not extended:
                    if n > best:
                        best = n
                        found = {(f, 1 << j, cap)}
                        singles = []
                    elif n == best:
                        found.add((f, 1 << j, cap))
    if best == 1:
        if found:
            singles.extend(found)
        return 1, singles
    return best, list(found)


def man_multi_captures(men: int, opp: int, empty: int) -> list[tuple[int, int, int]]:
    """The longest captures (FMJD 4.5, 4.13) of the given men, as (from bit, to bit, taken
    bitboard), deduplicated; the caller knows that one of them takes at least two pieces,
    so the men not given (single captures only) cannot matter."""
    best = 0
    found: set[tuple[int, int, int]] = set()
    while men:
        f = men & -men
        men ^= f
        free = empty | f
        stack = [(f.bit_length() - 1, 0, 0)]
        while stack:
            j, cap, n = stack.pop()
            extended = False
            for vb, land, lb in MAN_JUMPS[j]:
                if vb & opp and not vb & cap and lb & free:
                    extended = True
                    stack.append((land, cap | vb, n + 1))
            if not extended and n >= best:
                if n > best:
                    best = n
                    found = set()
                found.add((f, 1 << j, cap))
    return list(found)


def capture_routes(
    own: int, opp: int, kings: int, *, majority: bool = True
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Every capture route as (from index, landing indices, captured indices in order).

    Unlike `capture_targets` this keeps every route (also two routes over the same pieces),
    for notation: parsing incomplete paths and choosing the representative route. With
    ``majority=False`` the shorter captures are kept too (to explain FMJD 4.13 refusals).
    """
    routes: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    men = own & ~kings
    base_empty = ALL & ~(own | opp)

    def king_search(start, j, cap, landings, caps, empty):
        extended = False
        for ray in RAYS[j]:
            it = iter(ray)
            for idx, b in it:
                if b & empty:
                    continue
                # an own piece (FMJD 4.7) or one already jumped (4.8) ends the ray
                if b & opp and not b & cap:
                    for idx2, b2 in it:
                        if not b2 & empty:
                            break
                        extended = True
                        king_search(start, idx2, cap | b, landings + (idx2,), caps + (idx,), empty)
                break
        if caps and (not extended or not majority):
            routes.append((start, landings, caps))

    def man_search(start, j, cap, landings, caps, empty):
        extended = False
        for vb, land, lb in MAN_JUMPS[j]:
            if vb & opp and not vb & cap and lb & empty:
                extended = True
                man_search(
                    start, land, cap | vb, landings + (land,), caps + (vb.bit_length() - 1,), empty
                )
        if caps and (not extended or not majority):
            routes.append((start, landings, caps))

    k = own & kings
    while k:
        f = k & -k
        k ^= f
        j = f.bit_length() - 1
        king_search(j, j, 0, (), (), base_empty | f)
    men = capturing_men(men, opp, base_empty)
    while men:
        f = men & -men
        men ^= f
        j = f.bit_length() - 1
        man_search(j, j, 0, (), (), base_empty | f)
    if majority and routes:
        best = max(len(r[2]) for r in routes)
        routes = [r for r in routes if len(r[2]) == best]
    return routes
