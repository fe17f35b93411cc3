"""FIDE Dutch system (C.04.3): small brackets with known answers for each criterion, the
colour rules, Baku acceleration, then properties over simulated events."""

import random

import pytest

from arbiter.events.pairing import PairingError, PlayerState
from arbiter.events.pairing.dutch import (
    baku_acceleration,
    colour_data,
    criteria_by_bracket,
    deciding_criterion,
    pair_dutch,
)


def player(number, score=0, colours=(), opponents=(), **kw):
    """id = 100 + pairing number; opponents given by pairing number."""
    return PlayerState(
        id=100 + number,
        pairing_number=number,
        score=score,
        colours=tuple(colours),
        opponents=tuple(100 + o for o in opponents),
        **kw,
    )


def pairs(result):
    """{(white, black)} by pairing number; a bye as (number, None)."""
    return {
        (b.white_id - 100, None if b.black_id is None else b.black_id - 100) for b in result.boards
    }


def unordered(result):
    return {frozenset(p) for p in pairs(result)}


def test_round_one_top_half_meets_bottom_half_colours_alternate_c04_3():
    result = pair_dutch([player(n) for n in range(1, 9)], 1)
    # S1 = 1-4 against S2 = 5-8; the higher-ranked player of board 1 gets the initial colour,
    # then alternately (5.2.5).
    assert pairs(result) == {(1, 5), (6, 2), (3, 7), (8, 4)}


def test_round_one_initial_colour_black_reverses_every_board():
    result = pair_dutch([player(n) for n in range(1, 9)], 1, initial_colour="B")
    assert pairs(result) == {(5, 1), (2, 6), (7, 3), (4, 8)}


def test_odd_field_the_lowest_ranked_gets_the_bye_c04_3_c4():
    result = pair_dutch([player(n) for n in range(1, 10)], 1)
    assert (9, None) in pairs(result)
    assert {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))} <= (
        unordered(result)
    )
    bye = [b for b in result.boards if b.black_id is None][0]
    assert bye.note["bye"] == "pairing"


def test_no_second_bye_c2():
    players = [player(n) for n in range(1, 9)] + [player(9, had_bye=True)]
    result = pair_dutch(players, 2)
    assert (8, None) in pairs(result)


def test_bye_from_the_lowest_scoregroup():
    players = [player(n, score=2) for n in range(1, 6)] + [player(n) for n in range(6, 9)]
    players += [player(9, score=2)]
    result = pair_dutch(players, 2)
    byes = [p for p in pairs(result) if p[1] is None]
    assert byes == [(8, None)]  # the lowest of the 0-point group, not one of the six 2s


def test_no_rematch_c1_transposition_in_s2():
    # 1-5 met: the next candidate in the Dutch order is the transposition 1-6, 2-5.
    players = [player(1, opponents=[5]), player(5, opponents=[1])]
    players += [player(n) for n in (2, 3, 4, 6, 7, 8)]
    result = pair_dutch(players, 2)
    assert unordered(result) == {frozenset(p) for p in ((1, 6), (2, 5), (3, 7), (4, 8))}


def test_exchange_lowest_s1_with_highest_s2_c04_3():
    # 1 has met all of S2: the smallest exchange moves 3 down and 4 up:
    # S1 = 1 2 4, S2 = 3 5 6 gives 1-3, 2-5, 4-6.
    players = [player(1, opponents=[4, 5, 6])]
    players += [player(n, opponents=[1] if n in (4, 5, 6) else []) for n in range(2, 7)]
    result = pair_dutch(players, 4)
    assert unordered(result) == {frozenset(p) for p in ((1, 3), (2, 5), (4, 6))}


