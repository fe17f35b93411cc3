"""Hand edits of a pairing turned into whole board lists for set_pairing."""

import pytest

from arbiter.events.pairing_edit import set_board, swap_players

BOARDS = [(1, 2), (3, 4), (5, None)]


def seated(boards):
    return sorted(p for board in boards for p in board if p is not None)


def test_swapping_players_on_two_boards_exchanges_their_seats():
    assert swap_players(BOARDS, 1, 4) == [(4, 2), (3, 1), (5, None)]


def test_swapping_the_two_players_of_a_board_reverses_the_colours():
    assert swap_players(BOARDS, 1, 2) == [(2, 1), (3, 4), (5, None)]


def test_swapping_with_the_bye_gives_the_bye_away():
    assert swap_players(BOARDS, 5, 3) == [(1, 2), (5, 4), (3, None)]


def test_swapping_an_unpaired_player_is_refused_naming_them():
    with pytest.raises(ValueError, match="player 9 is not paired"):
        swap_players(BOARDS, 1, 9)


def test_setting_a_board_moves_the_displaced_players_to_the_freed_seats():
    new = set_board(BOARDS, 1, 3, 2)
    assert new == [(3, 2), (1, 4), (5, None)]
    assert seated(new) == seated(BOARDS)


def test_setting_a_board_with_a_bye_gives_the_displaced_black_a_bye_board():
    new = set_board(BOARDS, 2, 3, None)
    assert new == [(1, 2), (3, None), (5, None), (4, None)]
    assert seated(new) == seated(BOARDS)


def test_setting_a_new_board_with_an_unpaired_player():
    new = set_board(BOARDS, 4, 6, 5)
    assert new == [(1, 2), (3, 4), (6, 5)]  # the emptied bye board disappears


def test_setting_a_board_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="board 7 does not exist"):
        set_board(BOARDS, 7, 1, 2)
