"""Round robin by the Berger tables (FIDE C.05 Annex 1, the tables the FMJD uses too)."""

from collections import Counter
from itertools import combinations

import pytest

from arbiter.events.pairing import PairingError, PlayerState, berger_rounds, pair_round_robin

# The published Berger tables (FIDE Handbook C.05 Annex 1), written out by hand:
# "white-black" on each board, board 1 first.
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1""",
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1""",
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1""",
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1""",
}


def parse(table: str) -> list[list[tuple[int, int]]]:
    return [
        [tuple(int(x) for x in pair.split("-")) for pair in line.split()]
        for line in table.strip().splitlines()
    ]


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_fide_c05_berger_table_matches_the_published_one(n):
    assert berger_rounds(n) == parse(PUBLISHED[n])


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_fide_c05_odd_number_uses_the_next_even_table_with_a_bye(n):
    assert berger_rounds(n) == parse(PUBLISHED[n + 1])


@pytest.mark.parametrize("n", range(2, 31))
def test_fide_c05_everyone_meets_everyone_once_with_balanced_colours(n):
    rounds = berger_rounds(n)
    size = n + n % 2
    assert len(rounds) == size - 1
    pairs = Counter(frozenset(p) for r in rounds for p in r)
    assert set(pairs) == {frozenset(p) for p in combinations(range(1, size + 1), 2)}
    assert set(pairs.values()) == {1}
    for r in rounds:
        assert sorted(x for p in r for x in p) == list(range(1, size + 1))
    whites = Counter(w for r in rounds for w, _ in r)
    # Everyone has white (size-1)//2 or size//2 times.
    assert all(whites[p] in ((size - 1) // 2, size // 2) for p in range(1, size + 1))


def players(n, inactive=()):
    return [
        PlayerState(id=100 + i, pairing_number=i, rating=2000 - i, active=i not in inactive)
        for i in range(1, n + 1)
    ]


def as_numbers(result):
    by_id = {100 + i: i for i in range(1, 40)}
    return [(by_id[b.white_id], by_id.get(b.black_id)) for b in result.boards]


def test_fide_c05_pair_round_robin_follows_the_table_by_pairing_number():
    result = pair_round_robin(players(6), 2)
    assert as_numbers(result) == [(6, 4), (5, 3), (1, 2)]
    assert [b.number for b in result.boards] == [1, 2, 3]
    assert "Berger table for 6 players, round 2" in result.boards[0].note["reason"]


def test_fide_c05_odd_number_gives_the_bye_to_whoever_meets_the_dummy():
    result = pair_round_robin(players(5), 1)
    # Table for 6: 1-6 2-5 3-4; no. 6 is the dummy, so no. 1 has the bye (listed last).
    assert as_numbers(result) == [(2, 5), (3, 4), (1, None)]
    assert result.boards[-1].note["bye"] == "pairing"


def test_fide_c05_double_round_robin_reverses_colours_in_the_second_cycle():
    n = 6
    first = [
        as_numbers(pair_round_robin(players(n), r, double=True, swap_last_rounds=False))
        for r in range(1, 6)
    ]
    second = [as_numbers(pair_round_robin(players(n), r, double=True)) for r in range(6, 11)]
    for a, b in zip(first, second, strict=True):
        assert sorted((y, x) for x, y in a) == sorted(b)
    with pytest.raises(PairingError, match="has 10 rounds"):
        pair_round_robin(players(n), 11, double=True)
    with pytest.raises(PairingError, match="has 5 rounds"):
        pair_round_robin(players(n), 6)


def test_fide_c05_withdrawn_player_keeps_the_board_and_is_warned_about():
    result = pair_round_robin(players(4, inactive={2}), 1)
    assert as_numbers(result) == [(1, 4), (2, 3)]
    assert result.warnings == ["no. 2 is not active: the game against no. 3 is to be forfeited"]


def test_round_robin_rejects_duplicate_pairing_numbers():
    ps = players(4)
    ps[1] = PlayerState(id=999, pairing_number=1)
    with pytest.raises(PairingError, match="share a pairing number"):
        pair_round_robin(ps, 1)


@pytest.mark.parametrize("n", [4, 5, 6, 8, 10, 12, 15, 20])
def test_fide_c05_double_round_robin_swaps_last_rounds_so_no_colour_three_times(n):
    ps = players(n)
    cycle = len(berger_rounds(n))
    colours = {p.id: "" for p in ps}
    for r in range(1, 2 * cycle + 1):
        for b in pair_round_robin(ps, r, double=True).boards:
            if b.black_id is None:
                colours[b.white_id] += "-"
            else:
                colours[b.white_id] += "W"
                colours[b.black_id] += "B"
    for seq in colours.values():
        played = seq.replace("-", "")
        assert "WWW" not in played and "BBB" not in played, seq
    # The first cycle's last two rounds are swapped: round 5 of 6 players is table round 4.
    if n == 6:
        swapped = pair_round_robin(ps, cycle, double=True)
        assert as_numbers(swapped) == parse(PUBLISHED[6])[cycle - 2]
        assert "round 4 played as round 5" in swapped.boards[0].note["reason"]


def test_fide_c05_double_round_robin_without_the_swap_gives_someone_three_blacks():
    ps = players(6)
    seq = ""
    for r in range(1, 11):
        for b in pair_round_robin(ps, r, double=True, swap_last_rounds=False).boards:
            if ps[0].id in (b.white_id, b.black_id):
                seq += "W" if b.white_id == ps[0].id else "B"
    assert "BBB" in seq  # why the swap is the default