def test_same_absolute_colour_preference_never_meets_c3():
    # 1 and 3 both played black twice in a row (absolute preference for white): 1-3 is not
    # allowed (they are not topscorers), so 1-4, 2-3; each absolute preference is met.
    players = [
        player(1, colours="BB"),
        player(2, colours="WB"),
        player(3, colours="BB"),
        player(4, colours="BW"),
    ]
    result = pair_dutch(players, 3, rounds=9)
    assert unordered(result) == {frozenset((1, 4)), frozenset((2, 3))}
    assert pairs(result) == {(1, 4), (3, 2)}


def test_topscorers_may_meet_in_the_last_round_despite_absolute_preferences_c3():
    players = [
        player(1, score=4, colours="BB", opponents=[3, 4]),
        player(2, score=4, colours="BB", opponents=[3, 4]),
        player(3, score=0, colours="WB", opponents=[1, 2]),
        player(4, score=0, colours="BW", opponents=[1, 2]),
    ]
    with pytest.raises(PairingError):  # not the last round: 1-2 is forbidden (C3)
        pair_dutch(players, 3, rounds=5)
    result = pair_dutch(players, 3, rounds=3)  # last round: 1 and 2 are topscorers
    assert frozenset((1, 2)) in unordered(result)


def test_completion_floats_the_top_down_when_the_bottom_cannot_pair_c4():
    # 3 and 4 have met: 1-2 would leave them a rematch, so both leaders float down,
    # the higher MDP with the higher resident.
    players = [
        player(1, score=2),
        player(2, score=2),
        player(3, opponents=[4]),
        player(4, opponents=[3]),
    ]
    result = pair_dutch(players, 2)
    assert unordered(result) == {frozenset((1, 3)), frozenset((2, 4))}
    assert "moved down" in " ".join(b.note["reason"] for b in result.boards)


def test_fewest_downfloaters_c5_then_lowest_scores_c6():
    # Three leaders: one must float. C6 is indifferent (same score); the lowest ranked floats
    # (the Dutch order), and meets the top of the next group.
    players = [player(n, score=2) for n in (1, 2, 3)] + [player(n) for n in (4, 5, 6)]
    result = pair_dutch(players, 2)
    assert frozenset((1, 2)) in unordered(result)
    assert frozenset((3, 4)) in unordered(result)


def test_repeated_downfloat_avoided_c14():
    # 3 floated down last round: now 2 floats instead (C14 before the Dutch order).
    players = [
        player(1, score=2, floats=(None,)),
        player(2, score=2, floats=(None,)),
        player(3, score=2, floats=("down",)),
    ] + [player(n, floats=(None,)) for n in (4, 5, 6)]
    result = pair_dutch(players, 2)
    assert frozenset((1, 3)) in unordered(result)
    assert frozenset((2, 4)) in unordered(result)


def test_colour_preferences_met_before_the_dutch_order_c12():
    # Straight S1-S2 pairing 1-3, 2-4 would leave two white preferences against each other;
    # the transposition 1-4, 2-3 meets all four (C12 before the order of candidates).
    players = [
        player(1, colours="B"),
        player(2, colours="W"),
        player(3, colours="B"),
        player(4, colours="W"),
    ]
    result = pair_dutch(players, 2)
    assert pairs(result) == {(1, 4), (3, 2)}


def test_colour_preference_strengths_c04_3_1_7():
    assert colour_data("BB")[:3] == ("W", True, False)
    assert colour_data("WBW")[:3] == ("B", False, True)
    assert colour_data("WB")[:3] == ("W", False, False)  # mild: the other colour than last
    assert colour_data("W-B")[:3] == ("W", False, False)  # unplayed rounds are skipped
    assert colour_data("")[0] is None


def test_colour_allocation_stronger_preference_wins_part_5():
    # Both want white; 2 (absolute, BB) beats 1 (mild).
    players = [player(1, score=2, colours="WB"), player(2, score=2, colours="BB")]
    result = pair_dutch(players, 3)
    assert pairs(result) == {(2, 1)}


