"""Perft against the published counts of data/perft.json (FMJD convention: routes taking
the same pieces from the same start to the same end are one move)."""

import pytest

from rules import Position, perft

PERFT_NAMES = ["start", "random178", "woldouby", "all_kings", "almost_promotion"]


def _positions(perft_data):
    return {p["name"]: p for p in perft_data["positions"]}


def _tree_size(position: Position, depth: int) -> int:
    """Perft through the public API (legal_moves + play), to cross-check the fast path."""
    if depth == 0:
        return 1
    return sum(_tree_size(position.play(m), depth - 1) for m in position.legal_moves())


def test_every_perft_position_is_tested(perft_data):
    assert sorted(_positions(perft_data)) == sorted(PERFT_NAMES)


@pytest.mark.parametrize("name", PERFT_NAMES)
@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_fmjd_3_4_perft_matches_published_counts(perft_data, name, depth):
    p = _positions(perft_data)[name]
    assert perft(Position.from_fen(p["fen"]), depth) == p["counts"][depth - 1]


@pytest.mark.parametrize("name", PERFT_NAMES)
def test_fmjd_4_13_public_api_tree_matches_published_counts(perft_data, name):
    p = _positions(perft_data)[name]
    assert _tree_size(Position.from_fen(p["fen"]), 3) == p["counts"][2]


def test_perft_depth_zero_is_one_node():
    assert perft(Position.start(), 0) == 1


def test_perft_rejects_negative_depth():
    with pytest.raises(ValueError):
        perft(Position.start(), -1)


@pytest.mark.slow
@pytest.mark.parametrize("name", PERFT_NAMES)
@pytest.mark.parametrize("depth", [6, 7])
def test_fmjd_perft_deep(perft_data, name, depth):
    p = _positions(perft_data)[name]
    assert perft(Position.from_fen(p["fen"]), depth) == p["counts"][depth - 1]


@pytest.mark.slow
def test_fmjd_perft_start_depth_8_counts_same_pieces_routes_once(perft_data):
    # 6,483,961 (one move per set of pieces); counting routes would give 6,483,971.
    p = _positions(perft_data)["start"]
    assert perft(Position.from_fen(p["fen"]), 8) == p["counts"][7]
