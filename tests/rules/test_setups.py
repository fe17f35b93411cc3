"""A position set within the game (FMJD 5.4, an irregularity maintained): the record keeps
it flagged with its article, the draw counters and the 6.1 history restart there, and the
PDN export (PDN 3.0's setup inside the movetext) reads back to the same positions."""

import json

import pytest

from rules import Game, Position, RulesError, Setup
from rules.pdn import PdnGame, read_games, write_game
from tests.rules.test_game import quiet_step

# After 1. 32-28 19-23 White had to take (28x19, FMJD 4.1) and played 37-32 instead: the
# board as it stands, Black to move.
BEFORE = ["32-28", "19-23"]
MAINTAINED = "B:W28,31-36,38-50:B1-18,20,23"
AFTER = ["18-22", "28x19"]


def maintained_game() -> Game:
    game = Game()
    for m in BEFORE:
        game.push(m)
    game.set_position(MAINTAINED, article="5.4", note="White did not capture; maintained by Black")
    for m in AFTER:
        game.push(m)
    return game


def test_fmjd_5_4_a_maintained_position_stands_in_the_record_in_the_place_of_a_ply():
    game = maintained_game()
    assert game.plies == 5
    ply, setup = game.setups[0]
    assert ply == 3 and isinstance(setup, Setup)
    assert (setup.article, setup.note) == ("5.4", "White did not capture; maintained by Black")
    assert game.history[3] == Position.from_fen(MAINTAINED)
    assert isinstance(game.moves[2], Setup) and str(game.moves[3]) == "18-22"
    assert game.move_texts()[2] == f'/FEN "{Position.from_fen(MAINTAINED).fen()}"/'


def test_fmjd_5_4_the_draw_counters_and_the_repetition_history_restart_at_a_setup():
    game = Game("W:WK47,K49,36:BK2,K4,15")
    for _ in range(10):
        quiet_step(game)
    assert game.draw_state()["kings_only_plies"] == 10
    game.set_position(game.position, article="5.4")  # the same board, set again
    states = {s.article: s for s in game.draw_rules()}
    assert states["6.2"].plies == 0 and states["6.2"].since_ply == 11
    assert states["6.1"].occurred_at == (11,)  # earlier positions no longer count
    for _ in range(49):
        quiet_step(game)
    assert game.outcome() is None
    quiet_step(game)
    assert game.outcome().article == "6.2"


def test_fmjd_6_4_counted_from_a_setup_with_its_material():
    game = Game()
    game.set_position("W:WK47,36:BK3", article="5.4")
    assert {s.article: s for s in game.draw_rules()}["6.4"].in_force
    for _ in range(9):
        quiet_step(game)
    assert game.check_claim("6.4").code == "too_early"
    quiet_step(game)
    assert game.check_claim("6.4").granted


def test_a_setup_is_taken_back_like_a_move_and_survives_the_stored_state():
    game = maintained_game()
    state = json.loads(json.dumps(game.to_state()))
    again = Game.from_state(state)
    assert again.position == game.position and again.to_state() == state
    # popping past the restored point replays the record, the setup included
    for _ in range(3):  # 28x19, 18-22, the setup
        assert again.pop() == game.pop()
    assert again.position == game.position == Position.from_fen("W:W28,31,33-50:B1-18,20,23")
    assert again.history == game.history


def test_a_setup_needs_an_article_of_fmjd_5_and_a_readable_position():
    game = Game()
    before = game.to_state()
    with pytest.raises(RulesError, match="art. 5"):
        game.set_position("W:W31:B1", article="6.1")
    with pytest.raises(RulesError):
        game.set_position("W:W99:B1", article="5.4")
    assert game.to_state() == before


def test_fmjd_5_4_pdn_export_of_a_maintained_position_reads_back_to_the_same_positions():
    game = maintained_game()
    text = write_game(PdnGame.from_game(game, tags={"Result": "*"}))
    assert '/FEN "B:' in text and "{FMJD 5.4: White did not capture" in text
    assert "2... 18-22 3. 28x19" in " ".join(text.split())  # numbering goes on after it
    back = read_games(text)[0]
    assert back.error is None and back.warnings == []
    assert [p.fen() for p in back.positions] == [p.fen() for p in game.history]
    again = back.to_game()
    assert again.history == game.history
    assert [(p, s.article, s.note) for p, s in again.setups] == [
        (p, s.article, s.note) for p, s in game.setups
    ]
    assert write_game(PdnGame.from_game(again, tags={"Result": "*"})) == text


def test_a_setup_before_the_first_move_keeps_the_start_position_in_the_export():
    game = Game()
    game.set_position("B:W28,31,33-50:B1-18,20", article="5.4")
    game.push("14-19")
    text = write_game(PdnGame.from_game(game))
    assert "[FEN " in text  # otherwise the setup would be read as the start (PDN 3.0)
    back = read_games(text)[0].to_game()
    assert back.history == game.history and back.setups[0][0] == 1


def test_pdn_3_0_example_of_an_illegal_first_move_reads_as_a_setup():
    text = '/FEN "W:W31-50:B1-20"/\n/FEN "B:W28,31,33-50:B1-18,20"/\n01... 14-19 *'
    g = read_games(text)[0]
    assert g.error is None and g.warnings == []
    assert g.positions[0] == Position.start()
    assert g.plies == 2 and isinstance(g.moves[0].move, Setup)