def test_colour_allocation_alternates_from_the_last_different_round_part_5():
    # Both have a mild preference for white (colour difference 0, black last). Going back,
    # round 2 is the latest where they differed: 1 had white then, so 1 gets black (5.2.4).
    players = [player(1, score=2, colours="BWWB"), player(2, score=2, colours="WBWB")]
    result = pair_dutch(players, 5)
    assert pairs(result) == {(2, 1)}


def test_requested_bye_and_absent_players_are_not_paired():
    players = [player(n) for n in range(1, 7)]
    players[5] = player(6, bye_requested=True)
    players[4] = player(5, active=False)
    result = pair_dutch(players, 1)
    ids = {b.white_id for b in result.boards} | {b.black_id for b in result.boards}
    assert 105 not in ids
    assert (6, None) in pairs(result)
    requested = [b for b in result.boards if b.black_id == None and b.white_id == 106]  # noqa: E711
    assert requested[0].note["bye"] == "requested"


def test_every_board_explains_itself():
    players = [player(n, score=2 if n < 4 else 0) for n in range(1, 8)]
    result = pair_dutch(players, 2)
    for b in result.boards:
        assert b.note["system"] == "dutch"
        assert b.note["reason"]
    floated = [b for b in result.boards if "floated down" in b.note["reason"]]
    assert floated and "an odd bracket leaves one player (C5)" in floated[0].note["reason"]
    assert any("Candidates: the first candidate" in b.note["reason"] for b in result.boards)


def test_a_board_says_which_criterion_ruled_out_the_first_candidate():
    # 1-3 met: the first candidate 1-3, 2-4 is out by C1, and the note says so.
    players = [player(1, opponents=[3]), player(2), player(3, opponents=[1]), player(4)]
    result = pair_dutch(players, 2)
    reasons = " ".join(b.note["reason"] for b in result.boards)
    assert "would repeat no. 1 - no. 3 (C1)" in reasons


def test_baku_acceleration_c04_5_1():
    numbers = list(range(1, 21))
    first = baku_acceleration(numbers, rounds=9, round_number=1, points_win=2)
    assert [first[n] for n in (1, 10, 11, 20)] == [2, 2, 0, 0]  # group A: first 10
    assert baku_acceleration(numbers, 9, 4, 2)[1] == 1  # second part: half
    assert baku_acceleration(numbers, 9, 6, 2)[1] == 0  # second half of the event: none


def test_acceleration_changes_the_brackets():
    players = [player(n) for n in range(1, 9)]
    acc = {p.id: v for p, v in zip(players, (2, 2, 2, 2, 0, 0, 0, 0), strict=True)}
    result = pair_dutch(players, 1, acceleration=acc)
    assert unordered(result) == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_deciding_criterion_names_the_first_criterion_that_differs():
    players = [
        player(1, colours="B"),
        player(2, colours="W"),
        player(3, colours="B"),
        player(4, colours="W"),
    ]
    good = criteria_by_bracket(players, 2, [(101, 104), (103, 102)])
    bad = criteria_by_bracket(players, 2, [(101, 103), (102, 104)])
    name, score, ours, theirs = deciding_criterion(good, bad)
    assert name.startswith("C12") and ours > theirs
    assert deciding_criterion(good, good) is None


# --- properties over simulated events ---------------------------------------------------


