"""The PDN writer: canonical output, round trips, and properties over random games."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game, Position
from rules.pdn import PdnError, PdnGame, read_file, read_games, write_game, write_games
from tests.conftest import SHARED_DATA


def test_canonical_output_for_a_short_game():
    g = read_games('[White "A"]\n[Black "B"]\n[Result "1-0"]\n1.32-28 19-23 2.28x19 14x23 1-0')[0]
    assert write_game(g) == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
        '[White "A"]\n[Black "B"]\n[Result "2-0"]\n[GameType "20"]\n'
        "\n1. 32-28 19-23 2. 28x19 14x23 2-0\n"
    )


@pytest.mark.parametrize(
    "written, canonical",
    [("1-0", "2-0"), ("0-1", "0-2"), ("1/2-1/2", "1-1"), ("2-0", "2-0"), ("0-0", "0-0")],
)
def test_fmjd_7_results_are_written_in_the_draughts_form(written, canonical):
    g = read_games(f'[Result "{written}"]\n1. 32-28 {written}')[0]
    out = write_game(g)
    assert f'[Result "{canonical}"]' in out
    assert out.rstrip().endswith(f"32-28 {canonical}")


def test_non_standard_result_is_kept_in_a_tag_and_the_game_marked_unfinished():
    g = read_games('[Result "1-9"]\n1. 32-28 1-9')[0]
    out = write_game(g)
    assert '[Result "*"]' in out and '[ResultText "1-9"]' in out
    assert out.rstrip().endswith("32-28 *")


def test_fen_tag_only_when_not_the_start_and_black_to_move_numbering():
    g = read_games('[FEN "B:W8,25,30:B7,15,18."]\n1. ... 7-12 2. 8x17 18-23 *')[0]
    out = write_game(g)
    assert '[FEN "B:W8,25,30:B7,15,18"]' in out
    assert "1... 7-12 2. 8x17 18-23 *" in out
    assert "FEN" not in write_game(read_games('[FEN "W:W31-50:B1-20"]\n1. 32-28 *')[0])


def test_fmjd_8_2_ambiguous_capture_is_written_with_every_landing_square():
    fen = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"
    g = PdnGame.from_moves(["36x13x2x16"], start_fen=fen)
    assert "1. 36x13x2x16 *" in write_game(g)
    # ... and an unambiguous one is shortened, even when it was written in full.
    g = read_games('[FEN "W:W32:B27,17,1"]\n1. 32x21x12 *')[0]
    assert "1. 32x12 *" in write_game(g)


def test_comments_variations_nags_and_strength_survive_with_numbers():
    text = "{start} 1. 32-28! $1 {[%clk 1:00:00]} 19-23 (18-23?! {alt} 2. 38-32) 2. 28x19 *"
    g = read_games(text)[0]
    out = write_game(g)
    assert "{start} 1. 32-28! $1 {[%clk 1:00:00]} 1... 19-23 (1... 18-23?! {alt} 2. 38-32)" in out
    assert "2. 28x19 *" in out
    again = read_games(out)[0]
    assert again.moves[0].clock.mover_ms == 3_600_000
    assert again.moves[0].nags == [1] and again.moves[0].strength == "!"


def test_braces_inside_comments_cannot_break_the_output():
    g = read_games("1. 32-28 {a {nested} b} *")[0]
    again = read_games(write_game(g))[0]
    assert again.error is None and again.warnings == []
    assert again.moves[0].comments == ["a (nested) b"]


def test_long_movetext_lines_are_at_most_80_characters():
    g = read_games("{" + "word " * 100 + "} " + "1. 32-28 19-23 2. 37-32 14-19 " * 1 + "*")[0]
    body = write_game(g).split("\n\n", 1)[1]
    assert max(len(line) for line in body.splitlines()) <= 80
    assert len(body.splitlines()) > 5


def test_a_game_record_from_the_engine_is_written():
    game = Game()
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        game.push(text)
    out = write_game(PdnGame.from_game(game, tags={"White": "W", "Result": "1-1"}))
    assert "1. 32-28 19-23 2. 28x19 14x23 1-1" in out
    assert '[White "W"]' in out


def test_unreplayed_moves_of_a_game_with_an_error_are_written_as_read():
    g = read_games("1. 32-28 19-23 2. 28-22 14x23 *")[0]
    assert g.error is not None
    assert "2. 28-22 14x23 *" in write_game(g)


def _texts(moves):
    return [
        (
            m.notation or m.text,
            m.strength,
            m.nags,
            [" ".join(c.split()) for c in m.comments],
            [_texts(v) for v in m.variations],
        )
        for m in moves
    ]


def assert_same_game(a: PdnGame, b: PdnGame) -> None:
    assert b.error is None, str(b.error)
    assert [m.move for m in b.moves] == [m.move for m in a.moves]
    assert [m.move.path for m in b.moves] == [m.move.path for m in a.moves]
    assert b.positions == a.positions
    assert b.result == (a.result if a.result in ("2-0", "1-1", "0-2", "0-0", "*") else "*")
    for name, value in a.tags.items():
        if name not in ("Result", "GameType", "FEN", "SetUp") and value.strip():
            assert b.tags[name] == value
    assert [" ".join(c.split()) for c in b.comments] == [" ".join(c.split()) for c in a.comments]
    strip = [(t[1], t[2], t[3], t[4]) for t in _texts(a.moves)]
    assert [(t[1], t[2], t[3], t[4]) for t in _texts(b.moves)] == strip


def _corpus_files():
    if not SHARED_DATA.is_dir():
        return []
    root = SHARED_DATA / "pdn"
    files = sorted((root / "wiegerw-pdn" / "succeed").glob("*.pdn"))
    files += [root / "wiersma.pdn", root / "mobydam" / "loi23.pdn"]
    return files


@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_corpus_round_trip_gives_the_same_games(shared_data, path: Path):
    games = read_file(path)
    out = write_games(games)
    again = read_games(out)
    assert len(again) == len(games)
    for a, b in zip(games, again, strict=True):
        assert_same_game(a, b)
    assert write_games(again) == out  # canonical: writing is idempotent
    body_lines = [line for line in out.splitlines() if not line.startswith("[")]
    too_long = [line for line in body_lines if len(line) > 80 and " " in line.strip("{}")]
    assert too_long == []


# --------------------------------------------------------------------- properties


@st.composite
def random_positions(draw):
    if draw(st.booleans()):
        return Position.start()
    squares = draw(st.lists(st.integers(1, 50), min_size=2, max_size=24, unique=True))
    white, black = [], []
    for i, sq in enumerate(squares):
        king = draw(st.integers(0, 9)) < 3
        side = white if i % 2 == 0 else black
        if not king and ((side is white and sq <= 5) or (side is black and sq >= 46)):
            king = True  # a man never stands on its promotion row (FMJD 3.5)
        side.append(f"K{sq}" if king else str(sq))
    turn = draw(st.sampled_from("WB"))
    return Position.from_fen(f"{turn}:W{','.join(white)}:B{','.join(black)}")


@st.composite
def random_games(draw):
    start = draw(random_positions())
    pos = start
    moves = []
    for _ in range(draw(st.integers(0, 80))):
        legal = pos.legal_moves()
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        moves.append(move)
        pos = pos.play(move)
    return start, moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_written_then_read_gives_the_same_moves_and_positions(start_and_moves):
    start, moves = start_and_moves
    record = PdnGame.from_moves(moves, start_fen=start.fen(), tags={"Event": "random"})
    out = write_game(record)
    (again,) = read_games(out)
    assert again.error is None, str(again.error)
    assert again.warnings == []
    assert [m.move for m in again.moves] == moves
    assert [m.move.path for m in again.moves] == [m.path for m in moves]
    assert again.positions == record.positions
    body = out.split("\n\n", 1)[1]  # a tag pair (a long FEN) cannot be wrapped
    assert max(len(line) for line in body.splitlines()) <= 80


def _sample_text() -> str:
    for path in _corpus_files():
        if path.name == "nk ronde 01.pdn":
            return path.read_bytes().decode("utf-8", "replace")
    return (
        '[Event "e"]\n[Result "2-0"]\n{c} 1. 32-28 19-23 (18-23 {x} 2. 38-32) 2. 28x19 14x23 $1'
        " 3. 37-32! 10-14 2-0\n"
    )


SAMPLE = _sample_text()[:2500]


@st.composite
def mutated_pdn(draw):
    text = SAMPLE
    for _ in range(draw(st.integers(1, 12))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        ch = draw(st.sampled_from(list('0123456789-x:.{}()[]"$!?*;% \n\r') + ["\u00e9", "\x00"]))
        if op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "insert":
            text = text[:i] + ch + text[i:]
        else:
            text = text[:i] + ch + text[i + 1 :]
    return text


def _check_outcome(games):
    for g in games:
        assert g.error is None or isinstance(g.error, PdnError)
        if g.error is not None:
            assert str(g.error)
        assert all(isinstance(w, str) for w in g.warnings)
        if g.positions:
            assert g.plies <= len(g.moves)
        write_game(g)  # whatever was read can be written


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_pdn())
def test_reader_never_crashes_on_mutated_real_pdn(text):
    _check_outcome(read_games(text, source="mutated.pdn"))
    _check_outcome(read_games(text.encode("utf-8", "surrogatepass"), source="mutated.pdn"))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_reader_never_crashes_on_arbitrary_text(text):
    _check_outcome(read_games(text))


def test_tag_values_stay_on_one_line_and_bad_tag_names_are_refused():
    g = PdnGame.from_moves(["32-28"], tags={"Event": 'Open "A"\nround 2'})
    out = write_game(g)
    assert '[Event "Open \\"A\\" round 2"]' in out
    assert read_games(out)[0].tags["Event"] == 'Open "A" round 2'
    with pytest.raises(ValueError, match="tag name 'my tag' is not a PDN name"):
        write_game(PdnGame.from_moves([], tags={"my tag": "x"}))


def test_clock_readings_are_written_and_read_back():
    from rules.pdn import ClockReading, format_clock

    clocks = [
        ClockReading(white_ms=299_500, black_ms=300_000, running="black"),
        ClockReading(mover_ms=(1 * 3600 + 55 * 60 + 21) * 1000),
    ]
    assert format_clock(clocks[0]) == "[%clock w0:04:59.5 B0:05:00]"
    assert format_clock(clocks[1]) == "[%clk 1:55:21]"
    out = write_game(PdnGame.from_moves(["32-28", "19-23"], clocks=clocks))
    assert "1. 32-28 {[%clock w0:04:59.5 B0:05:00]} 1... 19-23 {[%clk 1:55:21]} *" in out
    again = read_games(out)[0]
    assert [m.clock for m in again.moves] == clocks
    assert write_game(again) == out  # the comment carries the clock: not written twice


@pytest.mark.parametrize("game_type", ["21", "20,W,10,10,N2,0"])
def test_game_type_is_written_as_read_never_relabelled_as_20(game_type):
    out = write_game(read_games(f'[GameType "{game_type}"]\n1. 32-28 *')[0])
    assert f'[GameType "{game_type}"]' in out
    assert out.count("[GameType") == 1
