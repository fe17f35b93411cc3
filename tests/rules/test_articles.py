"""Every position of data/articles.json: the exact legal move set, per FMJD article."""

import pytest

from rules import Position


def _cases(articles_data, article):
    return [p for p in articles_data["positions"] if p["article"] == article]


def _moves(fen):
    return sorted(str(m) for m in Position.from_fen(fen).legal_moves())


ARTICLES = {
    "3.4": "man_moves_forward_one_square",
    "3.5": "man_reaching_far_row_moves_there",
    "3.9": "king_flies_over_free_squares",
    "4.2": "man_captures_adjacent_forwards_and_backwards",
    "4.3": "king_captures_at_distance_and_lands_anywhere_behind",
    "4.5": "man_multiple_capture",
    "4.6": "king_multiple_capture_turning",
    "4.8": "jumped_pieces_block_until_capture_ends",
    "4.13": "majority_capture_is_compulsory",
    "4.14": "no_priority_for_kings",
    "4.15": "man_passing_the_king_row_stays_a_man",
}


def test_every_article_of_the_data_file_is_covered(articles_data):
    assert {p["article"] for p in articles_data["positions"]} == set(ARTICLES)


@pytest.mark.parametrize(
    "article", list(ARTICLES), ids=[f"fmjd_{a.replace('.', '_')}_{n}" for a, n in ARTICLES.items()]
)
def test_fmjd_article_positions_have_exactly_the_listed_moves(articles_data, article):
    cases = _cases(articles_data, article)
    assert cases
    for case in cases:
        assert _moves(case["fen"]) == sorted(case["moves"]), case["fen"]


def test_fmjd_4_15_man_passing_the_king_row_stays_a_man(articles_data):
    (case,) = _cases(articles_data, "4.15")
    pos = Position.from_fen(case["fen"])
    (move,) = pos.legal_moves()
    assert move.path == (15, 4, 13) and not move.promotes
    assert pos.play(move).piece_at(13) == "w"


def test_fmjd_3_5_man_ending_on_the_far_row_is_crowned(articles_data):
    pos = Position.from_fen(_cases(articles_data, "3.5")[0]["fen"])
    move = pos.parse_move("8-3")
    assert move.promotes
    assert pos.play(move).piece_at(3) == "W"