def _simulate(n, rounds, seed):
    rng = random.Random(seed)
    state = {
        i: dict(score=0, colours=[], opponents=[], floats=[], had_bye=False)
        for i in range(1, n + 1)
    }
    withdrawn = set()
    for rnd in range(1, rounds + 1):
        if rnd > 2 and rng.random() < 0.3:
            withdrawn.add(rng.randint(1, n))
        players = [
            PlayerState(
                id=i,
                pairing_number=i,
                score=s["score"],
                colours=tuple(s["colours"]),
                opponents=tuple(s["opponents"]),
                floats=tuple(s["floats"]),
                had_bye=s["had_bye"],
                active=i not in withdrawn,
            )
            for i, s in state.items()
        ]
        result = pair_dutch(players, rnd, rounds=rounds)
        yield rnd, players, result
        before = {i: s["score"] for i, s in state.items()}
        seen = set()
        for b in result.boards:
            w, k = b.white_id, b.black_id
            seen.add(w)
            if k is None:
                state[w]["score"] += 2
                state[w]["had_bye"] = True
                state[w]["colours"].append("-")
                state[w]["floats"].append("down")
                continue
            seen.add(k)
            r = rng.choice((2, 1, 0))
            state[w]["score"] += r
            state[k]["score"] += 2 - r
            for me, other, colour in ((w, k, "W"), (k, w, "B")):
                state[me]["colours"].append(colour)
                state[me]["opponents"].append(other)
                d = before[me] - before[other]
                state[me]["floats"].append("down" if d > 0 else "up" if d < 0 else None)
        for i in state:
            if i not in seen:
                state[i]["colours"].append("-")
                state[i]["floats"].append(None)


@pytest.mark.parametrize("n,rounds,seed", [(9, 7, 1), (14, 9, 2), (21, 8, 3), (30, 6, 4)])
def test_properties_no_rematch_absolute_colours_completion(n, rounds, seed):
    for rnd, players, result in _simulate(n, rounds, seed):
        by_id = {p.id: p for p in players}
        active = {p.id for p in players if p.active}
        seen = []
        byes = 0
        for b in result.boards:
            seen.append(b.white_id)
            if b.black_id is None:
                byes += 1
                assert not by_id[b.white_id].had_bye, f"round {rnd}: second bye (C2)"
                continue
            seen.append(b.black_id)
            w, k = by_id[b.white_id], by_id[b.black_id]
            assert k.id not in w.opponents, f"round {rnd}: rematch (C1)"
            pw, aw = colour_data(w.colours)[:2]
            pk, ak = colour_data(k.colours)[:2]
            if aw and ak and pw == pk:
                last = rnd == rounds
                top = 2 * max(w.score, k.score) > (rnd - 1) * 2
                assert last and top, f"round {rnd}: C3 broken"
            if aw and not (ak and pk == pw):
                assert pw == "W", f"round {rnd}: absolute preference unmet"
            if ak and not (aw and pk == pw):
                assert pk == "B", f"round {rnd}: absolute preference unmet"
        assert sorted(seen) == sorted(active), f"round {rnd}: completion (C4)"
        assert byes == len(active) % 2


def test_colours_by_rank_skip_a_player_never_paired_part_5():
    # No. 2 is absent from round 1: ranks by pairing number count 1, 3, 4, 5, so no. 3 is
    # the second-ranked and takes the other colour than no. 1.
    players = [player(n) for n in range(1, 6)]
    players[1] = player(2, active=False)
    result = pair_dutch(players, 1)
    assert pairs(result) == {(1, 4), (5, 3)}


@pytest.mark.parametrize("paired_before, board_two", [(True, (3, 5)), (False, (5, 3))])
def test_colours_by_rank_count_a_player_paired_before_now_away_part_5(paired_before, board_two):
    # C.04.3 5.2.5, as bbpPairings ranks: no. 2 lost round 1 by forfeit (paired, not played)
    # and is away in round 2; he still counts, so no. 3 is third-ranked (odd) and takes the
    # initial colour. Had no. 2 never been in a pairing, no. 3 would be second (even).
    players = [player(n, colours="-", paired_before=True) for n in (1, 3, 4, 5)]
    players.append(player(2, colours="-", active=False, paired_before=paired_before))
    result = pair_dutch(players, 2)
    assert pairs(result) == {(1, 4), board_two}


