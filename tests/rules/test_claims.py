"""Draw claims under FMJD 6.1-6.4 checked by the engine, and the draw rules' state as data.

For each rule: the claim one ply too early is refused with its explanation (which counter
stands where, which position occurred how often), and on the ply the rule applies it is
granted with the rule's termination.
"""

import json

import pytest

from rules import Game, Score, Termination
from tests.rules.test_game import offer_capture, quiet_step, take


def rule(game: Game, article: str) -> dict:
    return next(s.to_dict() for s in game.draw_rules() if s.article == article)


def test_claim_fmjd_6_1_refused_on_the_second_occurrence_granted_on_the_third():
    game = Game("W:WK47,K49:BK2,K4")
    for m in ["47-41", "2-7", "41-47", "7-2", "47-41", "2-7", "41-47"]:
        game.push(m)
    early = game.check_claim("6.1")
    assert (early.granted, early.code, early.outcome) == (False, "too_early", None)
    # the position after ply 7 stood after plies 3 and 7: twice of the three needed
    assert early.params["count"] == 2 and early.params["limit"] == 3
    assert early.params["occurred_at"] == [3, 7]
    assert rule(game, "6.1")["count"] == 2
    game.push("7-2")
    claim = game.check_claim("6.1")
    assert claim.granted and claim.code == "granted"
    assert claim.params["occurred_at"] == [0, 4, 8] and claim.params["applied_at_ply"] == 8
    assert (claim.outcome.termination, claim.outcome.score, claim.outcome.article) == (
        Termination.DRAW_REPETITION,
        Score.DRAW,
        "6.1",
    )


def test_claim_fmjd_6_2_refused_at_49_king_moves_granted_at_50():
    game = Game("W:WK47,K49,36:BK2,K4,15")
    for _ in range(49):
        quiet_step(game)
    early = game.check_claim("6.2")
    assert (early.granted, early.code) == (False, "too_early")
    assert (early.params["count"], early.params["limit"], early.params["plies"]) == (24, 25, 49)
    assert early.params["since_ply"] == 0
    quiet_step(game)
    claim = game.check_claim("6.2")
    assert claim.granted and claim.outcome.termination is Termination.DRAW_25_MOVES
    assert claim.params["applied_at_ply"] == 50


@pytest.mark.parametrize(
    "fen, article, limit, termination",
    [
        ("W:WK47,K49,K48:BK3", "6.3", 16, Termination.DRAW_16_MOVES),
        ("W:WK47,36:BK3", "6.4", 5, Termination.DRAW_5_MOVES),
        ("B:WK47:BK3", "6.4", 5, Termination.DRAW_5_MOVES),
    ],
)
def test_claim_fmjd_6_3_6_4_refused_one_ply_early_granted_on_the_limit(
    fen, article, limit, termination
):
    game = Game(fen)
    for _ in range(2 * limit - 1):
        quiet_step(game)
    early = game.check_claim(article)
    assert (early.granted, early.code) == (False, "too_early")
    assert early.params["count"] == limit - 1 and early.params["limit"] == limit
    assert early.params["plies"] == 2 * limit - 1 and early.params["since_ply"] == 0
    quiet_step(game)
    claim = game.check_claim(article)
    assert claim.granted and claim.outcome.termination is termination
    assert claim.outcome.article == article


def test_claim_fmjd_6_4_counted_from_the_capture_that_made_the_material():
    game = Game("W:WK47,K49,K48:BK3")
    for _ in range(6):
        quiet_step(game)
    offer_capture(game)
    take(game)  # two kings against a king after ply 8
    assert rule(game, "6.4")["since_ply"] == 8 and rule(game, "6.3")["in_force"] is False
    refused = game.check_claim("6.3")
    assert (refused.granted, refused.code) == (False, "not_in_force")


def test_claim_fmjd_6_4_not_in_force_with_other_material():
    claim = Game().check_claim("6.4")
    assert (claim.granted, claim.code) == (False, "not_in_force")
    assert claim.params["in_force"] is False


def test_claim_granted_when_the_rule_applied_earlier_and_play_went_on_fmjd_6_4():
    # FMJD 6: the game is drawn on the ply the rule applies; a late claim names that ply.
    game = Game("W:WK47,36:BK3")
    for _ in range(12):
        quiet_step(game)
    claim = Game.from_state(json.loads(json.dumps(game.to_state()))).check_claim("6.4")
    assert claim.granted and claim.params["plies"] == 12
    assert claim.params["applied_at_ply"] == 10  # 5 moves each: drawn since ply 10
    game6_1 = Game("W:WK47,K49:BK2,K4")
    for m in ["47-41", "2-7", "41-47", "7-2"] * 2 + ["49-44"]:
        game6_1.push(m)
    late = game6_1.check_claim("6.1")
    assert late.params["count"] == 1  # the position now stands for the first time ...
    assert late.granted and late.params["applied_at_ply"] == 8  # ... but it was on ply 8


def test_claim_refused_when_the_game_is_already_won_fmjd_7_2():
    claim = Game("W:W:BK1").check_claim("6.4")
    assert (claim.granted, claim.code) == (False, "game_decided")
    assert claim.params["by_article"] == "7.2.3"


def test_claim_under_an_article_that_is_not_a_draw_rule_is_refused():
    claim = Game().check_claim("6.9")
    assert (claim.granted, claim.code) == (False, "unknown_article")
    assert claim.to_dict()["code"] == "claim.unknown_article"


def test_draw_rules_state_is_json_and_survives_a_restore():
    game = Game("W:WK47,K49,36:BK2,K4,15")
    for _ in range(37):
        quiet_step(game)
    states = [s.to_dict() for s in game.draw_rules()]
    assert [s["article"] for s in states] == ["6.1", "6.2", "6.3", "6.4"]
    assert states[1]["count"] == 18 and states[1]["limit"] == 25  # "6.2: 18 of 25"
    again = Game.from_state(json.loads(json.dumps(game.to_state())))
    assert [s.to_dict() for s in again.draw_rules()] == json.loads(json.dumps(states))
