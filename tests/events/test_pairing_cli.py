"""python -m arbiter.pairing pair|check on TRF files (the command line the arbiters' programs
offer): a small event paired round by round by the Dutch engine itself, written as a TRF."""

from arbiter.events.pairing import PlayerState
from arbiter.events.pairing.dutch import pair_dutch
from arbiter.events.tiebreaks import GameRecord
from arbiter.events.trf import TrfEvent, TrfPlayer, write_trf
from arbiter.pairing.__main__ import main

RESULTS = ["2-0", "1-1", "0-2", "2-0", "0-2", "1-1", "2-0"]


def _event(n=9, rounds=3):
    """Rounds paired by pair_dutch, results from a fixed cycle."""
    players = [TrfPlayer(i, i, f"Player {i}", 2400 - 10 * i) for i in range(1, n + 1)]
    games: list[GameRecord] = []
    state = {
        i: dict(score=0, colours=[], opponents=[], floats=[], had_bye=False)
        for i in range(1, n + 1)
    }
    k = 0
    for rnd in range(1, rounds + 1):
        ps = [
            PlayerState(
                id=i,
                pairing_number=i,
                score=s["score"] * 10,
                colours=tuple(s["colours"]),
                opponents=tuple(s["opponents"]),
                floats=tuple(s["floats"]),
                had_bye=s["had_bye"],
            )
            for i, s in state.items()
        ]
        result = pair_dutch(ps, rnd, rounds=5, points_win=20)
        before = {i: s["score"] for i, s in state.items()}
        for b in result.boards:
            if b.black_id is None:
                games.append(GameRecord(rnd, b.white_id, None, "bye"))
                s = state[b.white_id]
                s["score"] += 2
                s["had_bye"] = True
                s["colours"].append("-")
                s["floats"].append("down")
                continue
            r = RESULTS[k % len(RESULTS)]
            k += 1
            games.append(GameRecord(rnd, b.white_id, b.black_id, r))
            pw = {"2-0": 2, "1-1": 1, "0-2": 0}[r]
            for me, other, colour, pts in (
                (b.white_id, b.black_id, "W", pw),
                (b.black_id, b.white_id, "B", 2 - pw),
            ):
                s = state[me]
                s["score"] += pts
                s["colours"].append(colour)
                s["opponents"].append(other)
                d = before[me] - before[other]
                s["floats"].append("down" if d > 0 else "up" if d < 0 else None)
    text = write_trf(TrfEvent(name="Cli test", rounds=5, initial_colour="W"), players, games)
    return text, games


def test_check_finds_every_round_identical(tmp_path, capsys):
    text, _ = _event()
    path = tmp_path / "event.trf"
    path.write_text(text)
    assert main(["check", "--system", "dutch", str(path)]) == 0
    assert "3 of 3 rounds identical" in capsys.readouterr().out


def test_check_lists_a_changed_round_with_its_deciding_criterion(tmp_path, capsys):
    text, games = _event()
    # Swap the colours of one round-3 board: same pairs, colours differ.
    lines = text.split("\r\n")
    target = next(g for g in games if g.round == 3 and g.black_id is not None)
    out = []
    for line in lines:
        if line.startswith("001"):
            number = int(line[4:8])
            if number in (target.white_id, target.black_id):
                cell = list(line[91 + 20 : 91 + 28])
                cell[5] = "b" if cell[5] == "w" else "w"
                line = line[: 91 + 20] + "".join(cell) + line[91 + 28 :]
        out.append(line)
    path = tmp_path / "event.trf"
    path.write_text("\r\n".join(out))
    assert main(["check", str(path)]) == 1
    printed = capsys.readouterr().out
    assert "round 3: same pairs, colours differ" in printed
    assert "2 of 3 rounds identical" in printed


def test_pair_writes_the_next_round(tmp_path, capsys):
    text, _ = _event()
    path = tmp_path / "event.trf"
    path.write_text(text)
    out = tmp_path / "pairs.txt"
    assert main(["pair", "--system", "dutch", str(path), "-o", str(out)]) == 0
    lines = out.read_text().split("\n")
    assert int(lines[0]) == 5  # 9 players: 4 boards and the bye
    boards = [tuple(map(int, x.split())) for x in lines[1:6]]
    numbers = sorted(n for b in boards for n in b if n)
    assert numbers == list(range(1, 10))
    assert sum(1 for b in boards if b[1] == 0) == 1


def test_pair_explains_and_check_rejects_a_bad_file(tmp_path, capsys):
    text, _ = _event()
    path = tmp_path / "event.trf"
    path.write_text(text)
    assert main(["pair", str(path), "--explain"]) == 0
    assert "# Bracket" in capsys.readouterr().out
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      X".ljust(91) + "   7 w 1\r\n")
    try:
        main(["check", str(bad)])
    except SystemExit as e:
        assert e.code == 3
    assert "opponent 7 has no player line" in capsys.readouterr().err