@pytest.mark.parametrize("n,rounds,seed", [(23, 7, 5), (36, 8, 6), (51, 9, 7)])
@pytest.mark.parametrize("bits", [120, 40])
def test_compiled_steps_pair_as_the_one_matching_method_c04_3(monkeypatch, n, rounds, seed, bits):
    # The same C.04.3 order two ways: large brackets in compiled 128-bit matchings (the
    # criteria re-packed, the exchanges, then the transpositions a few S1 players a step),
    # small ones in one matching of Python integers. Every bracket here takes each way;
    # with 40-bit weights the steps are many (a few players each).
    from arbiter.events.pairing import dutch

    steps = []
    mate = dutch._mate
    monkeypatch.setattr(dutch, "_mate", lambda *a, **k: steps.append(k) or mate(*a, **k))
    for rnd, players, _ in _simulate(n, rounds, seed):
        got = {}
        for fast, width in ((2, bits), (10**6, 120)):
            monkeypatch.setattr(dutch, "FAST_NODES", fast)
            monkeypatch.setattr(dutch, "RX_BITS", width)
            result = pair_dutch(players, rnd, rounds=rounds)
            got[fast] = [(b.white_id, b.black_id) for b in result.boards]
        assert got[2] == got[10**6], f"round {rnd}"
    assert sum(1 for k in steps if k.get("positions")) > rounds  # the steps ran


@pytest.mark.parametrize("n", [40, 41])
def test_first_round_by_its_first_candidate_as_the_matching_gives_c04_3(monkeypatch, n):
    # Players alike on every criterion, none met: every pair weighs the same, so the first
    # candidate (S1 i-th against S2 i-th, the last one the bye) is what the matchings find.
    from arbiter.events.pairing import dutch

    players = [player(k) for k in range(1, n + 1)]
    shortcut = pair_dutch(players, 1).boards
    monkeypatch.setattr(dutch, "_alike", lambda rnd, nodes: False)
    monkeypatch.setattr(dutch, "FAST_NODES", 2)
    matched = pair_dutch(players, 1).boards
    assert [(b.white_id, b.black_id) for b in shortcut] == [
        (b.white_id, b.black_id) for b in matched
    ]
    assert (shortcut[0].white_id, shortcut[0].black_id) == (101, 100 + n // 2 + 1)


@pytest.mark.parametrize("n,seed,bits", [(120, 8, 120), (121, 9, 120), (120, 10, 60)])
def test_guessed_opponents_pair_as_the_full_steps_c04_3(monkeypatch, n, seed, bits):
    # Round 2 (scoregroups of winners, draws, losers; colour preferences W or B): the
    # transpositions (each S1 player with the highest S2 player the criteria allow) by
    # guessed opponents, made certain by dual values by class (no optimum pairs him
    # higher) or checked by a base-3 digit in a step's matching, pair as the steps that
    # rank every opponent in full and as the one matching of Python integers, with fewer
    # compiled matchings.
    from arbiter.events.pairing import dutch

    rounds = list(_simulate(n, 3, seed))
    _, players, _ = rounds[1]
    mate = dutch._mate
    duals = dutch._class_duals
    proofs = []
    monkeypatch.setattr(dutch, "_class_duals", lambda *a: proofs.append(duals(*a)) or proofs[-1])
    got, steps = {}, {}
    for name, fast, guess in (("guess", 2, True), ("full", 2, False), ("one", 10**6, True)):
        calls = []
        monkeypatch.setattr(dutch, "_mate", lambda *a, c=calls, **k: c.append(k) or mate(*a, **k))
        monkeypatch.setattr(dutch, "FAST_NODES", fast)
        monkeypatch.setattr(dutch, "RX_BITS", bits)
        monkeypatch.setattr(dutch, "GUESS", guess)
        result = pair_dutch(players, 2, rounds=9)
        got[name] = [(b.white_id, b.black_id) for b in result.boards]
        steps[name] = sum(1 for k in calls if k.get("positions"))
    assert got["guess"] == got["full"] == got["one"]
    assert steps["guess"] < steps["full"]
    assert any(p is not None for p in proofs)  # the dual values were found and used
