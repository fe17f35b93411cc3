"""`python -m rules`: perft, moves, replay, svg; bad input gives one line on stderr."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rules import Position

ROOT = Path(__file__).resolve().parent.parent.parent


def run(*args, check_status=None):
    proc = subprocess.run(
        [sys.executable, "-m", "rules", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr
    if check_status is not None:
        assert proc.returncode == check_status, proc.stderr
    return proc


def test_perft_prints_the_published_leaf_counts(perft_data):
    for entry in perft_data["positions"][:3]:
        proc = run("perft", entry["fen"], 3, check_status=0)
        assert proc.stdout.strip() == str(entry["counts"][2]), entry["name"]


def test_perft_of_the_start_position_by_name():
    assert run("perft", "start", 2, check_status=0).stdout == "81\n"
    assert run("perft", "start", 0, check_status=0).stdout == "1\n"


def test_fmjd_4_1_moves_lists_only_the_compulsory_capture_in_pdn():
    # Capture is compulsory (4.1) and goes on from the landing square (4.5): 46-41 is not legal.
    proc = run("moves", "W:W32,46:B27,17,1", check_status=0)
    assert proc.stdout.splitlines() == ["32x12"]


def test_moves_of_the_start_position_one_per_line():
    proc = run("moves", "W:W31-50:B1-20", check_status=0)
    pos = Position.start()
    assert proc.stdout.splitlines() == [pos.move_text(m) for m in sorted(pos.legal_moves())]
    assert proc.stdout.splitlines()[:2] == ["31-26", "31-27"]
    assert len(proc.stdout.splitlines()) == 9


def test_replay_prints_every_game_in_order(tmp_path):
    path = tmp_path / "two.pdn"
    path.write_text('[Result "2-0"]\n1. 32-28 19-23 2-0\n\n[Result "1-1"]\n1. 32-28 1-1\n')
    proc = run("replay", path, check_status=0)
    lines = proc.stdout.splitlines()
    after_two = Position.start().play("32-28").play("19-23").fen()
    assert lines[0] == f"1\t2\t{after_two}\t2-0"
    assert lines[1].startswith("2\t1\tB:") and lines[1].endswith("\t1-1")


def test_replay_json_has_one_object_per_game_with_the_agreed_keys(tmp_path):
    path = tmp_path / "mixed.pdn"
    path.write_text(
        '[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
        '[Result "0-1"]\n1. 32-28 19-23 2. 28-22 0-1\n\n'
        '[Result "1-9"]\n1. 33-28 1-9\n'
    )
    proc = run("replay", path, "--json")
    assert proc.returncode == 3  # read, but one game could not be replayed
    assert proc.stderr.count("\n") == 1 and "1 of 3 games" in proc.stderr
    out = json.loads(proc.stdout)
    assert [set(o) for o in out] == [{"index", "plies", "fen", "result", "warnings", "error"}] * 3
    assert [o["index"] for o in out] == [1, 2, 3]
    assert [o["plies"] for o in out] == [2, 2, 1]
    assert [o["result"] for o in out] == ["2-0", "0-2", "1-9"]
    assert out[0]["error"] is None and out[0]["warnings"] == []
    assert "mixed.pdn, game 2, line 5:19, ply 3 ('28-22')" in out[1]["error"]
    assert "legal moves: 28x19" in out[1]["error"]
    assert out[2]["warnings"] == ["non-standard result '1-9' in the Result tag"]


def test_replay_of_a_shared_file(shared_data):
    path = shared_data / "pdn" / "wiegerw-pdn" / "succeed" / "kurnik.pdn"
    out = json.loads(run("replay", path, "--json", check_status=0).stdout)
    assert len(out) == 4 and all(o["error"] is None for o in out)
    assert out[0]["result"] == "0-2"


def test_svg_writes_a_diagram_to_stdout():
    proc = run("svg", "W:W28,K46:B19", check_status=0)
    root = ET.fromstring(proc.stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert 'class="piece white-king"' in proc.stdout
    proc = run("svg", "start", "--last-move", "32-28", "--before", "--flipped", check_status=0)
    assert 'class="last-move-path"' in proc.stdout


@pytest.mark.parametrize(
    "args, status, says",
    [
        ([], 2, "required"),
        (["bogus"], 2, "invalid choice"),
        (["perft", "start"], 2, "required"),
        (["perft", "start", "x"], 1, "depth 'x' is not a whole number"),
        (["perft", "start", "-1"], 1, "negative"),
        (["perft", "W:W51:B1", "1"], 1, "51"),
        (["moves", "not a fen"], 1, "FEN"),
        (["replay", "does-not-exist.pdn"], 1, "does-not-exist.pdn: no such file"),
        (["replay", "rules"], 1, "is a directory"),
        (["svg", "W:W1:B2", "--last-move", "1-2", "--before"], 1, "illegal move"),
        (["svg", "start", "--size", "big"], 2, "invalid int value"),
        (["perft", "start", "99999999999999999999"], 1, "too deep"),
        (["perft", "start", "41"], 1, "at most 40 plies"),
        (["perft", "start", "1_0"], 1, "not a whole number"),
        (["perft", "start", "\u0663"], 1, "not a whole number"),
        (["moves", "W:W\uff13\uff11:B1"], 1, "is not a square, 'K'+square or a range"),
        (["perft", "", "1"], 1, "empty"),
        (["perft", "W:W31:B31", "1"], 1, "listed twice, for White and for Black"),
        (["moves", "W:W31,31:B1"], 1, "listed twice in White's pieces"),
        (["moves", ""], 1, "empty"),
        (["svg", "start", "--last-move", "zz"], 1, "not a move"),
        (["svg", "start", "--last-move", "99-28"], 1, "99"),
        (["svg", "start", "--size", "0"], 1, "at least 50"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line_on_stderr(args, status, says):
    proc = run(*args)
    assert proc.returncode == status
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("python -m rules: ")
    assert says in proc.stderr
    assert proc.stdout == ""


def test_binary_and_empty_files_give_no_traceback(tmp_path):
    binary = tmp_path / "noise.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    proc = run("replay", binary)
    assert proc.returncode in (0, 3) and proc.stderr.count("\n") <= 1
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    proc = run("replay", empty, "--json", check_status=0)
    assert json.loads(proc.stdout) == []
